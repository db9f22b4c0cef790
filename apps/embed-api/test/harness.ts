import pino from 'pino';
import type { Express } from 'express';
import type { Response } from 'supertest';
import { mintPublishableKey, type CachedKeyResolver } from '@expedition/auth-publishable-key';
import type { Mode } from '@expedition/contracts';
import { syncCatalog, type Database, type PrismaClient } from '@expedition/db';
import { createTestDatabase } from '@expedition/db/testing';
import { createRateLimiter, type RateLimiter } from '@expedition/platform';
import { createTestClock, describeWithRedis, testRedisUrl, type TestClock } from '@expedition/platform/testing';
import { catalogSnapshot } from '@expedition/domain-pricing';
import { createOptionsWorker, type OptionsWorker } from '@expedition/quoting';
import { createSimulatedProcessor, type SimulatedProcessor } from '@expedition/payments';
import { createApp, type EmbedApiDeps } from '../src/app';
import type { EmbedPaymentsOptions } from '../src/payments/embed-payment.service';
import { createKeyResolver } from '@expedition/operators';

/** A clock tests can move. */
export const testClock = createTestClock;
export type { TestClock };

/** The widget iframe (first-party), the portal (test dashboard) and an operator's own site. */
export const WIDGET_ORIGIN = 'http://widget.test:3003';
export const PORTAL_ORIGIN = 'http://portal.test:3004';
export const SITE_ORIGIN = 'https://tours.example';
export const OTHER_SITE_ORIGIN = 'https://elsewhere.example';
/** quote-api's public URL: checkout links point there. */
export const QUOTE_API_URL = 'http://quote.test:3001';

export interface Harness {
  app: Express;
  db: Database;
  prisma: PrismaClient;
  clock: TestClock;
  keys: CachedKeyResolver;
  worker: OptionsWorker;
  close(): Promise<void>;
}

export interface HarnessOptions {
  /** Defaults to a generous in-memory limiter so matrix suites never trip it; rate-limit suites pass the real one. */
  rateLimiter?: RateLimiter;
  keyCacheTtlMs?: number;
  deps?: Partial<EmbedApiDeps>;
  /** Reuse a database (two app instances on one database). */
  db?: Database;
  /** Mounts the Tier 3 payment routes with what this returns (it gets the harness clock). */
  payments?: (clock: TestClock) => EmbedPaymentsOptions;
}

/** One isolated database per test file (its own PostgreSQL schema, or PGlite when PostgreSQL is absent). */
export async function createHarness(options: HarnessOptions = {}): Promise<Harness> {
  const db = options.db ?? (await createTestDatabase());
  if (!options.db) await syncCatalog(db.prisma, catalogSnapshot());
  const clock = testClock();
  const keys = createKeyResolver(db.prisma, { ttlMs: options.keyCacheTtlMs ?? 5_000, clock });
  const app = createApp({
    prisma: db.prisma,
    ready: () => db.ping(),
    logger: pino({ level: 'silent' }),
    clock,
    resolveKey: keys.resolve,
    rateLimiter: options.rateLimiter ?? createRateLimiter({ points: 100_000, durationSec: 60 }),
    firstPartyOrigins: [WIDGET_ORIGIN],
    testDashboardOrigins: [PORTAL_ORIGIN],
    quoteApiUrl: QUOTE_API_URL,
    ...(options.payments ? { payments: options.payments(clock) } : {}),
    ...options.deps,
  });
  const worker = createOptionsWorker({ prisma: db.prisma, clock });
  return {
    app,
    db,
    prisma: db.prisma,
    clock,
    keys,
    worker,
    close: () => (options.db ? Promise.resolve() : db.close()),
  };
}

// ---- payments ----------------------------------------------------------------------------------------------------

export const SIMULATED_WEBHOOK_SECRET = 'whsec_embed_api_test';
export const INTAKE_URL = 'http://dispatcher.test/processor/events';

export interface CapturedEvent {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/**
 * The simulated processor with its event delivery captured instead of POSTed: tests read what the dispatcher's intake
 * would have received (and can feed it to a real intake themselves).
 */
export function capturingProcessor(
  clock: { now(): Date },
  options: { allowLiveMode?: boolean } = {},
): { processor: SimulatedProcessor; events: CapturedEvent[] } {
  const events: CapturedEvent[] = [];
  const processor = createSimulatedProcessor({
    webhookUrl: INTAKE_URL,
    webhookSecret: SIMULATED_WEBHOOK_SECRET,
    clock,
    allowLiveMode: options.allowLiveMode,
    fetch: async (url, init) => {
      events.push({ url, headers: init.headers, body: init.body });
      return { status: 200 };
    },
  });
  return { processor, events };
}

// ---- rows, created through Prisma in the test's own database ------------------------------------------------

export interface SeedOperator {
  status?: 'pending' | 'active' | 'suspended';
  embeddingEnabled?: boolean;
  origins?: string[];
  name?: string;
  /** The provider's widget tier cap; 3 here so the Tier 2 and Tier 3 routes are open unless a test lowers it. */
  integrationTier?: number;
}

export async function seedOperator(prisma: PrismaClient, seed: SeedOperator = {}): Promise<string> {
  const operator = await prisma.operator.create({
    data: {
      name: seed.name ?? 'Polar Voyages',
      status: seed.status ?? 'active',
      embeddingEnabled: seed.embeddingEnabled ?? false,
      integrationTier: seed.integrationTier ?? 3,
      allowedOrigins: { create: (seed.origins ?? [SITE_ORIGIN]).map((origin) => ({ origin })) },
    },
  });
  return operator.id;
}

export async function seedKey(
  prisma: PrismaClient,
  operatorId: string,
  mode: Mode = 'test',
  extra: { revokedAt?: Date; expiresAt?: Date } = {},
): Promise<string> {
  const key = mintPublishableKey(mode);
  await prisma.publishableKey.create({ data: { operatorId, key, mode, ...extra } });
  return key;
}

/** An active operator with embedding enabled, its site origin, and one key of each mode. */
export async function seedTenant(prisma: PrismaClient, seed: SeedOperator = {}) {
  const operatorId = await seedOperator(prisma, { embeddingEnabled: true, ...seed });
  return {
    operatorId,
    testKey: await seedKey(prisma, operatorId, 'test'),
    liveKey: await seedKey(prisma, operatorId, 'live'),
  };
}

/** A complete body: every age known, both dates → instant-eligible. */
export const fullQuote = {
  destination: 'Antarctica',
  tripCost: 24000,
  travelers: 2,
  residence: 'GB',
  email: 'traveler@example.com',
  startDate: '2027-01-10',
  endDate: '2027-01-24',
  travelerAges: [45, 52],
};

// ---- CORS assertions -------------------------------------------------------------------------------------------

export function accessControlHeaders(res: Response): string[] {
  return Object.keys(res.headers).filter((h) => h.startsWith('access-control-'));
}

export function varyHasOrigin(res: Response): boolean {
  return String(res.headers['vary'] ?? '')
    .split(',')
    .some((v) => v.trim().toLowerCase() === 'origin');
}

/** The spec's CORS headers for exactly this origin; never `*`, never credentials; `Vary: Origin`. */
export function expectCors(res: Response, origin: string): void {
  expect(res.headers['access-control-allow-origin']).toBe(origin);
  expect(res.headers['access-control-allow-methods']).toBe('GET, POST, OPTIONS');
  expect(res.headers['access-control-allow-headers']).toBe('Content-Type, X-SVC-Publishable-Key');
  expect(res.headers['access-control-allow-credentials']).toBeUndefined();
  expect(varyHasOrigin(res)).toBe(true);
}

export function expectNoCors(res: Response): void {
  expect(accessControlHeaders(res)).toEqual([]);
  expect(varyHasOrigin(res)).toBe(true);
}

// ---- Redis ---------------------------------------------------------------------------------------------------

export const REDIS_URL = testRedisUrl();
export { describeWithRedis };
