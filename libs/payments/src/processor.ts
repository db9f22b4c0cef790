/**
 * The payment-processor port. Apps talk to this, never to Stripe directly, so the simulated processor and
 * the Stripe adapter are interchangeable (docs/decisions.md, the money path).
 */
import type { Mode } from '@expedition/contracts/rules';

export type PaymentStatus = 'pending' | 'requires_action' | 'processing' | 'succeeded' | 'failed' | 'canceled';

export type PaymentChannel = 'checkout_link' | 'mpp' | 'embed' | 'acp';

/** Sent to the processor and echoed back in its events; that echo is how webhook intake finds the quote. */
export interface PaymentMetadata {
  quoteId: string;
  planId: string;
  operatorId?: string;
  channel: PaymentChannel;
  [key: string]: string | undefined;
}

export interface CreatePaymentInput {
  amountCents: number;
  /** ISO 4217; sent lowercase to the processor. */
  currency: string;
  mode: Mode;
  /** Same key, same request → the same payment (processor-side idempotency). */
  idempotencyKey: string;
  metadata: PaymentMetadata;
}

export interface CreatePaymentResult {
  paymentId: string;
  /** Handed to the browser (Stripe.js / our checkout page) to confirm; not a server credential. */
  clientSecret: string;
  status: PaymentStatus;
}

export interface PaymentFailure {
  /** Processor error code, e.g. `card_declined`, `processing_error`. */
  failureCode?: string;
  /** Finer reason for card declines, e.g. `insufficient_funds`, `generic_decline`. */
  declineCode?: string;
  failureMessage?: string;
}

export interface ConfirmPaymentInput {
  paymentId: string;
  mode: Mode;
  /** Simulated: a magic test card number or `pm_card_*` token. Stripe: a `pm_…` id. */
  paymentMethod: string;
  /** Only needed by Stripe for redirect-based methods. */
  returnUrl?: string;
  /** The payment claim's key (`pay_<quoteId>_a<attempt>`, any channel): a crash-and-retry repeats, never re-charges. */
  idempotencyKey?: string;
}

export interface ConfirmPaymentResult extends PaymentFailure {
  paymentId: string;
  status: PaymentStatus;
}

export interface SettleSharedPaymentTokenInput {
  amountCents: number;
  currency: string;
  mode: Mode;
  /** The Shared Payment Token from the MPP credential. Never log it. */
  spt: string;
  challengeId: string;
  /**
   * Keyed per quote and claim attempt (`pay_<quoteId>_a<attempt>`), not per credential or channel: after a crash the same
   * attempt cannot be settled again with another token; the processor refuses (idempotency_error) instead.
   */
  idempotencyKey: string;
  metadata: PaymentMetadata;
}

export interface RetrievePaymentInput {
  paymentId: string;
  mode: Mode;
}

export interface FindPaymentsInput {
  /** The quote whose payments to list: every payment we create carries its `quoteId` in the metadata. */
  quoteId: string;
  mode: Mode;
}

/**
 * What the processor knows of one payment now: how a claim taken over from a crashed holder learns its fate, and how
 * fulfillment confirms what a processor event reports. A failed payment carries the processor's own failure fields
 * (Stripe's `last_payment_error`).
 */
export interface RetrievedPayment extends PaymentFailure {
  paymentId: string;
  status: PaymentStatus;
  amountCents: number;
  currency: string;
  metadata: Record<string, string>;
  /** Minor units already refunded. */
  amountRefundedCents: number;
}

export type RefundReason = 'duplicate' | 'requested_by_customer' | 'fraudulent';

export interface RefundPaymentInput {
  paymentId: string;
  mode: Mode;
  /** The whole amount when absent. */
  amountCents?: number;
  reason: RefundReason;
  /** `refund_<paymentId>`: a refund retried after a crash is the same refund. */
  idempotencyKey: string;
  metadata?: Record<string, string>;
}

export interface RefundPaymentResult {
  refundId: string;
  status: 'succeeded' | 'pending' | 'failed';
  amountCents: number;
}

export interface SettleSharedPaymentTokenResult extends PaymentFailure {
  /** null when the processor rejected the token before creating a payment (e.g. an unknown or used SPT). */
  paymentId: string | null;
  status: PaymentStatus;
  /** The processor answered from its idempotency cache: this settlement happened before. */
  replayed: boolean;
}

interface ProcessorEventBase {
  /** Processor event id (`evt_…`); webhook intake is idempotent on it. */
  id: string;
  /** The processor's own event type, e.g. `payment_intent.succeeded`. */
  sourceType: string;
  mode: Mode;
  raw: unknown;
}

export interface PaymentProcessorEvent extends ProcessorEventBase, PaymentFailure {
  type: 'payment.succeeded' | 'payment.failed';
  /** The PaymentIntent id: every path (webhook, synchronous MPP settle) keys the purchase on it. */
  paymentId: string;
  amountCents: number;
  currency: string;
  metadata: Record<string, string>;
  /** Set when the event came from a Checkout Session rather than a PaymentIntent. */
  checkoutSessionId?: string;
}

export interface OtherProcessorEvent extends ProcessorEventBase {
  type: 'other';
}

export type ProcessorEvent = PaymentProcessorEvent | OtherProcessorEvent;

export interface PaymentProcessor {
  readonly name: 'simulated' | 'stripe';
  createPayment(input: CreatePaymentInput): Promise<CreatePaymentResult>;
  confirmPayment(input: ConfirmPaymentInput): Promise<ConfirmPaymentResult>;
  settleSharedPaymentToken(input: SettleSharedPaymentTokenInput): Promise<SettleSharedPaymentTokenResult>;
  retrievePayment(input: RetrievePaymentInput): Promise<RetrievedPayment>;
  /**
   * Every payment the processor holds for a quote (by the `quoteId` in its metadata): how the reconciler finds a
   * charge that no record of ours names (docs/decisions.md, "One charge per quote through any crash").
   */
  findPayments(input: FindPaymentsInput): Promise<RetrievedPayment[]>;
  /**
   * How long after a payment is made `findPayments` may still not list it: 0 for the simulated processor, about a
   * minute for Stripe, whose search is eventually consistent. An attempt younger than this is never judged chargeless.
   */
  readonly searchLagMs: number;
  /** Gives money back for a succeeded payment; idempotent on `idempotencyKey`. */
  refundPayment(input: RefundPaymentInput): Promise<RefundPaymentResult>;
  /**
   * Verifies the signature over the raw bytes, then parses. `mode` restricts which endpoint secrets are tried;
   * without it every configured secret is tried. Throws WebhookSignatureError.
   */
  parseWebhookEvent(rawBody: string | Buffer, signatureHeader: string | undefined, mode?: Mode): ProcessorEvent;
}

export type WebhookSignatureErrorReason =
  | 'missing_header'
  | 'malformed_header'
  | 'no_v1'
  | 'timestamp_out_of_tolerance'
  | 'signature_mismatch'
  | 'malformed_payload';

/** Bad or stale signature (or an unparseable body): the intake answers 400 and the processor retries later. */
export class WebhookSignatureError extends Error {
  override readonly name = 'WebhookSignatureError';
  constructor(readonly reason: WebhookSignatureErrorReason) {
    super(`webhook rejected: ${reason}`);
  }
}

export type PaymentProcessorErrorCode =
  | 'mode_not_configured'
  | 'payment_not_found'
  | 'payment_intent_unexpected_state'
  | 'idempotency_error'
  | 'invalid_request'
  | 'processor_unavailable';

/**
 * Anything that is not a payment outcome: configuration, unknown ids, misuse, processor outages.
 * Declines are NOT errors; they come back as `status: 'failed'`.
 */
export class PaymentProcessorError extends Error {
  override readonly name = 'PaymentProcessorError';
  constructor(
    readonly code: PaymentProcessorErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export function assertValidAmount(amountCents: number, currency: string): void {
  if (!Number.isSafeInteger(amountCents) || amountCents <= 0) {
    throw new PaymentProcessorError('invalid_request', 'amountCents must be a positive safe integer');
  }
  if (!/^[a-zA-Z]{3}$/.test(currency)) {
    throw new PaymentProcessorError('invalid_request', 'currency must be a 3-letter ISO 4217 code');
  }
}

/** Stripe metadata values must be strings; drop the optional keys that were left undefined. */
export function cleanMetadata(metadata: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(metadata)) {
    if (typeof value === 'string') out[key] = value;
  }
  return out;
}
