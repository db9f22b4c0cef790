import { createPaymentProcessor, type PaymentProcessor, type PaymentsSettings } from '@expedition/payments';

/** What the intake needs from a processor adapter: its name and signature-checked event parsing. */
export type ProcessorEventSource = Pick<PaymentProcessor, 'name' | 'parseWebhookEvent'>;

/** The path the simulated processor (and a Stripe endpoint) should POST to. */
export const PROCESSOR_EVENTS_PATH = '/processor/events';

/** The dispatcher only verifies and parses events; it never creates payments. */
export function createProcessorEventSource(payments: PaymentsSettings, clock?: { now(): Date }): ProcessorEventSource {
  return createPaymentProcessor(payments, { clock });
}
