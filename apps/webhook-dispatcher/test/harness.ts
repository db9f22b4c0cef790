import pino from 'pino';
import type { Express } from 'express';
import { syncCatalog, type Database, type PrismaClient } from '@expedition/db';
import { createTestDatabase } from '@expedition/db/testing';
import { createTestClock, type TestClock } from '@expedition/platform/testing';
import { catalogSnapshot } from '@expedition/domain-pricing';
import type { Clock } from '@expedition/platform';
import { createSecretBox, parseWebhookSecretKeys } from '@expedition/operators';
import { createApp, type DispatcherDeps } from '../src/app';
import { createDeliveryWorker, type DeliveryWorkerDeps } from '../src/delivery/delivery-worker';
import { refundRecordingProcessor } from './processor-events';

/*
 * The dispatcher's test harness: an isolated database with the app on it, the test clock, secrets and a delivery worker.
 * Fixtures live beside it: processor-events.ts (signed processor events, the processor's ledger), fixtures.ts
 * (operators, quotes, outbox rows), receiver.ts (a loopback webhook receiver), shared-schema.ts (one PostgreSQL schema
 * for several processes).
 */

export const silentLogger = pino({ level: 'silent' });

/** A clock tests can move. */
export const testClock = createTestClock;
export type { TestClock };

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

/** Polls until `check` returns a truthy value (no timing assertions: the test timeout is the only bound). */
export async function waitFor<T>(check: () => Promise<T | null | undefined | false>, everyMs = 25): Promise<T> {
  for (;;) {
    const value = await check();
    if (value) return value;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
