import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express, { type Request, type Response } from 'express';
import { outcomeForPaymentMethodIn, outcomeForSptIn, type TestOutcome } from '../magic-test-values';
import { buildIntentEvent, type StripeEventLike, type StripeIntentLike } from '../stripe-format';

/**
 * A tiny stand-in for api.stripe.com covering exactly the PaymentIntent calls the adapter makes, so the real
 * `stripe` SDK can be exercised offline (stripe-mock is a Go binary, not on npm). Behaviour:
 * - Bearer `sk_test_…`/`sk_live_…` required (sets `livemode`);
 * - idempotent POSTs: same key + same params → the stored response + `Idempotent-Replayed: true`;
 *   same key + other params → 400 idempotency_error;
 * - magic cards / `pm_card_*` / `spt_test_*` decide the outcome (see magic-test-values.ts); declines answer
 *   HTTP 402 `card_error` with the PaymentIntent attached, like Stripe; an SPT works once. With a live key a test
 *   SPT is unknown and a test card declined (`live_mode_test_card`); `spt_live_…` / `pm_live_…` stand for real money.
 * Every terminal result is appended to `events` in Stripe's event format.
 */

export interface FakeStripeRequest {
  method: string;
  path: string;
  idempotencyKey?: string;
  stripeVersion?: string;
  apiKey?: string;
  body: Record<string, unknown>;
}

export interface FakeStripeServer {
  readonly host: string;
  readonly port: number;
  readonly protocol: 'http';
  readonly url: string;
  /** Every request received, oldest first (form bodies parsed with bracket keys). */
  readonly requests: FakeStripeRequest[];
  /** Stripe-format events for terminal results, oldest first. */
  readonly events: StripeEventLike[];
  paymentIntent(id: string): StripeIntentLike | undefined;
  /** Refunds created for one PaymentIntent, oldest first. */
  refunds(intentId: string): { id: string; amount: number; reason?: string; status: string }[];
  /** Finishes a `requires_action` intent as the cardholder's 3-D Secure answer would. */
  completeAction(id: string, approve: boolean): StripeIntentLike;
  /** While on, every request answers 500 api_error (to test outage handling). */
  setOutage(on: boolean): void;
  close(): Promise<void>;
}

interface StoredResponse {
  fingerprint: string;
  status: number;
  body: unknown;
}

interface Reply {
  status: number;
  body: unknown;
}

export async function startFakeStripeServer(options: { nowSec?: () => number } = {}): Promise<FakeStripeServer> {
  const nowSec = options.nowSec ?? (() => Math.floor(Date.now() / 1000));
  const intents = new Map<string, StripeIntentLike>();
  const idempotency = new Map<string, StoredResponse>();
  const usedSpts = new Set<string>();
  const requests: FakeStripeRequest[] = [];
  const events: StripeEventLike[] = [];
  let counter = 0;
  let outage = false;
  const nextId = (prefix: string) =>
    `${prefix}_${(++counter).toString().padStart(6, '0')}${randomBytes(4).toString('hex')}`;

  const emit = (intent: StripeIntentLike) => {
    const type = intent.status === 'succeeded' ? 'payment_intent.succeeded' : 'payment_intent.payment_failed';
    events.push(buildIntentEvent({ id: nextId('evt_fake'), type, createdSec: nowSec(), intent }));
  };

  const applyOutcome = (intent: StripeIntentLike, outcome: TestOutcome): Reply => {
    if (outcome.kind === 'succeed') {
      Object.assign(intent, { status: 'succeeded', last_payment_error: null });
      emit(intent);
      return { status: 200, body: intent };
    }
    if (outcome.kind === 'requires_action') {
      Object.assign(intent, { status: 'requires_action', next_action: { type: 'use_stripe_sdk' } });
      return { status: 200, body: intent };
    }
    const error = {
      type: 'card_error',
      code: outcome.code,
      decline_code: outcome.declineCode,
      message: outcome.message,
    };
    Object.assign(intent, { status: 'requires_payment_method', last_payment_error: error });
    emit(intent);
    return { status: 402, body: { error: { ...error, payment_intent: { ...intent } } } };
  };

  const createIntent = (body: Record<string, unknown>, livemode: boolean): Reply => {
    const amount = Number(body['amount']);
    if (!Number.isSafeInteger(amount) || amount <= 0 || typeof body['currency'] !== 'string') {
      return invalid('parameter_missing', 'amount and currency are required');
    }
    const spt = sptOf(body);
    if (spt !== undefined && usedSpts.has(spt)) {
      return invalid('shared_payment_granted_token_used', 'This shared payment token was already used.');
    }
    // A test-mode token does not exist for a live key, as at Stripe.
    const sptOutcome = spt === undefined ? undefined : outcomeForSptIn(livemode ? 'live' : 'test', spt);
    if (spt !== undefined && !sptOutcome) {
      return invalid('shared_payment_granted_token_invalid', 'No such shared payment token.');
    }
    const id = nextId('pi_fake');
    const intent: StripeIntentLike = {
      id,
      object: 'payment_intent',
      amount,
      currency: body['currency'].toLowerCase(),
      status: 'requires_payment_method',
      livemode,
      metadata: stringRecord(body['metadata']),
      last_payment_error: null,
      client_secret: `${id}_secret_${randomBytes(12).toString('hex')}`,
      created: nowSec(),
    };
    intents.set(id, intent);
    if (spt !== undefined) usedSpts.add(spt);
    if (body['confirm'] !== 'true') return { status: 200, body: intent };
    if (sptOutcome) return applyOutcome(intent, sptOutcome);
    const pm = body['payment_method'];
    if (typeof pm !== 'string') return invalid('payment_intent_unexpected_state', 'A payment method is required.');
    return applyOutcome(intent, outcomeForPaymentMethodIn(livemode ? 'live' : 'test', pm) ?? { kind: 'succeed' });
  };

  const confirmIntent = (id: string, body: Record<string, unknown>): Reply => {
    const intent = intents.get(id);
    if (!intent) return notFound(id);
    if (intent.status !== 'requires_payment_method' && intent.status !== 'requires_confirmation') {
      return invalid('payment_intent_unexpected_state', `This PaymentIntent's status is ${intent.status}.`);
    }
    const pm = body['payment_method'];
    if (typeof pm !== 'string') return invalid('parameter_missing', 'payment_method is required');
    // Any non-magic pm_… id stands for a card created in the browser with 4242…, so it succeeds (in live mode, a real
    // card); a magic test card is declined in live mode, as at Stripe.
    return applyOutcome(
      intent,
      outcomeForPaymentMethodIn(intent.livemode ? 'live' : 'test', pm) ?? { kind: 'succeed' },
    );
  };

  const refunds: { id: string; payment_intent: string; amount: number; reason?: string; status: 'succeeded' }[] = [];
  const refundsOf = (intentId: string) => refunds.filter((r) => r.payment_intent === intentId);
  const createRefund = (body: Record<string, unknown>): Reply => {
    const intent = intents.get(String(body['payment_intent']));
    if (!intent) return notFound(String(body['payment_intent']));
    if (intent.status !== 'succeeded')
      return invalid('charge_not_refundable', 'This PaymentIntent has no successful charge.');
    const refunded = refundsOf(intent.id).reduce((sum, r) => sum + r.amount, 0);
    const amount = body['amount'] === undefined ? intent.amount - refunded : Number(body['amount']);
    if (!Number.isSafeInteger(amount) || amount <= 0 || refunded + amount > intent.amount) {
      return invalid('charge_already_refunded', 'Charge has already been refunded.');
    }
    const refund = {
      id: nextId('re_fake'),
      payment_intent: intent.id,
      amount,
      ...(typeof body['reason'] === 'string' ? { reason: body['reason'] } : {}),
      status: 'succeeded' as const,
    };
    refunds.push(refund);
    return { status: 200, body: { object: 'refund', ...refund } };
  };

  const chargeOf = (intentId: string) => ({
    id: `ch_for_${intentId}`,
    object: 'charge',
    amount_refunded: refundsOf(intentId).reduce((sum, r) => sum + r.amount, 0),
  });

  const app = express();
  app.use(express.urlencoded({ extended: true }));
  app.use((req, res, next) => {
    const apiKey = /^Bearer (.+)$/.exec(req.get('authorization') ?? '')?.[1];
    requests.push({
      method: req.method,
      path: req.path,
      idempotencyKey: req.get('idempotency-key') ?? undefined,
      stripeVersion: req.get('stripe-version') ?? undefined,
      apiKey,
      body: (req.body ?? {}) as Record<string, unknown>,
    });
    if (outage) return void res.status(500).json({ error: { type: 'api_error', message: 'Fake outage.' } });
    if (!apiKey || !/^(sk|rk)_(test|live)_/.test(apiKey)) {
      return void res
        .status(401)
        .json({ error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } });
    }
    res.locals['livemode'] = apiKey.includes('_live_');
    next();
  });

  const idempotent = (handler: (req: Request, res: Response) => Reply) => (req: Request, res: Response) => {
    const key = req.get('idempotency-key');
    const fingerprint = `${req.path}|${JSON.stringify(req.body ?? {})}`;
    const scope = `${req.get('authorization')}|${key}`;
    const stored = key ? idempotency.get(scope) : undefined;
    if (stored && stored.fingerprint !== fingerprint) {
      return void res.status(400).json({
        error: {
          type: 'idempotency_error',
          message: 'Keys for idempotent requests can only be used with the same parameters they were first used with.',
        },
      });
    }
    if (stored) return void res.status(stored.status).set('Idempotent-Replayed', 'true').json(stored.body);
    const reply = handler(req, res);
    if (key && reply.status < 500) idempotency.set(scope, { fingerprint, ...reply });
    if (key) res.set('Idempotency-Key', key);
    res.status(reply.status).json(reply.body);
  };

  app.post(
    '/v1/payment_intents',
    idempotent((req, res) => createIntent(req.body ?? {}, res.locals['livemode'] === true)),
  );
  app.post(
    '/v1/payment_intents/:id/confirm',
    idempotent((req) => confirmIntent(String(req.params['id']), req.body ?? {})),
  );
  // Search by the quote id in the metadata, the one query the adapter sends; consistent at once (Stripe's lags).
  app.get('/v1/payment_intents/search', (req, res) => {
    const quoteId = /^metadata\['quoteId'\]:'([^']*)'$/.exec(String(req.query['query'] ?? ''))?.[1];
    if (quoteId === undefined)
      return void res.status(400).json(invalid('parameter_invalid', 'Unsupported query.').body);
    const livemode = res.locals['livemode'] === true;
    const data = [...intents.values()]
      .filter((intent) => intent.metadata?.['quoteId'] === quoteId && intent.livemode === livemode)
      .map((intent) => ({ ...intent, latest_charge: chargeOf(intent.id) }));
    res.json({ object: 'search_result', data, has_more: false, next_page: null, url: '/v1/payment_intents/search' });
  });
  app.get('/v1/payment_intents/:id', (req, res) => {
    const intent = intents.get(String(req.params['id']));
    if (!intent) {
      const reply = notFound(String(req.params['id']));
      return void res.status(reply.status).json(reply.body);
    }
    // `expand[]=latest_charge`: the charge with what was refunded of it.
    res.json({ ...intent, latest_charge: chargeOf(intent.id) });
  });
  app.post(
    '/v1/refunds',
    idempotent((req) => createRefund(req.body ?? {})),
  );
  app.use((req, res) => {
    res.status(404).json({
      error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${req.path}).` },
    });
  });

  const server = await listen(app);
  const port = (server.address() as AddressInfo).port;
  return {
    host: '127.0.0.1',
    port,
    protocol: 'http',
    url: `http://127.0.0.1:${port}`,
    requests,
    events,
    paymentIntent: (id) => intents.get(id),
    refunds: (intentId) => refundsOf(intentId).map((r) => ({ ...r })),
    completeAction(id, approve) {
      const intent = intents.get(id);
      if (!intent || intent.status !== 'requires_action') throw new Error(`no intent awaiting action: ${id}`);
      applyOutcome(
        intent,
        approve
          ? { kind: 'succeed' }
          : { kind: 'decline', code: 'payment_intent_authentication_failure', message: 'Authentication failed.' },
      );
      return intent;
    },
    setOutage: (on) => {
      outage = on;
    },
    close: () => new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve()))),
  };
}

function sptOf(body: Record<string, unknown>): string | undefined {
  const top = body['shared_payment_granted_token'];
  if (typeof top === 'string') return top;
  const nested = body['payment_method_data'];
  if (nested && typeof nested === 'object') {
    const value = (nested as Record<string, unknown>)['shared_payment_granted_token'];
    if (typeof value === 'string') return value;
  }
  return undefined;
}

function invalid(code: string, message: string): Reply {
  return { status: 400, body: { error: { type: 'invalid_request_error', code, message } } };
}

function notFound(id: string): Reply {
  return {
    status: 404,
    body: {
      error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such payment_intent: '${id}'` },
    },
  };
}

function stringRecord(value: unknown): Record<string, string> {
  if (!value || typeof value !== 'object') return {};
  return Object.fromEntries(
    Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );
}

function listen(app: express.Express): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = app.listen(0, '127.0.0.1', (error?: Error) => (error ? reject(error) : resolve(server)));
  });
}
