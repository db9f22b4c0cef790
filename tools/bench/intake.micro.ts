/**
 * Micro-benchmark of the intake's fulfillment (in process: no HTTP, no signature, no processor call), for profiling
 * and for an A/B on a noisy machine: `recordProcessorEvent` on signed-and-parsed `payment_intent.succeeded` events for
 * payments stored as checkout stores them, each becoming payment, purchase, policy, commission and outbox row.
 * Concurrency 8, alternating rounds, medians.
 *
 *   TSX_TSCONFIG_PATH=tools/tsconfig.json node [--cpu-prof] --import tsx tools/bench/intake.micro.ts
 *   BENCH_EVENTS per round (default 300), BENCH_ROUNDS (default 5), TEST_DATABASE_URL (else PGlite);
 *   BENCH_DB=pglite: a file-backed PGlite (as `npm start` has) even where PostgreSQL is reachable.
 *   BENCH_AB=<path of a module exporting createFulfillment>: alternates rounds of that implementation with ours.
 *   BENCH_PROFILE_DIR: a CPU profile of each implementation's last round (not of preparing its events).
 */
import pino from 'pino';
import { openBenchDatabase } from './bench-database';
import { loadBenchConfig } from './config';
import { profilerRoutes } from './control-server';
import { postgresCpuSeconds } from './cpu';
import { quoteAwaitingPayment } from './dispatcher-throughput.helpers';
import { syncCatalog, type PrismaClient } from '@expedition/db';
import { createTestDatabase } from '@expedition/db/testing';
import { catalogSnapshot } from '@expedition/domain-pricing';
import { createFulfillment } from '@expedition/fulfillment';
import { normalizeStripeEvent, type ProcessorEvent } from '@expedition/payments';
import { systemClock } from '@expedition/platform';
import { createQuoteService } from '@expedition/quoting';

type CreateFulfillment = typeof createFulfillment;
const logger = pino({ level: 'silent' });

async function prepareEvents(
  prisma: PrismaClient,
  operatorId: string,
  count: number,
  tag: string,
): Promise<ProcessorEvent[]> {
  const quotes = createQuoteService({ prisma, clock: systemClock });
  const events: ProcessorEvent[] = [];
  for (let i = 0; i < count; i++) {
    const paid = await quoteAwaitingPayment(prisma, quotes, {
      operatorId,
      paymentId: (quoteId) => `pi_micro_${tag}_${i}_${quoteId.slice(0, 8)}`,
    });
    const { paymentId } = paid;
    const quote = { id: paid.quoteId };
    const estimate = { planId: paid.planId, premiumCents: paid.premiumCents };
    const created = Math.floor(Date.now() / 1000);
    const event = normalizeStripeEvent({
      id: `evt_micro_${tag}_${i}_${quote.id.slice(0, 8)}`,
      object: 'event',
      type: 'payment_intent.succeeded',
      livemode: false,
      created,
      data: {
        object: {
          id: paymentId,
          object: 'payment_intent',
          amount: estimate.premiumCents,
          currency: 'usd',
          status: 'succeeded',
          livemode: false,
          metadata: { quoteId: quote.id, planId: estimate.planId, operatorId, channel: 'embed' },
          last_payment_error: null,
          created,
        },
      },
    });
    if (!event) throw new Error('event did not normalize');
    events.push(event);
  }
  return events;
}

interface Round {
  rate: number;
  /** CPU per event, in microseconds: this process, and the PostgreSQL server (null when not readable). */
  nodeUs: number;
  postgresUs: number | null;
}

async function rate(
  events: readonly ProcessorEvent[],
  record: (e: ProcessorEvent) => Promise<{ kind: string }>,
): Promise<Round> {
  const t = performance.now();
  const cpu = process.cpuUsage();
  const pg = postgresCpuSeconds();
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < events.length) {
        const outcome = await record(events[next++]!);
        if (outcome.kind !== 'policy_issued') throw new Error(`expected a policy, got ${outcome.kind}`);
      }
    }),
  );
  const seconds = (performance.now() - t) / 1000;
  const used = process.cpuUsage(cpu);
  const pgAfter = postgresCpuSeconds();
  return {
    rate: events.length / seconds,
    nodeUs: (used.user + used.system) / events.length,
    postgresUs: pg === null || pgAfter === null ? null : ((pgAfter - pg) * 1e6) / events.length,
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  const n = Number(process.env['BENCH_EVENTS'] ?? 300);
  const rounds = Number(process.env['BENCH_ROUNDS'] ?? 5);
  const abPath = process.env['BENCH_AB'];
  const variants: [string, CreateFulfillment][] = [['ours', createFulfillment]];
  if (abPath)
    variants.push([abPath, ((await import(abPath)) as { createFulfillment: CreateFulfillment }).createFulfillment]);
  // The apps' pool size (libs/db: 10), not the test suites' 4: the intake and the workers share it as in production.
  const embedded = process.env['BENCH_DB'] === 'pglite' ? await openBenchDatabase('pglite', 10) : null;
  const db = embedded?.db ?? (await createTestDatabase({ poolMax: 10 }));
  try {
    await syncCatalog(db.prisma, catalogSnapshot());
    const operator = await db.prisma.operator.create({
      data: {
        name: 'Micro operator',
        status: 'active',
        commissionRateBps: 1_250,
        webhookUrl: 'http://127.0.0.1:9/hooks',
      },
    });
    const refunds = { refund: async () => 'not_pending' as const, sweep: async () => 0 };
    const services = variants.map(([name, create]) => ({
      name,
      fulfillment: create({
        prisma: db.prisma,
        clock: systemClock,
        logger,
        processorName: 'simulated',
        refunds: refunds as never,
      }),
      rounds: [] as Round[],
    }));
    process.stdout.write(`intake micro-benchmark on ${db.kind}: ${rounds} rounds × ${n} events, concurrency 8\n`);
    const { profileDir } = loadBenchConfig();
    const profiler = profileDir ? profilerRoutes(profileDir) : undefined;
    // One warm-up round each, then alternating measured rounds.
    for (let round = 0; round <= rounds; round++) {
      for (const s of services) {
        const events = await prepareEvents(db.prisma, operator.id, round === 0 ? 50 : n, `${round}${s.name.length}`);
        const profiled = profiler && round === rounds;
        if (profiled) await profiler['profile/start']!({});
        const r = await rate(events, (e) => s.fulfillment.recordProcessorEvent(e));
        if (profiled) {
          const name = `intake-micro-${s.name.replace(/\W+/g, '_')}`;
          const { file } = (await profiler['profile/stop']!({ name })) as { file: string };
          process.stdout.write(`profile: ${file}\n`);
        }
        if (round > 0) s.rounds.push(r);
      }
    }
    const rates = (s: (typeof services)[number]) => s.rounds.map((r) => r.rate);
    for (const s of services) {
      const pgUs = s.rounds.flatMap((r) => (r.postgresUs === null ? [] : [r.postgresUs]));
      process.stdout.write(
        `  ${s.name}: median ${median(rates(s)).toFixed(0)} events/s (${rates(s)
          .map((r) => r.toFixed(0))
          .join(', ')}); CPU per event: this process ${median(s.rounds.map((r) => r.nodeUs)).toFixed(0)} µs, ` +
          `PostgreSQL ${pgUs.length ? `${median(pgUs).toFixed(0)} µs` : 'not readable'}\n`,
      );
    }
    if (services.length === 2)
      process.stdout.write(
        `  ratio ours / ${services[1]!.name}: ${(median(rates(services[0]!)) / median(rates(services[1]!))).toFixed(2)}\n`,
      );
  } finally {
    await (embedded ? embedded.close() : db.close());
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
