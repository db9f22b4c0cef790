import type { Logger } from 'pino';
import type { Payment, PaymentChannel, Prisma, PrismaClient, Purchase } from '@expedition/db';
import type { Mode } from '@expedition/contracts';
import type { PaymentProcessor, PaymentProcessorEvent } from '@expedition/payments';
import type { Clock } from '@expedition/platform';
import type { PaymentSnapshot } from './fulfillment-sql';
import type { Issue } from './issue-sql';
import type { BatcherOptions } from './batcher';
import type { Refunds } from './refunds';

export type Tx = Prisma.TransactionClient;

/** A payment the processor just confirmed to one of our apps (MPP settlement, a card confirmed server-side). */
export interface SucceededPayment {
  paymentId: string;
  amountCents: number;
  currency: string;
  /** The processor mode the money moved in. */
  mode: Mode;
  quoteId: string;
  planId: string;
  channel: PaymentChannel;
  checkoutSessionId?: string;
  challengeId?: string;
}

/** A payment of ours, as its Payment row (or the row-shaped facts of an event) holds it. */
export type PaymentFacts = Pick<
  Payment,
  'processorPaymentId' | 'amountCents' | 'currency' | 'mode' | 'quoteId' | 'planId' | 'channel'
> &
  Partial<Pick<Payment, 'checkoutSessionId' | 'challengeId'>>;

/** What `recordSucceededPayment` takes, from a payment of ours. */
export function succeededPaymentOf(row: PaymentFacts): SucceededPayment {
  return {
    paymentId: row.processorPaymentId,
    amountCents: row.amountCents,
    currency: row.currency,
    mode: row.mode,
    quoteId: row.quoteId,
    planId: row.planId,
    channel: row.channel,
    ...(row.checkoutSessionId ? { checkoutSessionId: row.checkoutSessionId } : {}),
    ...(row.challengeId ? { challengeId: row.challengeId } : {}),
  };
}

/** Why money that arrived will not become a policy; each is refunded automatically. */
export type RefundCause =
  'duplicate_payment' | 'amount_mismatch' | 'plan_not_quoted' | 'mode_mismatch' | 'unfulfillable';

export type UntrustedReason = 'untrusted_payment' | 'unverified_payment' | 'mode_mismatch' | 'payment_mismatch';

export type FulfillmentOutcome =
  | { kind: 'policy_issued'; purchase: Purchase; policyId: string; policyNumber: string; webhookEventId: string | null }
  | { kind: 'already_recorded'; purchase: Purchase }
  | { kind: 'refund_pending'; cause: RefundCause; paymentRowId: string; purchase: Purchase | null }
  | { kind: 'payment_failed' }
  | { kind: 'duplicate' }
  | { kind: 'ignored'; reason: 'not_a_payment_event' | 'unknown_quote' | 'unknown_plan' | UntrustedReason };

export interface FulfillmentDeps {
  prisma: PrismaClient;
  clock: Clock;
  logger: Logger;
  /** Stored on Payment.processor / ProcessorEvent.processor: 'simulated' | 'stripe'. */
  processorName: string;
  /** Executes the refunds this service decides on (right after commit; a sweep retries failures). */
  refunds: Refunds;
  /**
   * Asks the processor whether a reported success is real before anything is issued: a signed event alone is not
   * proof (a leaked signing secret must not buy policies). Without it, events are trusted on signature and records.
   */
  verifier?: Pick<PaymentProcessor, 'retrievePayment'>;
  newPolicyNumber?: (now: Date) => string;
  newWebhookEventId?: () => string;
  /**
   * quote-api's public URL: `policy.issued` then carries the certificate's `documentUrl`, stored without its token
   * (the dispatcher adds the derived token when it delivers: policy-tokens.ts).
   */
  quoteApiUrl?: string;
  /** How the common path groups the sales that arrive together (fulfillment.service.ts, SALE_BATCH). */
  saleBatch?: BatcherOptions;
}

/** One home: the webhook contract (libs/contracts), also read by the dispatcher and the operators' event log. */
export { NO_WEBHOOK_URL_ERROR } from '@expedition/contracts';

/** A failure as the processor confirmed it (its own codes and message, and the payment's metadata as it holds it). */
export interface ConfirmedFailure {
  failureCode: string | null;
  declineCode: string | null;
  failureMessage: string | null;
  metadata: Record<string, string>;
}

/** Whose a payment is, as our own records say (payment-trust.ts). */
export interface TrustedPayment {
  quoteId: string;
  planId: string;
  channel: PaymentChannel;
  checkoutSessionId: string | null;
  challengeId: string | null;
}

/** The payment an event reports: the money as the event says, whose it is as our records say. */
export function eventFacts(event: PaymentProcessorEvent, trusted: TrustedPayment): SucceededPayment {
  return succeededPaymentOf({
    ...trusted,
    processorPaymentId: event.paymentId,
    amountCents: event.amountCents,
    currency: event.currency,
    mode: event.mode,
  });
}

/** What a decision on a payment reads (fulfillment-sql.ts), for a plan that exists. */
export interface PaymentContext extends PaymentSnapshot {
  planName: string;
}

/** The processor event a sale records with it (null: a payment our own app confirmed). */
export type RecordedEvent = NonNullable<Issue['event']>;
