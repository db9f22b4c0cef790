import { createPaymentProcessor, type PaymentProcessor, type PaymentsSettings } from '@expedition/payments';

/**
 * What the dispatcher needs from a processor adapter: its name, signature-checked event parsing, and the refund of
 * money that cannot become a policy (with the payment look-up a refund may need).
 */
export type ProcessorEventSource = Pick<
  PaymentProcessor,
  'name' | 'parseWebhookEvent' | 'refundPayment' | 'retrievePayment'
>;

/** The dispatcher verifies and parses events and refunds; it never creates payments. */
export function createProcessorEventSource(payments: PaymentsSettings, clock?: { now(): Date }): ProcessorEventSource {
  return createPaymentProcessor(payments, { clock });
}
