import { setTimeout as delay } from 'node:timers/promises';
import { noteSkippedSuite, servicesRequired } from '@expedition/platform/testing';
import { readyzStatus } from './src/processes';
import { waitFor } from './src/services';
import { deliveryFigures } from './src/deliveries';
import { reconcileRace } from './src/reconcile';
import { newSummary, record, resultsFile, writeSummary, type TopologySummary } from './src/summary';
import { PORTS, startTopology, type Topology } from './src/topology';
import {
  embedOptionsProbe,
  embedQuote,
  mppPayment,
  pool,
  tally,
  type Outcome,
  type PaymentResult,
} from './src/traffic';
const { prerequisites } = require('./src/prerequisites.cjs') as {
  prerequisites(): { pgBin: string; redisServer?: string; distDir: string; missing: string[] };
};

/**
 * The BUILT apps as separate processes (two replicas each of quote-api, embed-api, webhook-dispatcher) on a private
 * PostgreSQL and Redis, and the cross-process and chaos checks (README, Deployed topology on one machine). One topology
 * for the whole file; the checks run in order and each leaves it healthy for the next. Figures: see resultsFile.
 */
const pre = prerequisites();
const PAYMENTS = Number(process.env['TOPOLOGY_PAYMENTS'] ?? 500);
const CONCURRENT_GATE_REQUESTS = 500;

function suite(): jest.Describe {
  if (pre.missing.length === 0) return describe;
  const reason = `topology prerequisites missing: ${pre.missing.join('; ')}`;
  if (servicesRequired()) throw new Error(`REQUIRE_SERVICES=1 but ${reason}`);
  noteSkippedSuite(reason);
  return describe.skip;
}

let topo: Topology;
let summary: TopologySummary;

const statusOf = (o: Outcome) => o.status;
const is5xx = (o: Outcome) => typeof o.status === 'number' && o.status >= 500;

/** Waits until every policy.issued row is delivered (or failed) and returns the counts by status. */
async function drainOutbox(timeoutMs: number): Promise<Record<string, number>> {
  await waitFor(
    async () => (await topo.db.prisma.webhookEvent.count({ where: { status: 'pending' } })) === 0,
    timeoutMs,
    'the outbox to drain',
  );
  const rows = await topo.db.prisma.webhookEvent.groupBy({ by: ['status'], _count: { _all: true } });
  return Object.fromEntries(rows.map((r) => [r.status, r._count._all]));
}

/**
 * Waits until every replica's /readyz has answered `status` (each at least once since the call: on a loaded machine
 * one slow answer must not hide the others'); the error names the replicas that did not, with their logs.
 */
async function waitForReadyz(status: number, timeoutMs: number): Promise<void> {
  let last: (number | undefined)[] = [];
  const seen = topo.all().map(() => false);
  try {
    await waitFor(
      async () => {
        last = await Promise.all(topo.all().map((p, i) => (seen[i] ? status : readyzStatus(p.url))));
        last.forEach((s, i) => (seen[i] ||= s === status));
        return seen.every(Boolean);
      },
      timeoutMs,
      `/readyz ${status} on every replica`,
    );
  } catch (err) {
    const off = topo.all().filter((_, i) => !seen[i]);
    const detail = off.map(
      (p) => `${p.name}: readyz=${String(last[topo.all().indexOf(p)])} alive=${p.alive()}\n${p.output().slice(-3000)}`,
    );
    throw new Error(`${(err as Error).message}\n${detail.join('\n')}`);
  }
}

suite()('deployed topology on one machine (built apps, 2 replicas each, private PostgreSQL + Redis)', () => {
  beforeAll(async () => {
    topo = await startTopology({ distDir: pre.distDir, pgBin: pre.pgBin, redisServer: pre.redisServer! });
    summary = newSummary({
      replicas: Object.fromEntries(
        ['quote-api', 'embed-api', 'webhook-dispatcher'].map((app) => [
          app,
          topo.all().filter((p) => p.app === app).length,
        ]),
      ),
      ports: PORTS,
    });
  }, 240_000);

  afterAll(async () => {
    if (summary) console.log(writeSummary(summary, resultsFile()));
    await topo?.stop();
  }, 120_000);

  it('six replicas started together applied the migrations once and answer /readyz', async () => {
    const statuses = await Promise.all(topo.all().map((p) => readyzStatus(p.url)));
    expect(statuses).toEqual(topo.all().map(() => 200));
    const migrations = await topo.db.prisma.$queryRaw<{ name: string; n: bigint }[]>`
      SELECT migration_name AS name, count(*) AS n FROM _prisma_migrations GROUP BY migration_name`;
    expect(migrations.length).toBeGreaterThan(0);
    expect(migrations.filter((m) => Number(m.n) !== 1)).toEqual([]);
    record(summary, 'startup', { replicasReady: statuses.length, migrations: migrations.length });
  });

  it(`the 60/minute key limit admits exactly 60 of ${CONCURRENT_GATE_REQUESTS} concurrent quotes across both embed-api replicas`, async () => {
    const key = await topo.mintKey();
    const before = await topo.db.prisma.quote.count({ where: { source: 'embed' } });
    const outcomes = await Promise.all(
      Array.from({ length: CONCURRENT_GATE_REQUESTS }, (_, i) => embedQuote(topo.embedApi[i % 2]!.url, key)),
    );
    const counts = tally(outcomes);
    // The limiter's documented fallback (in-process counting when a Redis call fails or takes > 500 ms) logs a warning.
    const fallbackWarnings = topo.embedApi.map((p) => (p.output().match(/Redis unavailable/g) ?? []).length);
    record(
      summary,
      'rateLimit',
      { requests: outcomes.length, statuses: counts, redisFallbackWarningsByReplica: fallbackWarnings },
      { requests: outcomes.length },
    );
    expect(counts).toEqual({ '200': 60, '429': CONCURRENT_GATE_REQUESTS - 60 });
    // Both replicas admitted some: the budget is shared, not split or doubled.
    const admittedBy = [0, 1].map((r) => outcomes.filter((o, i) => i % 2 === r && o.status === 200).length);
    for (const o of outcomes.filter((x) => x.status === 429)) {
      expect(Number((o as { headers: Headers }).headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
    expect(await topo.db.prisma.quote.count({ where: { source: 'embed' } })).toBe(before + 60);
    record(summary, 'rateLimit', { admitted: counts['200'], refused429: counts['429'], admittedByReplica: admittedBy });
  });

  it('options jobs: every embed quote gets exactly one set of options across both embed-api workers', async () => {
    await waitFor(
      async () => (await topo.db.prisma.quote.count({ where: { source: 'embed', optionsStatus: 'pending' } })) === 0,
      60_000,
      'options of every embed quote',
    );
    const quotes = await topo.db.prisma.quote.findMany({
      where: { source: 'embed' },
      select: {
        id: true,
        optionsStatus: true,
        optionsAttempts: true,
        _count: { select: { options: true, estimates: true } },
      },
    });
    expect(quotes.length).toBeGreaterThanOrEqual(60);
    expect(quotes.filter((q) => q.optionsStatus !== 'ready')).toEqual([]);
    // One set: one option per plan priced (estimate), never none, never a second set. A quote may be claimed more
    // than once: a failed attempt is retried and a lapsed lease taken over (libs/quoting, options-worker.ts), and
    // whoever loses the race to produce writes nothing (unique (quote_id, plan_id), conditional pending → ready).
    const notOneSet = quotes.filter((q) => q._count.estimates === 0 || q._count.options !== q._count.estimates);
    expect(notOneSet.map((q) => ({ id: q.id, ...q._count }))).toEqual([]);
    // Retries are bounded (maxAttempts 5); why any happened is in the replicas' warnings, recorded with the figures.
    expect(quotes.filter((q) => q.optionsAttempts < 1 || q.optionsAttempts > 5)).toEqual([]);
    const retryWarnings = topo.embedApi.flatMap((p) => p.output().match(/.*options generation failed.*/g) ?? []);
    record(summary, 'optionsJobs', {
      quotes: quotes.length,
      ready: quotes.length,
      claims: quotes.reduce((n, q) => n + q.optionsAttempts, 0),
      quotesClaimedMoreThanOnce: quotes.filter((q) => q.optionsAttempts > 1).length,
      retryWarnings: retryWarnings.map((line) => line.slice(0, 300)),
      options: quotes.reduce((n, q) => n + q._count.options, 0),
    });
  });

  it(`kill -9 of one dispatcher replica during a burst of ${PAYMENTS} payments: every policy.issued delivered once per eventId, none lost`, async () => {
    topo.receiver.setDelayMs(20);
    const urls = topo.quoteApi.map((q) => q.url);
    let completed = 0;
    let killedAt: number | undefined;
    const victim = topo.dispatcher[0]!;
    const results: PaymentResult[] = await pool(PAYMENTS, 16, async (n) => {
      const result = await mppPayment(urls, topo.operatorId, n);
      completed++;
      if (killedAt === undefined && completed >= Math.floor(PAYMENTS / 3)) {
        killedAt = completed;
        void victim.kill9();
      }
      return result;
    });
    expect(victim.alive()).toBe(false);
    const failed = results.filter((r) => r.failedAt);
    expect(failed.map((r) => ({ at: r.failedAt, outcome: r.outcome }))).toEqual([]);

    const outbox = await drainOutbox(90_000);
    const purchases = await topo.db.prisma.purchase.count();
    const policies = await topo.db.prisma.policy.count();
    expect(purchases).toBe(PAYMENTS);
    expect(policies).toBe(PAYMENTS);
    expect(outbox).toEqual({ delivered: PAYMENTS });
    const figures = await deliveryFigures(topo);
    expect(figures.lost).toEqual([]);
    expect(figures.unknown).toEqual([]);
    expect(figures.distinctDelivered).toBe(PAYMENTS);
    expect(figures.policiesWithSeveralEventIds).toBe(0);
    expect(topo.receiver.badSignatures).toBe(0);
    // At least once: a duplicate is an event whose attempt was in flight in the killed replica (same eventId).
    const maxAttempts = await topo.db.prisma.webhookEvent.aggregate({ _max: { attempts: true } });
    expect(maxAttempts._max.attempts).toBeLessThanOrEqual(3);

    await victim.start();
    record(
      summary,
      'dispatcherKill9',
      {
        payments: PAYMENTS,
        killedAfterPayments: killedAt,
        purchases,
        policies,
        policyIssuedEvents: figures.events,
        deliveries: figures.deliveries,
        duplicates: figures.duplicates,
        lost: figures.lost.length,
        intakeRequestsFailedOver502: topo.intake.failedRequests,
      },
      {
        requests: PAYMENTS * 3,
        deliveries: figures.deliveries,
        duplicates: figures.duplicates,
        losses: figures.lost.length,
      },
    );
    topo.receiver.setDelayMs(0);
  });

  it('both dispatcher replicas reconcile the same unfinished attempts at once: each second charge refunded once', async () => {
    const race = await reconcileRace(topo, 10);
    expect(race.refunds).toEqual(race.charges.map(() => 1));
    expect(race.policies).toBe(race.charges.length);
    record(summary, 'reconcileTwoReplicas', { secondCharges: race.charges.length, refunds: race.refunds });
  });

  it('PostgreSQL restarted mid-traffic: /readyz 503 while down, every app recovers by itself, nothing half-written', async () => {
    const urls = topo.quoteApi.map((q) => q.url);
    const deliveriesBefore = topo.receiver.deliveries.length;
    const paymentsBefore = await topo.db.prisma.purchase.count();
    let stop = false;
    let n = 100_000;
    const traffic: PaymentResult[] = [];
    const loop = async () => {
      while (!stop) {
        const result = await mppPayment(urls, topo.operatorId, n++);
        traffic.push(result);
        // A client pauses after a refusal: without it, 4 loops send hundreds of requests a second at a down platform.
        if (result.failedAt) await delay(50);
      }
    };
    const loops = Array.from({ length: 4 }, loop);
    let readyzDown: (number | undefined)[] = [];
    let downMs = 0;
    try {
      await waitFor(() => traffic.filter((r) => !r.failedAt).length >= 10, 60_000, 'traffic before the outage');
      await topo.postgres.stop('fast');
      const downSince = Date.now();
      try {
        // While it is down every replica says so (and keeps serving /healthz).
        await waitForReadyz(503, 30_000);
        readyzDown = await Promise.all(topo.all().map((p) => readyzStatus(p.url)));
        const failedWhileDown = traffic.length;
        await waitFor(() => traffic.length >= failedWhileDown + 8, 30_000, 'requests during the outage');
      } finally {
        await topo.postgres.start();
        downMs = Date.now() - downSince;
      }
      await waitForReadyz(200, 60_000);
      const recoveredAfter = traffic.length;
      await waitFor(
        () => traffic.slice(recoveredAfter).filter((r) => !r.failedAt).length >= 10,
        60_000,
        'payments after recovery',
      );
    } finally {
      stop = true;
      await Promise.all(loops);
    }

    // Every replica serves again (each quote-api and embed-api answers a real request).
    const key = await topo.mintKey();
    for (const e of topo.embedApi) expect(statusOf(await embedQuote(e.url, key))).toBe(200);
    for (const q of topo.quoteApi) expect((await mppPayment([q.url], topo.operatorId, n++)).failedAt).toBeUndefined();

    // Nothing half-written: every quote has its estimates, every purchase its policy, commission and policy.issued.
    await drainOutbox(60_000);
    await waitFor(
      async () => (await topo.db.prisma.quote.count({ where: { source: 'embed', optionsStatus: 'pending' } })) === 0,
      60_000,
      'options after recovery',
    );
    const apiQuotesWithoutEstimates = await topo.db.prisma.quote.count({
      where: { source: 'api', estimates: { none: {} } },
    });
    const purchasesWithoutPolicy = await topo.db.prisma.purchase.count({ where: { policy: null } });
    const policiesWithoutCommission = await topo.db.prisma.policy.count({ where: { commission: null } });
    const policies = await topo.db.prisma.policy.findMany({ select: { id: true } });
    const events = await topo.db.prisma.webhookEvent.findMany({
      where: { type: 'policy.issued' },
      select: { payload: true },
    });
    const policiesWithEvent = new Set(events.map((e) => (e.payload as { policyId?: string }).policyId));
    expect(apiQuotesWithoutEstimates).toBe(0);
    expect(purchasesWithoutPolicy).toBe(0);
    expect(policiesWithoutCommission).toBe(0);
    expect(policies.filter((p) => !policiesWithEvent.has(p.id))).toEqual([]);
    const figures = await deliveryFigures(topo);
    expect(figures.lost).toEqual([]);
    expect(figures.policiesWithSeveralEventIds).toBe(0);

    const succeeded = traffic.filter((r) => !r.failedAt).length;
    const failedDuring = traffic.filter((r) => r.failedAt);
    // A request that failed during the outage is an HTTP answer (5xx/503), never a hang or a dropped connection.
    expect(failedDuring.filter((r) => r.outcome?.status === 'error')).toEqual([]);
    record(
      summary,
      'postgresRestart',
      {
        readyzWhileDown: readyzDown,
        downMs,
        paymentsAttempted: traffic.length,
        paymentsSucceeded: succeeded,
        paymentsRefusedDuringOutage: failedDuring.length,
        refusalStatuses: tally(failedDuring.map((r) => r.outcome!)),
        newPurchases: (await topo.db.prisma.purchase.count()) - paymentsBefore,
        apiQuotesWithoutEstimates,
        purchasesWithoutPolicy,
        policiesWithoutCommission,
        newDeliveries: topo.receiver.deliveries.length - deliveriesBefore,
        lost: figures.lost.length,
      },
      {
        requests: traffic.length * 3,
        deliveries: topo.receiver.deliveries.length - deliveriesBefore,
        losses: figures.lost.length,
      },
    );
  });

  it('Redis down: the key limit falls back to per-replica memory (no 5xx, /readyz stays 200), and is shared again once Redis returns', async () => {
    await topo.redis.stop();
    const readyz = await Promise.all(topo.all().map((p) => readyzStatus(p.url)));
    expect(readyz).toEqual(topo.all().map(() => 200));
    const key = await topo.mintKey();
    const down = await Promise.all(
      Array.from({ length: 300 }, (_, i) => embedOptionsProbe(topo.embedApi[i % 2]!.url, key)),
    );
    expect(down.filter(is5xx)).toEqual([]);
    expect(down.filter((o) => o.status === 'error')).toEqual([]);
    const admittedDown = down.filter((o) => o.status !== 429).length;
    // Documented fallback (libs/platform rate-limiter.ts): each replica counts alone, so 60 to 2 × 60.
    expect(admittedDown).toBeGreaterThanOrEqual(60);
    expect(admittedDown).toBeLessThanOrEqual(120);

    await topo.redis.start();
    // The apps reconnect by themselves; a fresh key then gets exactly 60 across both replicas again.
    let tries = 0;
    let admittedAfter = 0;
    let after: Outcome[] = [];
    await waitFor(
      async () => {
        tries++;
        const fresh = await topo.mintKey();
        after = await Promise.all(
          Array.from({ length: 200 }, (_, i) => embedOptionsProbe(topo.embedApi[i % 2]!.url, fresh)),
        );
        admittedAfter = after.filter((o) => o.status !== 429).length;
        return admittedAfter === 60;
      },
      30_000,
      'exactly 60 admitted across replicas after Redis returned',
    );
    expect(after.filter(is5xx)).toEqual([]);
    record(
      summary,
      'redisOutage',
      {
        readyzWhileDown: readyz,
        requestsWhileDown: down.length,
        admittedWhileDown: admittedDown,
        statusesWhileDown: tally(down),
        requestsAfter: after.length,
        admittedAfter,
        triesUntilShared: tries,
      },
      { requests: down.length + tries * 200 },
    );
  });
});
