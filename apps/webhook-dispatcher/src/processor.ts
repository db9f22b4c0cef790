import type { Database } from '@expedition/db';
import {
  createPaymentProcessor,
  simulatedBooks,
  type PaymentProcessor,
  type PaymentsSettings,
} from '@expedition/payments';

/**
 * What the dispatcher needs from a processor adapter: its name, signature-checked event parsing, the refund of money
 * that cannot become a policy, and the look-ups the reconciler asks (a payment, a quote's payments).
 */
export type ProcessorEventSource = Pick<
  PaymentProcessor,
  'name' | 'parseWebhookEvent' | 'refundPayment' | 'retrievePayment' | 'findPayments' | 'searchLagMs'
>;

/** The dispatcher verifies and parses events, refunds and reconciles; it never creates payments. */
export function createProcessorEventSource(
  payments: PaymentsSettings,
  db: Database,
  clock?: { now(): Date },
): ProcessorEventSource {
  return createPaymentProcessor(payments, { clock, simulatedStore: simulatedBooks(db) });
}
