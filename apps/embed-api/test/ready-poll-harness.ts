import express from 'express';
import pino from 'pino';
import request from 'supertest';
import type { CachedKeyResolver } from '@expedition/auth-publishable-key';
import { syncCatalog, type Database } from '@expedition/db';
import { createTestDatabase } from '@expedition/db/testing';
import { catalogSnapshot } from '@expedition/domain-pricing';
import { listen, type RunningServer } from '@expedition/http-kit';
import { createMetrics, type Metrics } from '@expedition/observability';
import { createKeyResolver } from '@expedition/operators';
import type { RateLimiter } from '@expedition/platform';
import { rawExchange } from '@expedition/platform/testing';
import {
  createHarness,
  fullQuote,
  OTHER_SITE_ORIGIN,
  seedKey,
  seedTenant,
  SITE_ORIGIN,
  testClock,
  type Harness,
} from './harness';

/*
 * The poll of a ready quote is answered before Express (src/options/ready-poll.ts). The ready-poll*.api.spec.ts files
 * send tables of requests, byte for byte, to two apps over one database: the app as built (`fast`) and the same app
 * with that path turned off (`viaExpress`), and require the same response bytes from both (status line, every header
 * in order, body; only Date and a minted X-Request-Id differ), the same log lines, the same metrics, the same onKeyUsed
 * calls. They also record which requests the fast path answered, so a comparison cannot pass by never taking it.
 */

/** Express's entry, spied before the apps are built (each app copies it when created): counts who reached Express. */
export const expressEntry = jest.spyOn(express.application as unknown as { handle: () => void }, 'handle');

/** Set by a test, reset after it: what both apps' rate limiters answer (deterministic, so a 429's Retry-After is the
 * same for both) and whether both apps' key stores fail. */
export const faults: { limiter: 'allow' | 'deny' | 'throw'; storeDown: boolean } = {
  limiter: 'allow',
  storeDown: false,
};

export interface Side {
  name: 'fast' | 'express';
  harness: Harness;
  keys: CachedKeyResolver;
  server: RunningServer;
  port: number;
  logs: Record<string, unknown>[];
  metrics: Metrics;
  keysUsed: string[];
}

export let db: Database;
export let fast: Side;
export let viaExpress: Side;
export let mine: Awaited<ReturnType<typeof seedTenant>>;
export let theirs: Awaited<ReturnType<typeof seedTenant>>;
export let suspended: Awaited<ReturnType<typeof seedTenant>>;
export let revokedKey: string;
/** Ready and cached in both apps: mine, theirs, and one of the operator suspended after it was cached. */
export let ready: { mine: string; theirs: string; suspended: string };
/** Not ready (no traveler ages: never instant-eligible). */
export let pending: string;

export const deterministicLimiter: RateLimiter = {
  consume: async () => {
    if (faults.limiter === 'throw') throw new Error('limiter down');
    return faults.limiter === 'deny'
      ? { allowed: false, retryAfterSec: 17, remaining: 0 }
      : { allowed: true, retryAfterSec: 0, remaining: 1_000 };
  },
};

async function side(name: Side['name']): Promise<Side> {
  const clock = testClock();
  const keys = createKeyResolver(db.prisma, { ttlMs: 60_000, clock });
  const logs: Record<string, unknown>[] = [];
  const metrics = createMetrics({ service: 'embed-api', defaultMetrics: false });
  const keysUsed: string[] = [];
  const harness = await createHarness({
    db,
    rateLimiter: deterministicLimiter,
    deps: {
      resolveKey: (key) => (faults.storeDown ? Promise.reject(new Error('store down')) : keys.resolve(key)),
      logger: pino({ level: 'debug' }, { write: (line: string) => logs.push(JSON.parse(line)) }),
      observability: { metrics },
      onKeyUsed: (key) => keysUsed.push(key.keyId),
      readyPollBeforeExpress: name === 'fast',
    },
  });
  const server = await listen(harness.app, { port: 0, host: '127.0.0.1' });
  return { name, harness, keys, server, port: server.port, logs, metrics, keysUsed };
}

/** One request as raw bytes (so nothing rewrites the target) and the raw response, on its own connection. */
function exchange(port: number, head: string): Promise<string> {
  return rawExchange(port, [{ head }]);
}

/** Requests written back to back on one keep-alive connection (the last one closes it), and everything answered on it. */
export function pipeline(port: number, heads: string[]): Promise<string> {
  return rawExchange(
    port,
    heads.map((head) => ({ head })),
  );
}

const MINTED_ID = /^X-Request-Id: ([0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12})\r$/m;

/**
 * The response with its Date, and its X-Request-Id when minted (checked to be a UUID; an error body repeats it),
 * replaced by placeholders.
 */
function comparable(out: string, sentRequestId: string | undefined): string {
  if (sentRequestId !== undefined) return out;
  const minted = MINTED_ID.exec(out)?.[1];
  expect(minted).toBeDefined();
  return out.split(minted!).join('<minted>');
}

/** A log line without what differs between two runs of one request (time, duration, a minted request id). */
function comparableLog(line: Record<string, unknown>, sentRequestId: string | undefined) {
  const { time: _time, ms: _ms, pid: _pid, hostname: _hostname, ...rest } = line;
  if (sentRequestId === undefined && 'reqId' in rest) rest['reqId'] = '<minted>';
  return rest;
}

export interface Sent {
  /** Request line and headers, without Host and Connection. */
  head: string;
  requestId?: string;
}

export interface Answer {
  response: string;
  logs: Record<string, unknown>[];
  reachedExpress: boolean;
}

export async function send(s: Side, sent: Sent): Promise<Answer> {
  const logsBefore = s.logs.length;
  const entered = expressEntry.mock.calls.length;
  const raw = await exchange(s.port, sent.head);
  // The access line is written on `finish`, which may follow the last byte read by a tick.
  await new Promise((resolve) => setImmediate(resolve));
  return {
    response: comparable(raw, sent.requestId),
    logs: s.logs.slice(logsBefore).map((line) => comparableLog(line, sent.requestId)),
    reachedExpress: expressEntry.mock.calls.length > entered,
  };
}

/** A GET of the options route with these headers (undefined: not sent). */
export function poll(
  target: string,
  headers: { key?: string; origin?: string; requestId?: string; extra?: string[] } = {},
  method = 'GET',
): Sent {
  const lines = [`${method} ${target} HTTP/1.1`];
  if (headers.key !== undefined) lines.push(`X-SVC-Publishable-Key: ${headers.key}`);
  if (headers.origin !== undefined) lines.push(`Origin: ${headers.origin}`);
  if (headers.requestId !== undefined) lines.push(`X-Request-Id: ${headers.requestId}`);
  lines.push(...(headers.extra ?? []));
  return { head: lines.join('\r\n'), requestId: headers.requestId };
}

/** Registers the file's hooks: the database, both apps, the tenants and their cached ready quotes; closed after. */
export function useTwoPaths(): void {
  beforeAll(async () => {
    db = await createTestDatabase();
    await syncCatalog(db.prisma, catalogSnapshot());
    fast = await side('fast');
    viaExpress = await side('express');

    mine = await seedTenant(db.prisma);
    theirs = await seedTenant(db.prisma, { origins: [OTHER_SITE_ORIGIN] });
    suspended = await seedTenant(db.prisma);
    revokedKey = await seedKey(db.prisma, mine.operatorId, 'test', { revokedAt: new Date(Date.now() - 60_000) });

    // Quotes are created through a third app, so the two compared apps see the same requests from here on.
    const seeder = await createHarness({ db });
    const create = async (key: string, origin: string, body: object = fullQuote) => {
      const res = await request(seeder.app)
        .post('/api/embed/quote')
        .set('X-SVC-Publishable-Key', key)
        .set('Origin', origin)
        .send(body);
      expect(res.status).toBe(200);
      return res.body.quoteId as string;
    };
    ready = {
      mine: await create(mine.testKey, SITE_ORIGIN),
      theirs: await create(theirs.testKey, OTHER_SITE_ORIGIN),
      suspended: await create(suspended.testKey, SITE_ORIGIN),
    };
    pending = await create(mine.testKey, SITE_ORIGIN, { ...fullQuote, travelerAges: undefined });
    await seeder.worker.runOnce();

    // Each app caches a ready payload on its first poll of it (through Express: nothing is cached yet).
    const owners = [
      [ready.mine, mine.testKey, SITE_ORIGIN],
      [ready.theirs, theirs.testKey, OTHER_SITE_ORIGIN],
      [ready.suspended, suspended.testKey, SITE_ORIGIN],
    ] as const;
    for (const s of [fast, viaExpress]) {
      for (const [quoteId, key, origin] of owners) {
        const res = await fetch(`${s.server.url}/api/embed/options?quoteId=${quoteId}`, {
          headers: { 'X-SVC-Publishable-Key': key, Origin: origin },
        });
        expect(res.status).toBe(200);
        expect(await res.text()).not.toContain('pending');
      }
    }
    // The operator is suspended after its quote was cached: its key must stop reading it at once.
    await db.prisma.operator.update({ where: { id: suspended.operatorId }, data: { status: 'suspended' } });
    for (const s of [fast, viaExpress]) s.keys.invalidate(suspended.testKey);
  });

  afterAll(async () => {
    await Promise.all([fast?.server.close(0), viaExpress?.server.close(0)]);
    await db?.close();
    expressEntry.mockRestore();
  });

  afterEach(() => {
    faults.limiter = 'allow';
    faults.storeDown = false;
  });
}

export const UNKNOWN_QUOTE = '7d1f2c3a-1111-4222-8333-944455556666';
export const optionsPath = (query: string) => `/api/embed/options${query}`;

/** A request (built once the hooks have run), the status both apps answer and whether the fast path answers it. */
export type Case = [name: string, request: () => Sent, expected: { status: number; fast: boolean }];

/** One test per case: the same bytes and log lines from both apps, and the expected status and path. */
export function expectSameAnswers(cases: Case[]): void {
  it.each(cases)('%s', async (_name, request, expected) => {
    const sent = request();
    const a = await send(fast, sent);
    const b = await send(viaExpress, sent);
    expect(a.response).toBe(b.response);
    expect(a.logs).toEqual(b.logs);
    expect(Number(/^HTTP\/1\.1 (\d{3})/.exec(a.response)?.[1])).toBe(expected.status);
    expect({ fastPath: !a.reachedExpress }).toEqual({ fastPath: expected.fast });
    expect(b.reachedExpress).toBe(true);
  });
}

/** The gate decision and request counters of both apps, and their onKeyUsed calls, are the same. */
export async function expectSameCounters(): Promise<void> {
  const counters = async (s: Side) =>
    (await s.metrics.registry.metrics())
      .split('\n')
      .filter((l) => l.startsWith('embed_gate_decisions_total') || l.startsWith('http_request_duration_seconds_count'))
      .sort();
  expect(await counters(fast)).toEqual(await counters(viaExpress));
  expect(fast.keysUsed).toEqual(viaExpress.keysUsed);
}

/** Error objects carry stacks that name different frames on the two paths: compare their messages only. */
export function comparableErrors(lines: Record<string, unknown>[]) {
  return lines.map((line) => {
    const err = line['err'] as { message?: string } | undefined;
    return err ? { ...line, err: err.message } : line;
  });
}
