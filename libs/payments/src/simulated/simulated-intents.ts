import { createHash } from 'node:crypto';
import type { TestOutcome } from '../magic-test-values';
import type {
  ConfirmPaymentResult,
  PaymentFailure,
  RetrievedPayment,
  SettleSharedPaymentTokenResult,
} from '../processor';
import { toPaymentStatus, type StripeIntentLike } from '../stripe-format';
import type { SimulatedPaymentRecord } from './simulated-store';

/** The simulated processor's payment intents as Stripe shapes them: outcomes applied, statuses and failures read. */
export function applyOutcome(intent: StripeIntentLike, outcome: TestOutcome): StripeIntentLike {
  if (outcome.kind === 'succeed') return { ...intent, status: 'succeeded', last_payment_error: null };
  if (outcome.kind === 'requires_action') return { ...intent, status: 'requires_action' };
  // Stripe puts a declined intent back to requires_payment_method so another card can be tried.
  return {
    ...intent,
    status: 'requires_payment_method',
    last_payment_error: {
      type: 'card_error',
      code: outcome.code,
      ...(outcome.declineCode ? { decline_code: outcome.declineCode } : {}),
      message: outcome.message,
    },
  };
}

export function statusOf(intent: StripeIntentLike) {
  return toPaymentStatus(intent.status, intent.last_payment_error);
}

export function resultOf(intent: StripeIntentLike): ConfirmPaymentResult {
  return { paymentId: intent.id, status: statusOf(intent), ...failureOf(intent) };
}

export function failureOf(intent: StripeIntentLike): PaymentFailure {
  const error = intent.last_payment_error;
  if (!error || intent.status === 'succeeded') return {};
  return {
    ...(error.code ? { failureCode: error.code } : {}),
    ...(error.decline_code ? { declineCode: error.decline_code } : {}),
    ...(error.message ? { failureMessage: error.message } : {}),
  };
}

export function rejectedToken(code: string, message: string): SettleSharedPaymentTokenResult {
  return { paymentId: null, status: 'failed', replayed: false, failureCode: code, failureMessage: message };
}

export function retrievedOf(record: SimulatedPaymentRecord): RetrievedPayment {
  return {
    paymentId: record.intent.id,
    status: statusOf(record.intent),
    amountCents: record.intent.amount,
    currency: record.intent.currency,
    metadata: { ...record.intent.metadata },
    amountRefundedCents: refundedOf(record),
    ...failureOf(record.intent),
  };
}

export function refundedOf(record: SimulatedPaymentRecord): number {
  return (record.refunds ?? []).reduce((sum, r) => sum + r.amount, 0);
}

export function fingerprint(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('hex');
}
