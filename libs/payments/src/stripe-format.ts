import type { Mode } from '@expedition/contracts/rules';
import type { PaymentStatus, ProcessorEvent } from './processor';

/**
 * Stripe's wire format, shared by the Stripe adapter and the simulated processor (which emits the same events,
 * so the dispatcher's intake runs one code path).
 */

export type StripeIntentStatus =
  | 'requires_payment_method'
  | 'requires_confirmation'
  | 'requires_action'
  | 'processing'
  | 'requires_capture'
  | 'canceled'
  | 'succeeded';

export interface StripeLastPaymentError {
  type?: string;
  code?: string;
  decline_code?: string;
  message?: string;
}

/** The PaymentIntent fields we read (and the simulated processor writes). */
export interface StripeIntentLike {
  id: string;
  object: 'payment_intent';
  amount: number;
  currency: string;
  status: StripeIntentStatus;
  livemode: boolean;
  metadata: Record<string, string>;
  last_payment_error: StripeLastPaymentError | null;
  client_secret?: string | null;
  created?: number;
}

export interface StripeEventLike {
  id: string;
  object: 'event';
  type: string;
  api_version?: string | null;
  created: number;
  livemode: boolean;
  data: { object: unknown };
}

/**
 * Stripe leaves a declined intent in `requires_payment_method` with `last_payment_error` set (it may be
 * retried with another card); for our callers that attempt has failed.
 */
export function toPaymentStatus(status: string, lastPaymentError?: StripeLastPaymentError | null): PaymentStatus {
  switch (status) {
    case 'succeeded':
      return 'succeeded';
    case 'requires_action':
      return 'requires_action';
    case 'processing':
    case 'requires_capture':
      return 'processing';
    case 'canceled':
      return 'canceled';
    case 'requires_payment_method':
      return lastPaymentError ? 'failed' : 'pending';
    default:
      return 'pending';
  }
}

const INTENT_TYPES: Record<string, 'payment.succeeded' | 'payment.failed'> = {
  'payment_intent.succeeded': 'payment.succeeded',
  'payment_intent.payment_failed': 'payment.failed',
};

const SESSION_TYPES: Record<string, 'payment.succeeded' | 'payment.failed'> = {
  'checkout.session.completed': 'payment.succeeded',
  'checkout.session.async_payment_succeeded': 'payment.succeeded',
  'checkout.session.async_payment_failed': 'payment.failed',
};

/** Maps a parsed Stripe event onto the port's small event type; unknown shapes become `other`. */
/** Stripe's largest charge is 99,999,999 minor units; anything larger (or not a whole positive number) is malformed. */
export const MAX_EVENT_AMOUNT_CENTS = 99_999_999;
/** Ids are indexed columns: a bounded, plain shape (Stripe's are far shorter). */
const PROCESSOR_ID = /^[A-Za-z0-9_-]{1,255}$/;

export function normalizeStripeEvent(event: unknown): ProcessorEvent | undefined {
  if (!isRecord(event) || typeof event['id'] !== 'string' || typeof event['type'] !== 'string') return undefined;
  if (!PROCESSOR_ID.test(event['id']) || event['type'].length > 255) return undefined;
  const base = {
    id: event['id'],
    sourceType: event['type'],
    mode: event['livemode'] === true ? ('live' as const) : ('test' as const),
    raw: event,
  };
  const object = isRecord(event['data']) ? event['data']['object'] : undefined;
  const intentType = INTENT_TYPES[base.sourceType];
  if (intentType && isRecord(object)) return fromIntent(base, intentType, object);
  const sessionType = SESSION_TYPES[base.sourceType];
  if (sessionType && isRecord(object)) return fromSession(base, sessionType, object);
  return { ...base, type: 'other' };
}

type Base = { id: string; sourceType: string; mode: Mode; raw: unknown };

/** Where money enters: a plain id, a whole amount within what a processor can charge, an ISO currency. */
function validPayment(id: string, amount: number, currency: string): boolean {
  return (
    PROCESSOR_ID.test(id) &&
    Number.isSafeInteger(amount) &&
    amount >= 0 &&
    amount <= MAX_EVENT_AMOUNT_CENTS &&
    /^[A-Za-z]{3}$/.test(currency)
  );
}

function fromIntent(
  base: Base,
  type: 'payment.succeeded' | 'payment.failed',
  pi: Record<string, unknown>,
): ProcessorEvent | undefined {
  if (typeof pi['id'] !== 'string' || typeof pi['amount'] !== 'number' || typeof pi['currency'] !== 'string') {
    return { ...base, type: 'other' };
  }
  if (!validPayment(pi['id'], pi['amount'], pi['currency'])) return undefined;
  const error = isRecord(pi['last_payment_error']) ? pi['last_payment_error'] : undefined;
  return {
    ...base,
    type,
    paymentId: pi['id'],
    amountCents: pi['amount'],
    currency: pi['currency'],
    metadata: stringRecord(pi['metadata']),
    ...failureFields(type, error),
  };
}

function fromSession(
  base: Base,
  type: 'payment.succeeded' | 'payment.failed',
  cs: Record<string, unknown>,
): ProcessorEvent | undefined {
  // `completed` also fires for async methods before the money arrives; only `paid` means paid.
  if (base.sourceType === 'checkout.session.completed' && cs['payment_status'] !== 'paid') {
    return { ...base, type: 'other' };
  }
  const intent = cs['payment_intent'];
  const paymentId = typeof intent === 'string' ? intent : isRecord(intent) ? intent['id'] : undefined;
  if (typeof paymentId !== 'string' || typeof cs['amount_total'] !== 'number' || typeof cs['currency'] !== 'string') {
    return { ...base, type: 'other' };
  }
  if (!validPayment(paymentId, cs['amount_total'], cs['currency'])) return undefined;
  return {
    ...base,
    type,
    paymentId,
    amountCents: cs['amount_total'],
    currency: cs['currency'],
    metadata: stringRecord(cs['metadata']),
    ...(typeof cs['id'] === 'string' ? { checkoutSessionId: cs['id'] } : {}),
  };
}

function failureFields(type: string, error: Record<string, unknown> | undefined) {
  if (type !== 'payment.failed' || !error) return {};
  return {
    ...(typeof error['code'] === 'string' ? { failureCode: error['code'] } : {}),
    ...(typeof error['decline_code'] === 'string' ? { declineCode: error['decline_code'] } : {}),
    ...(typeof error['message'] === 'string' ? { failureMessage: error['message'] } : {}),
  };
}

function stringRecord(value: unknown): Record<string, string> {
  if (!isRecord(value)) return {};
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value)) if (typeof v === 'string') out[k] = v;
  return out;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A Stripe-format event around a PaymentIntent snapshot; used by the simulator and the offline fake. */
export function buildIntentEvent(input: {
  id: string;
  type: 'payment_intent.succeeded' | 'payment_intent.payment_failed';
  createdSec: number;
  intent: StripeIntentLike;
}): StripeEventLike {
  // Events travel to other services and logs; the browser-only client secret stays out of them.
  const { client_secret: _clientSecret, ...intent } = input.intent;
  return {
    id: input.id,
    object: 'event',
    type: input.type,
    api_version: null,
    created: input.createdSec,
    livemode: input.intent.livemode,
    data: { object: intent },
  };
}
