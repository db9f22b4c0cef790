import pino from 'pino';
import type { Express } from 'express';
import { createRateLimiter } from '@expedition/auth-publishable-key';
import type { Database } from '@expedition/db';
import { createTestDatabase } from '@expedition/db/testing';
import { CATALOG_VERSION, syncCatalog } from '@expedition/quoting';
import { createApp, type QuoteApiDeps } from '../src/app';

/** A clock tests can move. */
export function testClock(start = '2026-11-21T10:00:00Z') {
  let now = new Date(start).getTime();
  return {
    now: () => new Date(now),
    advance(ms: number) {
      now += ms;
    },
  };
}

export const PUBLIC_URL = 'http://quote.test';

export interface Harness {
  app: Express;
  db: Database;
  clock: ReturnType<typeof testClock>;
  close(): Promise<void>;
}

/** One isolated database per test file (its own PostgreSQL schema, or PGlite when PostgreSQL is absent). */
export async function createHarness(overrides: Partial<QuoteApiDeps> = {}): Promise<Harness> {
  const db = await createTestDatabase();
  await syncCatalog(db.prisma, CATALOG_VERSION);
  const clock = testClock();
  const app = createApp({
    prisma: db.prisma,
    ready: () => db.ping(),
    logger: pino({ level: 'silent' }),
    clock,
    publicUrl: PUBLIC_URL,
    rateLimiter: createRateLimiter({ points: 10_000, durationSec: 60 }),
    ...overrides,
  });
  return { app, db, clock, close: () => db.close() };
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
