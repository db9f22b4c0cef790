import request from 'supertest';
import pino from 'pino';
import type { PrismaClient } from '@expedition/db';
import {
  createOptionsWorker,
  createQuoteService,
  type OptionsOutcome,
  type OptionsRunSummary,
  type OptionsWorker,
} from '@expedition/quoting';
import { createHarness, fullQuote, seedTenant, SITE_ORIGIN, type Harness } from './harness';

let h: Harness;
let tenant: Awaited<ReturnType<typeof seedTenant>>;

beforeAll(async () => {
  h = await createHarness();
  tenant = await seedTenant(h.prisma);
});
afterAll(() => h.close());

// Each test starts from an empty queue, so one test's leftovers cannot be claimed by the next.
beforeEach(async () => {
  await h.prisma.quote.updateMany({ where: { optionsStatus: 'pending' }, data: { optionsStatus: 'not_eligible' } });
});

async function createQuotes(n: number, body: object = fullQuote): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const res = await request(h.app)
      .post('/api/embed/quote')
      .set('X-SVC-Publishable-Key', tenant.testKey)
      .set('Origin', SITE_ORIGIN)
      .send(body);
    expect(res.status).toBe(200);
    ids.push(res.body.quoteId);
  }
  return ids;
}

function worker(overrides: Partial<Parameters<typeof createOptionsWorker>[0]> = {}): OptionsWorker {
  return createOptionsWorker({ prisma: h.prisma, clock: h.clock, logger: pino({ level: 'silent' }), ...overrides });
}

async function expectReadyOnce(ids: string[]) {
  for (const id of ids) {
    const quote = await h.prisma.quote.findUniqueOrThrow({
      where: { id },
      include: { estimates: true, options: true },
    });
    expect(quote.optionsStatus).toBe('ready');
    expect(quote.optionsLockedUntil).toBeNull();
    expect(quote.options.map((o) => o.planId).sort()).toEqual(quote.estimates.map((e) => e.planId).sort());
  }
}

function count(outcomes: Map<string, OptionsOutcome>[], outcome: OptionsOutcome, ids: string[]) {
  return outcomes.flatMap((m) => [...m].filter(([id, o]) => ids.includes(id) && o === outcome)).length;
}

describe('options worker', () => {
  it('two workers racing over a backlog: every quote ready exactly once, options never duplicated', async () => {
    const ids = await createQuotes(12);
    const a = worker({ batchSize: 3 });
    const b = worker({ batchSize: 3 });
    const rounds = [];
    for (let i = 0; i < 4; i++) rounds.push(...(await Promise.all([a.runOnce(), b.runOnce()])));
    await expectReadyOnce(ids);
    expect(
      count(
        rounds.map((r) => r.byQuote),
        'ready',
        ids,
      ),
    ).toBe(12);
  });

  it('even when claims overlap (lease lapsed mid-generation), the loser aborts and nothing is duplicated', async () => {
    const ids = await createQuotes(6);
    // leaseMs 0: a claimed quote is claimable again at once. The barrier holds every worker's first transaction
    // until all four have claimed, so all four hold the same six quotes and really race to produce them.
    const barrier = transactionBarrier(h.prisma, 4);
    const workers = Array.from({ length: 4 }, () => worker({ prisma: barrier.prisma, leaseMs: 0, maxAttempts: 100 }));
    const running: Promise<OptionsRunSummary>[] = [];
    for (const [i, w] of workers.entries()) {
      running.push(w.runOnce());
      await barrier.arrivals(i + 1); // claimed and waiting to produce
    }
    const rounds = await Promise.all(running);
    expect(rounds.map((r) => r.claimed)).toEqual([6, 6, 6, 6]);
    await expectReadyOnce(ids);
    expect(
      count(
        rounds.map((r) => r.byQuote),
        'ready',
        ids,
      ),
    ).toBe(6);
    expect(
      count(
        rounds.map((r) => r.byQuote),
        'skipped',
        ids,
      ),
    ).toBe(18);
    const totalOptions = await h.prisma.quoteOption.count({ where: { quoteId: { in: ids } } });
    const totalEstimates = await h.prisma.quoteEstimate.count({ where: { quoteId: { in: ids } } });
    expect(totalOptions).toBe(totalEstimates);
  });

  it("respects another worker's lease until it lapses", async () => {
    const [id] = await createQuotes(1);
    const held = new Date(h.clock.now().getTime() + 30_000);
    await h.prisma.quote.update({ where: { id: id! }, data: { optionsLockedUntil: held, optionsAttempts: 1 } });
    const w = worker();
    expect((await w.runOnce()).claimed).toBe(0);
    h.clock.advance(30_000);
    expect((await w.runOnce()).byQuote.get(id!)).toBe('ready');
    expect((await h.prisma.quote.findUniqueOrThrow({ where: { id: id! } })).optionsAttempts).toBe(2);
  });

  it('retries a failing generation after a backoff, then marks it failed after maxAttempts', async () => {
    const [id] = await createQuotes(1);
    const failing = new Proxy(h.prisma, {
      get(target, prop, receiver) {
        if (prop === '$transaction') return () => Promise.reject(new Error('disk full'));
        return Reflect.get(target, prop, receiver);
      },
    }) as PrismaClient;
    const w = worker({ prisma: failing, maxAttempts: 3, retryDelayMs: () => 1_000 });

    expect((await w.runOnce()).byQuote.get(id!)).toBe('retry');
    expect(await h.prisma.quote.findUniqueOrThrow({ where: { id: id! } })).toMatchObject({
      optionsStatus: 'pending',
      optionsAttempts: 1,
      optionsError: 'disk full',
    });
    expect((await w.runOnce()).claimed).toBe(0); // backing off
    h.clock.advance(1_000);
    expect((await w.runOnce()).byQuote.get(id!)).toBe('retry');
    h.clock.advance(1_000);
    expect((await w.runOnce()).byQuote.get(id!)).toBe('failed');
    expect(await h.prisma.quote.findUniqueOrThrow({ where: { id: id! } })).toMatchObject({
      optionsStatus: 'failed',
      optionsAttempts: 3,
    });
    h.clock.advance(60_000);
    expect((await worker().runOnce()).claimed).toBe(0);
  });

  it('gives up on a quote whose claims keep dying (attempts beyond maxAttempts)', async () => {
    const [id] = await createQuotes(1);
    await h.prisma.quote.update({ where: { id: id! }, data: { optionsAttempts: 5 } });
    expect((await worker({ maxAttempts: 5 }).runOnce()).byQuote.get(id!)).toBe('failed');
    expect(await h.prisma.quoteOption.count({ where: { quoteId: id! } })).toBe(0);
  });

  it('never claims a quote that creation stored not instant-eligible (eligibility is decided once, at creation)', async () => {
    const [id] = await createQuotes(1, { ...fullQuote, travelerAges: undefined });
    expect(await h.prisma.quote.findUniqueOrThrow({ where: { id: id! } })).toMatchObject({
      optionsStatus: 'not_eligible',
      instantQuoteEligible: false,
      optionsAttempts: 0,
    });
    expect((await worker().runOnce()).byQuote.has(id!)).toBe(false);
  });

  it('leaves quoting-API quotes alone (they are not embed options)', async () => {
    const api = await createQuoteService({ prisma: h.prisma, clock: h.clock }).create({
      source: 'api',
      destination: 'Antarctica',
      startDate: '2027-01-10',
      durationDays: 14,
      tripCostCents: 2_400_000,
      travelers: 1,
      travelerAges: [40],
      residence: 'GB',
    });
    expect((await worker().runOnce()).byQuote.has(api.quote.id)).toBe(false);
  });

  it('start() polls, a created quote kicks it, stop() waits for the round in flight', async () => {
    const w = worker({ pollIntervalMs: 60_000 });
    const app = (await createHarness({ db: h.db, deps: { onQuoteCreated: () => w.kick() } })).app;
    w.start();
    try {
      const res = await request(app)
        .post('/api/embed/quote')
        .set('X-SVC-Publishable-Key', tenant.testKey)
        .set('Origin', SITE_ORIGIN)
        .send(fullQuote);
      expect(res.status).toBe(200);
      await waitFor(
        async () =>
          (await h.prisma.quote.findUniqueOrThrow({ where: { id: res.body.quoteId } })).optionsStatus === 'ready',
      );
    } finally {
      await w.stop();
    }
    const [late] = await createQuotes(1);
    w.kick(); // stopped: a no-op
    expect((await h.prisma.quote.findUniqueOrThrow({ where: { id: late! } })).optionsStatus).toBe('pending');
  });
});

/** $transaction calls wait until `parties` of them have started, then all proceed. */
function transactionBarrier(prisma: PrismaClient, parties: number) {
  let arrived = 0;
  let release!: () => void;
  const open = new Promise<void>((resolve) => (release = resolve));
  const waiters: { n: number; resolve: () => void }[] = [];
  const proxy = new Proxy(prisma, {
    get(target, prop, receiver) {
      if (prop !== '$transaction') return Reflect.get(target, prop, receiver);
      return async (...args: unknown[]) => {
        arrived += 1;
        for (const w of waiters.filter((w) => w.n <= arrived)) w.resolve();
        if (arrived >= parties) release();
        await open;
        return (target.$transaction as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  }) as PrismaClient;
  return {
    prisma: proxy,
    arrivals: (n: number) =>
      arrived >= n ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ n, resolve })),
  };
}

/** Polls a condition (no timing assertion: it only bounds how long a broken build hangs). */
async function waitFor(condition: () => Promise<boolean>, attempts = 200): Promise<void> {
  for (let i = 0; i < attempts; i++) {
    if (await condition()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('condition not met');
}
