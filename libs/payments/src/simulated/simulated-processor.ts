import type { Mode } from '@expedition/contracts/rules';
import { randomBytes } from 'node:crypto';
import { activeTraceparent } from '@expedition/observability';
import { outcomeForPaymentMethodIn, outcomeForSptIn, type TestOutcome } from '../magic-test-values';
import {
  PaymentProcessorError,
  assertValidAmount,
  cleanMetadata,
  type ConfirmPaymentInput,
  type ConfirmPaymentResult,
  type PaymentProcessor,
  type SettleSharedPaymentTokenResult,
} from '../processor';
import { parseSignedStripeEvent, toSecretList } from '../signed-event';
import type { StripeIntentLike } from '../stripe-format';
import type { EventDeliveryResult, FetchLike } from './event-delivery';
import { createDeliveries, type DeliverySettings } from './simulated-events';
import {
  applyOutcome,
  fingerprint,
  refundedOf,
  rejectedToken,
  resultOf,
  retrievedOf,
  statusOf,
} from './simulated-intents';
import {
  createInMemorySimulatedPaymentStore,
  type SimulatedPaymentRecord,
  type SimulatedPaymentStore,
} from './simulated-store';

export interface SimulatedProcessorOptions {
  /** The dispatcher's processor-webhook intake; every terminal result is POSTed there. */
  webhookUrl: string;
  /** Signs `Stripe-Signature` (one v1 per secret) and verifies in parseWebhookEvent. */
  webhookSecret: string | readonly string[];
  clock?: { now(): Date };
  /** Opaque unique suffixes for ids; random by default. Ids never encode anything secret. */
  ids?: () => string;
  fetch?: FetchLike;
  store?: SimulatedPaymentStore;
  delivery?: DeliverySettings;
  webhookToleranceSec?: number;
  /**
   * Simulate live mode too (demos and tests only; SIMULATED_PROCESSOR_ALLOW_LIVE_MODE). Off by default: a live-mode call
   * throws `mode_not_configured`, as Stripe without a live key does, so test money can never pay a live quote. On, live
   * mode takes only the simulator's live values (magic-test-values.ts), never a test token or test card.
   */
  allowLiveMode?: boolean;
}

export interface SimulatedProcessor extends PaymentProcessor {
  readonly name: 'simulated';
  /** Answers a pending 3-D Secure challenge (`requires_action`), as the cardholder would. */
  completeAction(input: { paymentId: string; mode: Mode; approve: boolean }): Promise<ConfirmPaymentResult>;
  /** Resolves when every event delivery started so far has finished; returns their results. */
  idle(): Promise<EventDeliveryResult[]>;
  /**
   * Re-sends the events not yet delivered whose next try is due, once each, as Stripe retries an undelivered event
   * for three days (`delivery.resend`); the number re-sent. Any number of processes may call it.
   */
  resendDueEvents(limit?: number): Promise<number>;
}

const NON_TEST_CARD: TestOutcome = {
  kind: 'decline',
  code: 'card_declined',
  declineCode: 'test_mode_live_card',
  message: 'Your card was declined. Your request was in test mode, but used a non test card.',
};
/** Simulated live mode knows no real card: only its own live values pay. */
const NOT_SIMULATED_LIVE: TestOutcome = {
  kind: 'decline',
  code: 'card_declined',
  declineCode: 'generic_decline',
  message: 'Your card was declined. The simulated processor charges no real card; use a pm_live_… value.',
};
const TOKEN_USED: TestOutcome = {
  kind: 'decline',
  code: 'shared_payment_granted_token_used',
  message: 'This shared payment token was already used.',
};
/** A settlement takes milliseconds; one still `processing` after this long was abandoned by a caller that died. */
const ABANDONED_AFTER_SEC = 10;
const AUTH_FAILED: TestOutcome = {
  kind: 'decline',
  code: 'payment_intent_authentication_failure',
  message: 'The provided PaymentMethod has failed authentication.',
};

/** Behaves like Stripe test mode without a network: intents, magic cards/SPTs, signed Stripe-format events. */
export function createSimulatedProcessor(options: SimulatedProcessorOptions): SimulatedProcessor {
  const secrets = toSecretList(options.webhookSecret);
  if (secrets.length === 0) throw new PaymentProcessorError('mode_not_configured', 'a webhook secret is required');
  const store = options.store ?? createInMemorySimulatedPaymentStore();
  const nowSec = () => Math.floor((options.clock?.now() ?? new Date()).getTime() / 1000);
  const newSuffix = options.ids ?? (() => randomBytes(12).toString('hex'));
  const deliveries = createDeliveries(options, secrets, nowSec, store);

  const assertMode = (mode: Mode) => {
    if (mode === 'live' && !options.allowLiveMode) {
      throw new PaymentProcessorError('mode_not_configured', 'the simulated processor takes no live-mode payments');
    }
  };

  const load = async (paymentId: string, mode: Mode) => {
    assertMode(mode);
    const record = await store.get(paymentId);
    // As at Stripe, a test key cannot see live objects and vice versa.
    if (!record || record.mode !== mode) {
      throw new PaymentProcessorError('payment_not_found', `No such payment_intent: '${paymentId}'`);
    }
    return finishAbandoned(record);
  };

  /** Applies an outcome with an optimistic lock, then reports a terminal result to the intake. */
  const settle = async (record: SimulatedPaymentRecord, outcome: TestOutcome) => {
    const intent = applyOutcome(record.intent, outcome);
    const saved = await store.update({ ...record, intent, version: record.version + 1 }, record.version);
    if (!saved) {
      throw new PaymentProcessorError('payment_intent_unexpected_state', 'the payment changed concurrently');
    }
    if (outcome.kind !== 'requires_action') await deliveries.report(intent, `evt_sim_${newSuffix()}`);
    return intent;
  };

  /**
   * Applies a settlement's outcome: its single-use token is spent by this payment (or was already: a settlement
   * finished again), else the payment is declined as a used token.
   */
  const finish = async (record: SimulatedPaymentRecord): Promise<SimulatedPaymentRecord> => {
    const { pending, ...rest } = record;
    if (!pending) return record;
    if (await store.claimToken(pending.tokenHash, record.intent.id)) {
      return { ...rest, intent: await settle(rest, pending.outcome), version: record.version + 1 };
    }
    const used = applyOutcome(record.intent, TOKEN_USED);
    const next = { ...rest, intent: used, version: record.version + 1 };
    if (!(await store.update(next, record.version))) {
      throw new PaymentProcessorError('payment_intent_unexpected_state', 'the payment changed concurrently');
    }
    return next;
  };

  /**
   * A settlement left `processing` by a caller that died: a real processor finishes what it started, so the simulated
   * one finishes it when the payment is next read, once it is older than any settlement in progress.
   */
  const finishAbandoned = async (record: SimulatedPaymentRecord): Promise<SimulatedPaymentRecord> => {
    if (!record.pending || nowSec() - (record.intent.created ?? 0) < ABANDONED_AFTER_SEC) return record;
    try {
      return await finish(record);
    } catch (err) {
      // Another reader finished it first: its result is the payment's.
      if (!(err instanceof PaymentProcessorError && err.code === 'payment_intent_unexpected_state')) throw err;
      return (await store.get(record.intent.id)) ?? record;
    }
  };

  const newRecord = (input: {
    amountCents: number;
    currency: string;
    mode: Mode;
    metadata: Record<string, string>;
    idempotencyKey: string;
    fingerprintOf: unknown;
    status: StripeIntentLike['status'];
  }): SimulatedPaymentRecord => {
    const id = `pi_sim_${newSuffix()}`;
    return {
      intent: {
        id,
        object: 'payment_intent',
        amount: input.amountCents,
        currency: input.currency.toLowerCase(),
        status: input.status,
        livemode: input.mode === 'live',
        metadata: input.metadata,
        last_payment_error: null,
        client_secret: `${id}_secret_${newSuffix()}`,
        created: nowSec(),
      },
      mode: input.mode,
      idempotencyKey: `${input.mode}:${input.idempotencyKey}`,
      requestFingerprint: fingerprint(input.fingerprintOf),
      version: 0,
    };
  };

  const insertOnce = async (record: SimulatedPaymentRecord) => {
    const result = await store.insert(record);
    if (!result.inserted && result.record.requestFingerprint !== record.requestFingerprint) {
      throw new PaymentProcessorError(
        'idempotency_error',
        'Keys for idempotent requests can only be used with the same parameters they were first used with.',
      );
    }
    return result;
  };

  return {
    name: 'simulated',
    // Its books answer at once: a payment is listed by findPayments as soon as it exists.
    searchLagMs: 0,

    async createPayment(input) {
      assertMode(input.mode);
      assertValidAmount(input.amountCents, input.currency);
      const metadata = cleanMetadata(input.metadata);
      const { record } = await insertOnce(
        newRecord({
          ...input,
          metadata: withTraceparent(metadata),
          fingerprintOf: [input.amountCents, input.currency.toLowerCase(), metadata],
          status: 'requires_payment_method',
        }),
      );
      return {
        paymentId: record.intent.id,
        clientSecret: record.intent.client_secret ?? '',
        status: statusOf(record.intent),
      };
    },

    async confirmPayment(input: ConfirmPaymentInput) {
      const record = await load(input.paymentId, input.mode);
      if (!['requires_payment_method', 'requires_confirmation'].includes(record.intent.status)) {
        throw new PaymentProcessorError(
          'payment_intent_unexpected_state',
          `This PaymentIntent's status is ${record.intent.status}.`,
        );
      }
      const outcome =
        outcomeForPaymentMethodIn(input.mode, input.paymentMethod) ??
        (input.mode === 'live' ? NOT_SIMULATED_LIVE : NON_TEST_CARD);
      const intent = await settle(record, outcome);
      return resultOf(intent);
    },

    async completeAction(input) {
      const record = await load(input.paymentId, input.mode);
      if (record.intent.status !== 'requires_action') {
        throw new PaymentProcessorError(
          'payment_intent_unexpected_state',
          `This PaymentIntent's status is ${record.intent.status}.`,
        );
      }
      return resultOf(await settle(record, input.approve ? { kind: 'succeed' } : AUTH_FAILED));
    },

    async settleSharedPaymentToken(input): Promise<SettleSharedPaymentTokenResult> {
      assertMode(input.mode);
      assertValidAmount(input.amountCents, input.currency);
      // In live mode a test token (spt_test_…) is unknown, as at Stripe: it never pays a live quote.
      const outcome = outcomeForSptIn(input.mode, input.spt);
      if (!outcome) return rejectedToken('shared_payment_granted_token_invalid', 'No such shared payment token.');

      const metadata = { ...cleanMetadata(input.metadata), challenge_id: input.challengeId };
      const { record, inserted } = await insertOnce({
        ...newRecord({
          ...input,
          metadata: withTraceparent(metadata),
          fingerprintOf: [input.amountCents, input.currency.toLowerCase(), metadata, fingerprint(input.spt)],
          // Visible to a concurrent replay while the outcome is applied: not succeeded, so not served.
          status: 'processing',
        }),
        pending: { outcome, tokenHash: fingerprint(input.spt) },
      });
      if (!inserted) return { ...resultOf((await finishAbandoned(record)).intent), replayed: true };
      return { ...resultOf((await finish(record)).intent), replayed: false };
    },

    async retrievePayment(input) {
      return retrievedOf(await load(input.paymentId, input.mode));
    },

    async findPayments(input) {
      assertMode(input.mode);
      const records = await store.findByQuote(input.quoteId);
      const ofMode = records.filter((record) => record.mode === input.mode);
      return (await Promise.all(ofMode.map(finishAbandoned))).map(retrievedOf);
    },

    async refundPayment(input) {
      // Optimistic lock: two refunds racing on one intent cannot both pass the "not yet refunded" check.
      for (;;) {
        const record = await load(input.paymentId, input.mode);
        const refunds = record.refunds ?? [];
        const same = refunds.find((r) => r.idempotencyKey === input.idempotencyKey);
        if (same) return { refundId: same.id, status: 'succeeded', amountCents: same.amount };
        if (record.intent.status !== 'succeeded') {
          throw new PaymentProcessorError(
            'invalid_request',
            `PaymentIntent ${record.intent.id} has no successful charge to refund.`,
          );
        }
        const amount = input.amountCents ?? record.intent.amount - refundedOf(record);
        if (!Number.isSafeInteger(amount) || amount <= 0 || refundedOf(record) + amount > record.intent.amount) {
          throw new PaymentProcessorError(
            'invalid_request',
            `Charge for ${record.intent.id} has already been refunded.`,
          );
        }
        const refund = {
          id: `re_sim_${newSuffix()}`,
          amount,
          reason: input.reason,
          idempotencyKey: input.idempotencyKey,
        };
        if (
          await store.update({ ...record, refunds: [...refunds, refund], version: record.version + 1 }, record.version)
        ) {
          return { refundId: refund.id, status: 'succeeded', amountCents: amount };
        }
      }
    },

    parseWebhookEvent(rawBody, signatureHeader) {
      return parseSignedStripeEvent(rawBody, signatureHeader, {
        secrets,
        toleranceSec: options.webhookToleranceSec,
        nowSec: nowSec(),
      });
    },

    idle: () => deliveries.idle(),
    resendDueEvents: (limit) => deliveries.resendDue(limit),
  };
}

/**
 * The current trace rides in the payment's metadata, so the processor's event carries it back to the intake and the
 * fulfillment joins the buyer's trace. Not part of the idempotency fingerprint: a retried request (a new span) is the
 * same request. A caller's own `traceparent` wins; tracing off adds nothing.
 */
function withTraceparent(metadata: Record<string, string>): Record<string, string> {
  if (metadata['traceparent']) return metadata;
  const traceparent = activeTraceparent();
  return traceparent ? { ...metadata, traceparent } : metadata;
}
