import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import type { Express } from 'express';
import { applyMigrations, createDatabase, syncCatalog, type Database, type PrismaClient } from '@expedition/db';
import { createTestDatabase, testDatabaseUrl } from '@expedition/db/testing';
import { createTestClock, type TestClock } from '@expedition/platform/testing';
import { PaymentProcessorError, createSimulatedProcessor, type RefundPaymentInput } from '@expedition/payments';
import { catalogSnapshot } from '@expedition/domain-pricing';
import type { Clock } from '@expedition/platform';
import { createQuoteService } from '@expedition/quoting';
import { signPayload } from '@expedition/webhook-signature';
import { createSecretBox, parseWebhookSecretKeys } from '@expedition/operators';
import { createApp, type DispatcherDeps } from '../src/app';
import { createDeliveryWorker, type DeliveryWorkerDeps } from '../src/delivery/delivery-worker';

export const silentLogger = pino({ level: 'silent' });

/** A clock tests can move. */
export const testClock = createTestClock;
export type { TestClock };

export const PROCESSOR_SECRET = 'whsec_test_dispatcher_intake';
export const OPERATOR_SECRET = 'whsec_operator_receiver_secret';

/** WEBHOOK_SECRET_KEYS of the tests (fixed keys `a` and `b`; never use them anywhere else). */
export const TEST_WEBHOOK_KEY_A = `a:${Buffer.alloc(32, 0xa1).toString('base64')}`;
export const TEST_WEBHOOK_KEY_B = `b:${Buffer.alloc(32, 0xb2).toString('base64')}`;
export const testSecretBox = (keys = TEST_WEBHOOK_KEY_A) => createSecretBox(parseWebhookSecretKeys(keys));
export const TEST_SECRET_BOX = testSecretBox();

export interface Harness {
  app: Express;
  db: Database;
  prisma: PrismaClient;
  clock: TestClock;
  close(): Promise<void>;
}

/** One isolated database per test file (its own PostgreSQL schema, or PGlite when PostgreSQL is absent). */
export async function createHarness(
  overrides: Partial<DispatcherDeps> = {},
  clock: TestClock = testClock(),
): Promise<Harness> {
  const db = await createTestDatabase();
  await syncCatalog(db.prisma, catalogSnapshot());
  const app = createApp(appDeps(db, clock, overrides));
  return { app, db, prisma: db.prisma, clock, close: () => db.close() };
}

export function appDeps(db: Database, clock: Clock, overrides: Partial<DispatcherDeps> = {}): DispatcherDeps {
  return {
    prisma: db.prisma,
    ready: () => db.ping(),
    logger: silentLogger,
    clock,
    processor: refundRecordingProcessor(clock),
    ...overrides,
  };
}

/** Every refund the intake asked the processor for (the events under test are fabricated, so the processor does not
 * know their payments: it records the request and answers succeeded, as Stripe would for a real charge). */
export const refundCalls: RefundPaymentInput[] = [];

/** What the processor "knows" of the fabricated payments (registerAsOurs fills it): the intake verifies successes
 * against it, as it asks Stripe in production. */
export const processorLedger = new Map<
  string,
  {
    status: 'succeeded' | 'failed' | 'pending';
    amountCents: number;
    currency: string;
    mode: 'test' | 'live';
    /** The processor's own `last_payment_error` of a failed payment. */
    failure?: { failureCode?: string; declineCode?: string; failureMessage?: string };
  }
>();

export function refundRecordingProcessor(clock: Clock) {
  const processor = createSimulatedProcessor({
    webhookUrl: 'http://127.0.0.1:9/unused',
    webhookSecret: PROCESSOR_SECRET,
    clock,
  });
  processor.retrievePayment = async (input) => {
    const known = processorLedger.get(input.paymentId);
    if (!known || known.mode !== input.mode)
      throw new PaymentProcessorError('payment_not_found', `No such payment_intent: '${input.paymentId}'`);
    return {
      paymentId: input.paymentId,
      status: known.status,
      amountCents: known.amountCents,
      currency: known.currency,
      metadata: {},
      amountRefundedCents: 0,
      ...known.failure,
    };
  };
  processor.refundPayment = async (input) => {
    refundCalls.push(input);
    return { refundId: `re_test_${refundCalls.length}`, status: 'succeeded', amountCents: input.amountCents ?? 0 };
  };
  return processor;
}

/** Delivery worker with test-friendly settings (the real default schedule unless overridden). */
export function testWorker(prisma: PrismaClient, clock: Clock, overrides: Partial<DeliveryWorkerDeps> = {}) {
  return createDeliveryWorker({
    prisma,
    clock,
    logger: silentLogger,
    retryDelaysMs: [30_000, 300_000],
    timeoutMs: 2_000,
    leaseMs: 10_000,
    batchSize: 10,
    pollIntervalMs: 20,
    secretBox: TEST_SECRET_BOX,
    // The test receivers listen on 127.0.0.1, as in development.
    allowPrivateNetworks: true,
    ...overrides,
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Fixtures
// ---------------------------------------------------------------------------------------------------------------

export async function createOperator(
  prisma: PrismaClient,
  fields: { webhookUrl?: string | null; webhookSecret?: string | null; commissionRateBps?: number } = {},
) {
  return prisma.operator.create({
    data: {
      name: `Operator ${randomBytes(3).toString('hex')}`,
      status: 'active',
      commissionRateBps: fields.commissionRateBps ?? 1_250,
      webhookUrl: fields.webhookUrl === undefined ? 'http://127.0.0.1:9/hooks' : fields.webhookUrl,
      webhookSecret: fields.webhookSecret === undefined ? OPERATOR_SECRET : fields.webhookSecret,
    },
  });
}

export const antarcticaTrip = {
  destination: 'Antarctica',
  startDate: '2027-01-10',
  durationDays: 14,
  tripCostCents: 2_400_000,
  travelers: 2,
  travelerAges: [45, 52],
  residence: 'GB',
};

/** A priced quote (source embed with an operator, else api) and its first plan's estimate. */
export async function createQuote(prisma: PrismaClient, clock: Clock, operatorId?: string) {
  const quotes = createQuoteService({ prisma, clock });
  const created = await quotes.create({
    ...antarcticaTrip,
    source: operatorId ? 'embed' : 'api',
    operatorId: operatorId ?? null,
  });
  const estimate = created.estimates[0];
  if (!estimate) throw new Error('the test trip priced no plans');
  return { quote: created.quote, planId: estimate.planId, premiumCents: estimate.premiumCents };
}

export interface IntentEventInput {
  type?: 'payment_intent.succeeded' | 'payment_intent.payment_failed' | string;
  eventId?: string;
  paymentId?: string;
  amountCents: number;
  currency?: string;
  metadata: Record<string, string>;
  livemode?: boolean;
  lastPaymentError?: { type: string; code: string; decline_code?: string; message: string } | null;
}

/** A Stripe-format PaymentIntent event, exactly as the simulated processor (or Stripe) would post it. */
export function intentEvent(input: IntentEventInput, createdSec: number) {
  const type = input.type ?? 'payment_intent.succeeded';
  const failed = type === 'payment_intent.payment_failed';
  return {
    id: input.eventId ?? `evt_sim_${randomBytes(8).toString('hex')}`,
    object: 'event',
    type,
    api_version: null,
    created: createdSec,
    livemode: input.livemode ?? false,
    data: {
      object: {
        id: input.paymentId ?? `pi_sim_${randomBytes(8).toString('hex')}`,
        object: 'payment_intent',
        amount: input.amountCents,
        currency: input.currency ?? 'usd',
        status: failed ? 'requires_payment_method' : 'succeeded',
        livemode: input.livemode ?? false,
        metadata: input.metadata,
        last_payment_error: failed
          ? (input.lastPaymentError ?? {
              type: 'card_error',
              code: 'card_declined',
              decline_code: 'generic_decline',
              message: 'Your card was declined.',
            })
          : null,
        client_secret: 'pi_secret_should_not_be_stored',
        created: createdSec,
      },
    },
  };
}

interface IntentFields {
  object?: string;
  id?: string;
  amount?: number;
  currency?: string;
  livemode?: boolean;
  status?: string;
  metadata?: Record<string, string>;
  last_payment_error?: { code?: string; decline_code?: string; message?: string } | null;
}

/**
 * Stores the Payment row the app that started this payment would have written (checkout link, Tier 3): the intake
 * trusts a processor event only for a payment of ours. Skipped when the quote does not exist or the row is there.
 */
export async function registerAsOurs(prisma: PrismaClient, event: object): Promise<void> {
  const intent = (event as { data?: { object?: IntentFields } }).data?.object;
  const meta = intent?.metadata ?? {};
  if (intent?.object !== 'payment_intent' || !intent.id || !meta['quoteId'] || !meta['planId']) return;
  const error = intent.last_payment_error;
  processorLedger.set(intent.id, {
    status: intent.status === 'succeeded' ? 'succeeded' : 'failed',
    amountCents: intent.amount ?? 0,
    currency: intent.currency ?? 'usd',
    mode: intent.livemode ? 'live' : 'test',
    ...(error
      ? { failure: { failureCode: error.code, declineCode: error.decline_code, failureMessage: error.message } }
      : {}),
  });
  if (!(await prisma.quote.findUnique({ where: { id: meta['quoteId'] }, select: { id: true } }))) return;
  if (!(await prisma.plan.findUnique({ where: { id: meta['planId'] }, select: { id: true } }))) return;
  const channel =
    (['checkout_link', 'mpp', 'embed', 'acp'] as const).find((c) => c === meta['channel']) ?? 'checkout_link';
  await prisma.payment.createMany({
    data: [
      {
        quoteId: meta['quoteId'],
        planId: meta['planId'],
        operatorId: meta['operatorId'] ?? null,
        mode: intent.livemode ? 'live' : 'test',
        channel,
        processor: 'simulated',
        processorPaymentId: intent.id,
        amountCents: intent.amount ?? 0,
        currency: (intent.currency ?? 'usd').toUpperCase(),
        checkoutSessionId: meta['checkoutSessionId'] ?? null,
        status: 'pending',
      },
    ],
    skipDuplicates: true,
  });
}

/** Raw body + Stripe-Signature header, signed at `timestampSec` (default: the clock's now). */
export function signEvent(event: object, timestampSec: number, secret = PROCESSOR_SECRET) {
  const body = JSON.stringify(event);
  return { body, header: signPayload(body, secret, timestampSec) };
}

/** Row counts of every table the intake and the delivery workers write. */
export async function countMoneyPath(prisma: PrismaClient) {
  const [
    processorEvents,
    payments,
    purchases,
    policies,
    commissions,
    webhookEvents,
    webhookAttempts,
    paidQuotes,
    paidSessions,
  ] = await Promise.all([
    prisma.processorEvent.count(),
    prisma.payment.count(),
    prisma.purchase.count(),
    prisma.policy.count(),
    prisma.commission.count(),
    prisma.webhookEvent.count(),
    prisma.webhookAttempt.count(),
    prisma.quote.count({ where: { status: 'purchased' } }),
    prisma.checkoutSession.count({ where: { status: 'paid' } }),
  ]);
  return {
    processorEvents,
    payments,
    purchases,
    policies,
    commissions,
    webhookEvents,
    webhookAttempts,
    paidQuotes,
    paidSessions,
  };
}

/** Inserts a pending `policy.issued` outbox row directly (delivery tests that do not need the intake). */
export async function enqueueWebhook(
  prisma: PrismaClient,
  operatorId: string,
  at: Date,
  extra: Record<string, unknown> = {},
) {
  const eventId = `evt_${randomUUID()}`;
  const payload = {
    eventId,
    type: 'policy.issued',
    operatorId,
    premiumCents: 12_345,
    commissionCents: 1_543,
    ...extra,
  };
  return prisma.webhookEvent.create({
    data: { eventId, type: 'policy.issued', operatorId, payload, nextAttemptAt: at, createdAt: at },
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Loopback receiver
// ---------------------------------------------------------------------------------------------------------------

export interface ReceivedRequest {
  headers: IncomingMessage['headers'];
  body: Buffer;
  eventId: string | undefined;
  /** Other requests for the same eventId in flight when this one arrived. */
  concurrentSameEvent: number;
}

export type ReceiverReply = number | 'hang' | { status: number; delayMs: number };

export interface Receiver {
  url: string;
  requests: ReceivedRequest[];
  /** Decides each reply from the request number (1-based). */
  setReply(reply: (n: number, req: ReceivedRequest) => ReceiverReply): void;
  /** Resolves when the n-th request has arrived. */
  arrived(n: number): Promise<void>;
  close(): Promise<void>;
}

export async function startReceiver(
  reply: (n: number, req: ReceivedRequest) => ReceiverReply = () => 200,
  port = 0,
): Promise<Receiver> {
  let decide = reply;
  const requests: ReceivedRequest[] = [];
  const inFlight = new Map<string, number>();
  const waiters: { n: number; resolve: () => void }[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      let eventId: string | undefined;
      try {
        eventId = (JSON.parse(body.toString('utf8')) as { eventId?: string }).eventId;
      } catch {
        eventId = undefined;
      }
      const key = eventId ?? '';
      const concurrent = inFlight.get(key) ?? 0;
      inFlight.set(key, concurrent + 1);
      const received: ReceivedRequest = { headers: req.headers, body, eventId, concurrentSameEvent: concurrent };
      requests.push(received);
      for (const w of waiters.filter((w) => requests.length >= w.n)) w.resolve();
      const answer = decide(requests.length, received);
      const finish = (status: number) => {
        inFlight.set(key, (inFlight.get(key) ?? 1) - 1);
        res.statusCode = status;
        res.end(status < 300 ? 'ok' : 'nope');
      };
      if (answer === 'hang') {
        req.socket.on('close', () => inFlight.set(key, (inFlight.get(key) ?? 1) - 1));
        return;
      }
      if (typeof answer === 'number') return finish(answer);
      setTimeout(() => finish(answer.status), answer.delayMs);
    });
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', resolve));
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${bound}/hooks`,
    requests,
    setReply(next) {
      decide = next;
    },
    arrived(n) {
      if (requests.length >= n) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ n, resolve }));
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A loopback URL nobody listens on (connection refused). */
export async function deadUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/hooks`;
}

/** Polls until `check` returns a truthy value (no timing assertions: the test timeout is the only bound). */
export async function waitFor<T>(check: () => Promise<T | null | undefined | false>, everyMs = 25): Promise<T> {
  for (;;) {
    const value = await check();
    if (value) return value;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

// ---------------------------------------------------------------------------------------------------------------
// A PostgreSQL schema shared by several connections / processes (replica and crash tests)
// ---------------------------------------------------------------------------------------------------------------

export interface SharedSchema {
  url: string;
  schema: string;
  /** DATABASE_URL for another process: the schema rides along as `?schema=`. */
  databaseUrl: string;
  open(): Promise<Database>;
  drop(): Promise<void>;
}

export async function createSharedSchema(): Promise<SharedSchema> {
  const url = testDatabaseUrl();
  const schema = `w_${randomBytes(6).toString('hex')}`;
  const open = () => createDatabase({ databaseUrl: url, schema, poolMax: 4 });
  const admin = await open();
  await applyMigrations(admin);
  await syncCatalog(admin.prisma, catalogSnapshot());
  const withSchema = new URL(url);
  withSchema.searchParams.set('schema', schema);
  return {
    url,
    schema,
    databaseUrl: withSchema.toString(),
    open,
    async drop() {
      await admin.withConnection((executor) => executor.exec(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`));
      await admin.close();
    },
  };
}
