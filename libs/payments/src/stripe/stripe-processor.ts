import type { Mode } from '@expedition/contracts/rules';
import Stripe from 'stripe';
import {
  PaymentProcessorError,
  assertValidAmount,
  cleanMetadata,
  type ConfirmPaymentInput,
  type ConfirmPaymentResult,
  type CreatePaymentInput,
  type CreatePaymentResult,
  type PaymentFailure,
  type PaymentProcessor,
  type RetrievedPayment,
  type SettleSharedPaymentTokenInput,
  type SettleSharedPaymentTokenResult,
} from '../processor';
import { TEST_SPT_PREFIXES } from '../magic-test-values';
import { parseSignedStripeEvent, toSecretList } from '../signed-event';
import { toPaymentStatus } from '../stripe-format';

/** mppx sends this preview version for SPT settlement; SPT fields are unknown to older versions. */
export const SPT_API_VERSION = '2026-07-29.preview';

export interface StripeProcessorOptions {
  testSecretKey: string;
  liveSecretKey?: string;
  /** Endpoint secret(s) `whsec_…` of the test-mode webhook endpoint; list both during a rotation. */
  webhookSecrets: string | readonly string[];
  /** Live-mode endpoints have their own secrets. */
  liveWebhookSecrets?: string | readonly string[];
  /** Point the SDK elsewhere (the offline fake in tests). */
  host?: string;
  port?: number | string;
  protocol?: 'http' | 'https';
  /** Default 0: callers decide about retries; every POST carries an idempotency key, so raising it is safe. */
  maxNetworkRetries?: number;
  timeoutMs?: number;
  apiVersion?: string;
  sptApiVersion?: string;
  webhookToleranceSec?: number;
  clock?: { now(): Date };
}

export interface StripeProcessor extends PaymentProcessor {
  readonly name: 'stripe';
}

export function createStripeProcessor(options: StripeProcessorOptions): StripeProcessor {
  assertKeyMode(options.testSecretKey, 'test');
  if (options.liveSecretKey) assertKeyMode(options.liveSecretKey, 'live');
  const clients: Partial<Record<Mode, Stripe>> = { test: newClient(options.testSecretKey, options) };
  if (options.liveSecretKey) clients.live = newClient(options.liveSecretKey, options);
  const webhookSecrets: Record<Mode, string[]> = {
    test: toSecretList(options.webhookSecrets),
    live: toSecretList(options.liveWebhookSecrets),
  };
  const sptApiVersion = options.sptApiVersion ?? SPT_API_VERSION;

  const client = (mode: Mode): Stripe => {
    const found = clients[mode];
    if (!found) throw new PaymentProcessorError('mode_not_configured', `no Stripe ${mode} key configured`);
    return found;
  };

  return {
    name: 'stripe',
    // Stripe: "under normal operating conditions, data is searchable in less than a minute"; twice that, to be sure.
    searchLagMs: 120_000,

    async createPayment(input: CreatePaymentInput): Promise<CreatePaymentResult> {
      assertValidAmount(input.amountCents, input.currency);
      const pi = await callStripe(() =>
        client(input.mode).paymentIntents.create(
          {
            amount: input.amountCents,
            currency: input.currency.toLowerCase(),
            automatic_payment_methods: { enabled: true },
            metadata: cleanMetadata(input.metadata),
          },
          { idempotencyKey: input.idempotencyKey },
        ),
      );
      return { paymentId: pi.id, clientSecret: pi.client_secret ?? '', status: toPaymentStatus(pi.status) };
    },

    async confirmPayment(input: ConfirmPaymentInput): Promise<ConfirmPaymentResult> {
      try {
        const pi = await client(input.mode).paymentIntents.confirm(
          input.paymentId,
          { payment_method: input.paymentMethod, ...(input.returnUrl ? { return_url: input.returnUrl } : {}) },
          input.idempotencyKey ? { idempotencyKey: input.idempotencyKey } : undefined,
        );
        return { paymentId: pi.id, status: toPaymentStatus(pi.status, pi.last_payment_error) };
      } catch (error) {
        const failure = declineOf(error, { tokenRejections: false });
        if (failure) return { paymentId: input.paymentId, status: 'failed', ...failure };
        throw wrap(error);
      }
    },

    async settleSharedPaymentToken(input: SettleSharedPaymentTokenInput): Promise<SettleSharedPaymentTokenResult> {
      assertValidAmount(input.amountCents, input.currency);
      // Stripe would not find a test-mode token with the live key either; refused here, it never reaches a live charge.
      if (input.mode === 'live' && input.spt.startsWith(TEST_SPT_PREFIXES.anyTest)) {
        return {
          paymentId: null,
          status: 'failed',
          replayed: false,
          failureCode: 'shared_payment_granted_token_invalid',
          failureMessage: 'A test-mode shared payment token cannot pay in live mode.',
        };
      }
      try {
        const pi = await createWithSpt(client(input.mode), input, sptApiVersion);
        return {
          paymentId: pi.id,
          status: toPaymentStatus(pi.status, pi.last_payment_error),
          replayed: isReplay(pi.lastResponse?.headers),
        };
      } catch (error) {
        const failure = declineOf(error, { tokenRejections: true });
        if (!failure) throw wrap(error);
        const stripeError = error as Stripe.errors.StripeError;
        return {
          paymentId: stripeError.payment_intent?.id ?? null,
          status: 'failed',
          replayed: isReplay(stripeError.headers),
          ...failure,
        };
      }
    },

    async retrievePayment(input) {
      const pi = await callStripe(() =>
        client(input.mode).paymentIntents.retrieve(input.paymentId, { expand: ['latest_charge'] }),
      );
      return retrievedOf(pi);
    },

    async findPayments(input) {
      // Quote ids are UUIDs; anything else cannot be ours and would need escaping in Stripe's query language.
      if (!/^[0-9a-f-]{1,64}$/i.test(input.quoteId)) return [];
      const found = await callStripe(() =>
        client(input.mode).paymentIntents.search({
          query: `metadata['quoteId']:'${input.quoteId}'`,
          limit: 100,
          expand: ['data.latest_charge'],
        }),
      );
      return found.data.map(retrievedOf);
    },

    async refundPayment(input) {
      const refund = await callStripe(() =>
        client(input.mode).refunds.create(
          {
            payment_intent: input.paymentId,
            reason: input.reason,
            ...(input.amountCents !== undefined ? { amount: input.amountCents } : {}),
            ...(input.metadata ? { metadata: input.metadata } : {}),
          },
          { idempotencyKey: input.idempotencyKey },
        ),
      );
      const status =
        refund.status === 'succeeded'
          ? 'succeeded'
          : refund.status === 'failed' || refund.status === 'canceled'
            ? 'failed'
            : 'pending';
      return { refundId: refund.id, status, amountCents: refund.amount };
    },

    parseWebhookEvent(rawBody, signatureHeader, mode) {
      const secrets = mode ? webhookSecrets[mode] : [...webhookSecrets.test, ...webhookSecrets.live];
      if (secrets.length === 0) {
        throw new PaymentProcessorError('mode_not_configured', `no Stripe webhook secret for ${mode ?? 'any'} mode`);
      }
      const now = options.clock?.now() ?? new Date();
      return parseSignedStripeEvent(rawBody, signatureHeader, {
        secrets,
        toleranceSec: options.webhookToleranceSec,
        nowSec: Math.floor(now.getTime() / 1000),
      });
    },
  };
}

/**
 * The one place that knows how an SPT reaches Stripe (draft-stripe-charge-00 / mppx: top-level
 * `shared_payment_granted_token`; Stripe's changelog also shows it under `payment_method_data`).
 */
function createWithSpt(stripe: Stripe, input: SettleSharedPaymentTokenInput, apiVersion: string) {
  const params = {
    amount: input.amountCents,
    currency: input.currency.toLowerCase(),
    confirm: true,
    automatic_payment_methods: { enabled: true, allow_redirects: 'never' as const },
    shared_payment_granted_token: input.spt,
    metadata: { ...cleanMetadata(input.metadata), challenge_id: input.challengeId },
  };
  return stripe.paymentIntents.create(params as Stripe.PaymentIntentCreateParams, {
    idempotencyKey: input.idempotencyKey,
    apiVersion,
  });
}

/**
 * Card errors are payment outcomes. On settlement, so are invalid-request errors about the token (used,
 * expired, unknown SPT): the proof was rejected, which MPP answers with 402 verification-failed. Errors in
 * our own parameters (`parameter_*`), auth, rate-limit, connection and API errors stay exceptions.
 */
function declineOf(error: unknown, options: { tokenRejections: boolean }): PaymentFailure | undefined {
  if (!(error instanceof Stripe.errors.StripeError)) return undefined;
  const isCard = error.type === 'StripeCardError';
  const isTokenRejection =
    options.tokenRejections &&
    error.type === 'StripeInvalidRequestError' &&
    !!error.code &&
    !error.code.startsWith('parameter_');
  if (!isCard && !isTokenRejection) return undefined;
  return {
    ...(error.code ? { failureCode: error.code } : {}),
    ...(error.decline_code ? { declineCode: error.decline_code } : {}),
    failureMessage: error.message,
  };
}

async function callStripe<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw wrap(error);
  }
}

function wrap(error: unknown): PaymentProcessorError {
  if (error instanceof PaymentProcessorError) return error;
  if (error instanceof Stripe.errors.StripeError) {
    if (error.type === 'StripeIdempotencyError') {
      return new PaymentProcessorError('idempotency_error', error.message, { cause: error });
    }
    if (error.type === 'StripeInvalidRequestError') {
      const code = error.code === 'resource_missing' ? 'payment_not_found' : 'invalid_request';
      return new PaymentProcessorError(code, error.message, { cause: error });
    }
  }
  return new PaymentProcessorError('processor_unavailable', 'Stripe request failed', { cause: error });
}

function isReplay(headers: Record<string, string> | undefined): boolean {
  if (!headers) return false;
  const value = headers['idempotent-replayed'] ?? headers['Idempotent-Replayed'];
  return value === 'true';
}

function newClient(key: string, options: StripeProcessorOptions): Stripe {
  return new Stripe(key, {
    maxNetworkRetries: options.maxNetworkRetries ?? 0,
    telemetry: false,
    ...(options.apiVersion ? { apiVersion: options.apiVersion as Stripe.LatestApiVersion } : {}),
    ...(options.timeoutMs ? { timeout: options.timeoutMs } : {}),
    ...(options.host ? { host: options.host } : {}),
    ...(options.port !== undefined ? { port: options.port } : {}),
    ...(options.protocol ? { protocol: options.protocol } : {}),
  });
}

/** A live key configured as the test key (or the reverse) would move real money in a test flow. */
function assertKeyMode(key: string, mode: Mode): void {
  if (!new RegExp(`^(sk|rk)_${mode}_`).test(key)) {
    throw new PaymentProcessorError(
      'mode_not_configured',
      `the ${mode} Stripe key must start with sk_${mode}_ or rk_${mode}_`,
    );
  }
}

function retrievedOf(pi: Stripe.PaymentIntent): RetrievedPayment {
  const charge = typeof pi.latest_charge === 'object' && pi.latest_charge ? pi.latest_charge : null;
  const status = toPaymentStatus(pi.status, pi.last_payment_error);
  const error = status === 'failed' ? pi.last_payment_error : null;
  return {
    paymentId: pi.id,
    status,
    amountCents: pi.amount,
    currency: pi.currency,
    metadata: { ...(pi.metadata ?? {}) },
    amountRefundedCents: charge?.amount_refunded ?? 0,
    ...(error?.code ? { failureCode: error.code } : {}),
    ...(error?.decline_code ? { declineCode: error.decline_code } : {}),
    ...(error?.message ? { failureMessage: error.message } : {}),
  };
}
