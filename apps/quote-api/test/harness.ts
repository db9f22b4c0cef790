import pino from 'pino';
import type { Express } from 'express';
import { syncCatalog, type Database } from '@expedition/db';
import { createTestDatabase, type CreateTestDatabaseOptions } from '@expedition/db/testing';
import { createRateLimiter } from '@expedition/platform';
import { createTestClock } from '@expedition/platform/testing';
import { catalogSnapshot } from '@expedition/domain-pricing';
import { createSimulatedProcessor, type PaymentProcessor } from '@expedition/payments';
import { createApp } from '../src/app';
import type { QuoteApiDeps } from '../src/quote-api.services';

/** A clock tests can move. */
export const testClock = createTestClock;

export const PUBLIC_URL = 'http://quote.test';

export interface Harness {
  app: Express;
  db: Database;
  clock: ReturnType<typeof testClock>;
  processor: PaymentProcessor;
  close(): Promise<void>;
}

export const MPP_TEST_SECRET = 'quote-api-test-mpp-secret-0123456789abcdef';
export const MPP_NETWORK_ID = 'profile_test_expedition';

/**
 * The simulated processor, with its event delivery to the dispatcher stubbed out (answered 200): the synchronous
 * record path under test does the recording, as it would if the dispatcher were slow or down.
 */
export function testProcessor(clock: { now(): Date }, options: { allowLiveMode?: boolean } = {}) {
  return createSimulatedProcessor({
    webhookUrl: 'http://127.0.0.1:9/processor/events',
    webhookSecret: 'whsec_test',
    clock,
    fetch: async () => new Response('{}', { status: 200 }),
    allowLiveMode: options.allowLiveMode,
  });
}

/**
 * One isolated database per test file (its own PostgreSQL schema, or PGlite when PostgreSQL is absent).
 * `allowLiveMode`: the simulated processor takes live payments (SIMULATED_PROCESSOR_ALLOW_LIVE_MODE); `database`:
 * options of the test database (e.g. `onQuery` to see every SQL statement).
 */
export async function createHarness(
  overrides: Partial<QuoteApiDeps> = {},
  options: { allowLiveMode?: boolean; database?: CreateTestDatabaseOptions } = {},
): Promise<Harness> {
  const db = await createTestDatabase(options.database);
  await syncCatalog(db.prisma, catalogSnapshot());
  const clock = testClock();
  const logger = pino({ level: 'silent' });
  const processor = overrides.payments?.processor ?? testProcessor(clock, options);
  const app = createApp({
    prisma: db.prisma,
    ready: () => db.ping(),
    logger,
    clock,
    publicUrl: PUBLIC_URL,
    rateLimiter: createRateLimiter({ points: 10_000, durationSec: 60 }),
    payments: {
      processor,
      mpp: {
        secrets: [MPP_TEST_SECRET],
        realm: 'quote.test',
        networkId: MPP_NETWORK_ID,
        paymentMethodTypes: ['card'],
        challengeTtlMs: 5 * 60 * 1000,
      },
    },
    ...overrides,
  });
  return { app, db, clock, processor, close: () => db.close() };
}

/** A valid quote body, 2 travelers to Antarctica, departing after the test clock's today. */
export const antarcticaQuote = {
  destination: 'Antarctica',
  startDate: '2027-01-10',
  durationDays: 14,
  tripCost: 24000,
  travelers: 2,
  travelerAges: [45, 52],
  residence: 'GB',
};

/**
 * An active operator, Ice Tours (10 % commission, a webhook URL where nothing listens), to which `quoteId` is
 * attributed when given.
 */
export async function iceToursOperator(h: Pick<Harness, 'db'>, quoteId?: string) {
  const operator = await h.db.prisma.operator.create({
    data: {
      name: 'Ice Tours',
      status: 'active',
      commissionRateBps: 1000,
      webhookUrl: 'http://127.0.0.1:9/hooks',
      webhookSecret: 'whsec_op',
    },
  });
  if (quoteId) await h.db.prisma.quote.update({ where: { id: quoteId }, data: { operatorId: operator.id } });
  return operator;
}
