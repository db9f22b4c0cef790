/**
 * Webhook-dispatcher benchmark (loopback only, bounded):
 *   npx tsx --tsconfig tools/tsconfig.json tools/bench/dispatcher-throughput.ts
 * Env: BENCH_EVENTS (default 2000, max 10000), BENCH_LIVE_EVENTS (default 500), BENCH_POLL_MS (default 20).
 * On PostgreSQL the workers are woken by LISTEN/NOTIFY, as in production; on PGlite they poll every BENCH_POLL_MS.
 *
 * 1. Intake: N signed Stripe-format payment events through the real HTTP intake (purchase, policy, commission and
 *    the policy.issued outbox row per event), workers stopped.
 * 2. Drain: two delivery workers deliver the N outbox rows to a loopback receiver → deliveries per second.
 *    Baseline in the same run: the same N bodies POSTed bare (no database, no signing) to the same receiver with the
 *    same concurrency (workers × batch size) → posts per second; the ratio is what the outbox machinery costs.
 *    Alternating rounds (BENCH_ROUNDS, after a warm-up round of each; the outbox is reset between rounds), medians.
 * 3. Live: M more events through the intake while the workers run → latency from the processor event POST to the
 *    arrival at the receiver, p50/p99.
 * Uses a throwaway database (a temporary PostgreSQL schema when reachable, else in-memory PGlite).
 */
import pino from 'pino';
// The bench drives the real app through its public index.ts, as the launcher does (the lint rule also flags the launcher).
// eslint-disable-next-line @nx/enforce-module-boundaries
import { createApp, createDeliveryWorkers } from '@expedition/app-webhook-dispatcher';
import { syncCatalog } from '@expedition/db';
import { createTestDatabase } from '@expedition/db/testing';
import { listen } from '@expedition/http-kit';
import { createSimulatedProcessor } from '@expedition/payments';
import { systemClock } from '@expedition/platform';
import { catalogSnapshot } from '@expedition/domain-pricing';
import { createQuoteService } from '@expedition/quoting';
import { signPayload } from '@expedition/webhook-signature';
import { createSecretBox } from '@expedition/operators';
import { randomBytes } from 'node:crypto';

import { loadBenchConfig, type BenchConfig } from './config';
import {
  clientAgent,
  median,
  paymentEvent,
  percentile,
  pool,
  post,
  resetOutbox,
  startReceiver,
} from './dispatcher-throughput.helpers';
import { infoRow, maxRow, minRow, ratioRow, type BenchRow } from './table';

const WORKERS = 2;
const BATCH = 10;
const INTAKE_CONCURRENCY = 8;
const PROCESSOR_SECRET = 'whsec_bench_processor';
const logger = pino({ level: 'silent' });

export interface DispatcherFigures {
  db: string;
  events: number;
  /** Events the intake answered 200 but did not fulfil (no outbox row), e.g. refused under load. */
  unfulfilled: number;
  intakePerSec: number;
  /** Medians of `drainRounds` alternating rounds (after a warm-up round of each). */
  deliveriesPerSec: number;
  barePostsPerSec: number;
  /** The same bare POSTs sent with fetch (the baseline's first definition, when the dispatcher itself used fetch). */
  bareFetchPostsPerSec: number;
  drainRounds: number;
  liveEvents: number;
  latencyP50: number;
  latencyP99: number;
  latencyMax: number;
  /** The intake's answer (its transaction, with the outbox row, committed) → arrival: what LISTEN/NOTIFY shortens. */
  afterAnswerP50: number;
  afterAnswerP99: number;
  /** Whether the delivery workers listened for NOTIFY (PostgreSQL) or only polled (PGlite). */
  wakeups: 'listen/notify' | 'polling';
}

export async function measureDispatcher(config: Readonly<BenchConfig> = loadBenchConfig()): Promise<DispatcherFigures> {
  const { events: N, liveEvents: LIVE, pollMs: POLL_MS } = config.dispatcher;
  // Quick runs (one round) measure the drain once, without a warm-up round.
  const ROUNDS = config.quick ? 0 : config.http.rounds;
  // The apps' pool size (libs/db: 10), not the test suites' 4: the intake and the workers share it as in production.
  const db = await createTestDatabase({ poolMax: 10 });
  const receiver = await startReceiver();
  const processor = createSimulatedProcessor({
    webhookUrl: 'http://127.0.0.1:9/unused',
    webhookSecret: PROCESSOR_SECRET,
  });
  // The intake trusts an event only for a payment of ours that the processor confirms (it asks Stripe in production).
  // The events here are fabricated: the Payment rows are written as checkout would, and the processor's answer comes
  // from this ledger (no network, as a local Stripe call would not be free either: a lower bound of the real cost).
  const ledger = new Map<string, { amountCents: number; quoteId: string }>();
  processor.retrievePayment = async ({ paymentId }) => {
    const known = ledger.get(paymentId);
    if (!known) throw new Error(`unknown payment ${paymentId}`);
    return {
      paymentId,
      status: 'succeeded',
      amountCents: known.amountCents,
      currency: 'usd',
      metadata: { quoteId: known.quoteId },
      amountRefundedCents: 0,
    };
  };
  const server = await listen(
    createApp({ prisma: db.prisma, ready: () => db.ping(), logger, clock: systemClock, processor }),
    { port: 0, host: '127.0.0.1' },
  );
  // Stored sealed, as in production: every delivery pays for opening the operator's secret.
  const secretBox = createSecretBox([{ kid: 'bench', key: randomBytes(32) }]);
  const workers = createDeliveryWorkers(WORKERS, {
    prisma: db.prisma,
    logger,
    clock: systemClock,
    retryDelaysMs: [30_000, 300_000],
    timeoutMs: 10_000,
    leaseMs: 40_000,
    batchSize: BATCH,
    pollIntervalMs: POLL_MS,
    secretBox,
    allowPrivateNetworks: true, // the bench receiver is on loopback
    // As composeWebhookDispatcher wires them: woken by LISTEN/NOTIFY on PostgreSQL, polling on PGlite.
    notifications: db.notifications,
  });

  try {
    await syncCatalog(db.prisma, catalogSnapshot());
    const operator = await db.prisma.operator.create({
      data: { name: 'Bench operator', status: 'active', commissionRateBps: 1_250, webhookUrl: receiver.url },
    });
    await db.prisma.operator.update({
      where: { id: operator.id },
      data: { webhookSecret: secretBox.seal('whsec_bench_operator', operator.id) },
    });
    const quotes = createQuoteService({ prisma: db.prisma, clock: systemClock });
    const start = new Date(Date.now() + 60 * 86_400_000).toISOString().slice(0, 10);
    const makeEvents = async (count: number, offset: number) => {
      const events: { quoteId: string; body: string }[] = [];
      await pool(
        Array.from({ length: count }, (_, i) => i + offset),
        4,
        async (i) => {
          const { quote, estimates } = await quotes.create({
            source: 'embed',
            operatorId: operator.id,
            destination: 'Antarctica',
            startDate: start,
            durationDays: 14,
            tripCostCents: 2_400_000,
            travelers: 2,
            travelerAges: [45, 52],
            residence: 'GB',
          });
          const estimate = estimates[0]!;
          const paymentId = `pi_bench_${i}_${quote.id}`;
          ledger.set(paymentId, { amountCents: estimate.premiumCents, quoteId: quote.id });
          await db.prisma.payment.create({
            data: {
              quoteId: quote.id,
              planId: estimate.planId,
              operatorId: operator.id,
              mode: 'test',
              channel: 'embed',
              processor: 'simulated',
              processorPaymentId: paymentId,
              amountCents: estimate.premiumCents,
              currency: 'USD',
              status: 'pending',
            },
          });
          events.push({
            quoteId: quote.id,
            body: JSON.stringify(paymentEvent(quote.id, estimate.planId, operator.id, estimate.premiumCents, i)),
          });
        },
      );
      return events;
    };
    const postToIntake = async (body: string) => {
      const status = await post(`${server.url}/processor/events`, body, {
        'Stripe-Signature': signPayload(body, PROCESSOR_SECRET, Math.floor(Date.now() / 1000)),
      });
      if (status !== 200) throw new Error(`intake answered ${status}`);
    };

    process.stdout.write(`preparing ${N + LIVE} quotes on ${db.kind}…\n`);
    const drainEvents = await makeEvents(N, 0);
    const liveEvents = await makeEvents(LIVE, N);

    // 1. Intake, workers stopped.
    let t = performance.now();
    await pool(drainEvents, INTAKE_CONCURRENCY, (e) => postToIntake(e.body));
    const intakeSec = (performance.now() - t) / 1000;
    // The intake answers 200 for every recorded outcome, refused ones included: count what it fulfilled.
    const outboxRows = await db.prisma.webhookEvent.count({ where: { status: 'pending' } });
    if (outboxRows === 0) throw new Error(`no outbox rows after ${N} events: the intake fulfilled none`);

    // 2. Drain with two workers, alternating with the baseline (the same bodies POSTed bare, same receiver, same
    // concurrency). Round 0 drains the intake's rows and is the warm-up of both; before each later round the rows are
    // put back as the intake left them. Each figure is the median round.
    const bodies = (await db.prisma.webhookEvent.findMany({ select: { payload: true } })).map((r) =>
      JSON.stringify(r.payload),
    );
    const drainRates: number[] = [];
    const bareRates: number[] = [];
    const bareFetchRates: number[] = [];
    for (let round = 0; round <= ROUNDS; round++) {
      if (round > 0) await resetOutbox(db.prisma);
      receiver.reset();
      t = performance.now();
      workers.start();
      await receiver.waitFor(outboxRows);
      const drainSec = (performance.now() - t) / 1000;
      await workers.stop();

      receiver.reset();
      t = performance.now();
      await pool(bodies, WORKERS * BATCH, async (body) => {
        await post(receiver.url, body);
      });
      const baselineSec = (performance.now() - t) / 1000;

      // The baseline as the issue first measured it: fetch (several times node:http's CPU per request).
      receiver.reset();
      t = performance.now();
      await pool(bodies, WORKERS * BATCH, async (body) => {
        const res = await fetch(receiver.url, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body,
        });
        await res.arrayBuffer();
      });
      const fetchSec = (performance.now() - t) / 1000;
      if (round === 0 && ROUNDS > 0) continue;
      drainRates.push(outboxRows / drainSec);
      bareRates.push(bodies.length / baselineSec);
      bareFetchRates.push(bodies.length / fetchSec);
    }

    // 3. Live latency: processor event POST → arrival at the receiver, workers running.
    receiver.reset();
    const sentAt = new Map<string, number>();
    const answeredAt = new Map<string, number>();
    workers.start();
    await pool(liveEvents, INTAKE_CONCURRENCY, async (e) => {
      sentAt.set(e.quoteId, performance.now());
      await postToIntake(e.body);
      answeredAt.set(e.quoteId, performance.now());
    });
    // Events the intake did not fulfil never arrive: wait for all, or at most 30 s, and measure what arrived.
    const settled = new Promise<void>((resolve) => setTimeout(resolve, 30_000).unref());
    await Promise.race([receiver.waitFor(LIVE), settled]);
    await workers.stop();
    const latencies = liveEvents
      .filter((e) => receiver.arrivals.has(e.quoteId))
      .map((e) => receiver.arrivals.get(e.quoteId)! - sentAt.get(e.quoteId)!)
      .sort((a, b) => a - b);
    // The delivery side alone: the intake's answer (sent after its transaction committed the outbox row) → arrival.
    // Negative when the delivery arrives before the intake's answer has reached its caller.
    const afterAnswer = liveEvents
      .filter((e) => receiver.arrivals.has(e.quoteId) && answeredAt.has(e.quoteId))
      .map((e) => receiver.arrivals.get(e.quoteId)! - answeredAt.get(e.quoteId)!)
      .sort((a, b) => a - b);

    return {
      db: db.kind,
      events: N,
      intakePerSec: N / intakeSec,
      deliveriesPerSec: median(drainRates),
      unfulfilled: N - outboxRows,
      barePostsPerSec: median(bareRates),
      bareFetchPostsPerSec: median(bareFetchRates),
      drainRounds: drainRates.length,
      liveEvents: latencies.length,
      latencyP50: percentile(latencies, 50),
      latencyP99: percentile(latencies, 99),
      latencyMax: latencies[latencies.length - 1] ?? NaN,
      afterAnswerP50: percentile(afterAnswer, 50),
      afterAnswerP99: percentile(afterAnswer, 99),
      wakeups: db.notifications ? 'listen/notify' : 'polling',
    };
  } finally {
    clientAgent.destroy();
    await workers.stop();
    await server.close(1_000);
    await receiver.close();
    await db.close();
  }
}

/** The table rows: delivery ÷ bare POSTs (goal ≥ 0.8), event → delivered p50/p99 (p99 goal < 50 ms), intake ≥ 500/s. */
export async function benchDispatcher(config: Readonly<BenchConfig> = loadBenchConfig()): Promise<BenchRow[]> {
  const f = await measureDispatcher(config);
  const how = `${f.db}, ${WORKERS} workers × batch ${BATCH}, ${f.wakeups}`;
  return [
    ratioRow(
      {
        id: 'dispatcher_delivery',
        figure: 'dispatcher delivery (claim, sign, POST, record)',
        unit: 'deliveries/s',
        ours: f.deliveriesPerSec,
        baseline: f.barePostsPerSec,
        baselineLabel: 'bare node:http keep-alive POSTs of the same bodies',
        note: `${f.events} events, median of ${f.drainRounds} rounds${f.unfulfilled ? ` (${f.unfulfilled} not fulfilled by the intake)` : ''}; ${how}`,
      },
      0.8,
    ),
    infoRow({
      id: 'dispatcher_delivery_vs_fetch',
      figure: 'same, against bare fetch POSTs (the baseline as the issue measured it)',
      unit: 'deliveries/s',
      ours: f.deliveriesPerSec,
      baseline: f.bareFetchPostsPerSec,
      baselineLabel: 'bare fetch POSTs of the same bodies',
      note: 'fetch spends several times the CPU of node:http per request; the dispatcher now sends with node:http keep-alive',
    }),
    infoRow({
      id: 'event_to_delivered_p50',
      figure: 'processor event → policy.issued delivered, p50',
      unit: 'ms',
      ours: f.latencyP50,
      baseline: null,
      baselineLabel: '',
    }),
    maxRow(
      {
        id: 'event_to_delivered_p99',
        figure: 'processor event → policy.issued delivered, p99',
        unit: 'ms',
        ours: f.latencyP99,
        baseline: null,
        baselineLabel: '',
        note: `${f.liveEvents} live events, max ${f.latencyMax.toFixed(1)} ms; ${how}`,
      },
      50,
      'p99 < 50 ms',
    ),
    infoRow({
      id: 'answer_to_delivered_p99',
      figure: 'intake answered (outbox committed) → delivered, p99: the delivery side',
      unit: 'ms',
      ours: f.afterAnswerP99,
      baseline: null,
      baselineLabel: '',
      note: `p50 ${f.afterAnswerP50.toFixed(1)} ms (negative: delivered before the intake's answer reached its caller); ${f.wakeups}`,
    }),
    minRow(
      {
        id: 'intake_events_per_sec',
        figure: 'intake (event → payment, purchase, policy, commission, outbox)',
        unit: 'events/s',
        ours: f.intakePerSec,
        baseline: null,
        baselineLabel: '',
        note: `concurrency ${INTAKE_CONCURRENCY}`,
      },
      500,
      '≥ 500 events/s',
    ),
  ];
}

if (require.main === module) {
  measureDispatcher()
    .then((f) => {
      process.stdout.write(
        [
          '',
          `webhook-dispatcher benchmark — ${f.db}, loopback receiver, ${WORKERS} workers × batch ${BATCH}, ${f.wakeups}`,
          `  intake (signed event → payment, purchase, policy, commission, outbox): ${f.intakePerSec.toFixed(0)} events/s (concurrency ${INTAKE_CONCURRENCY})`,
          `  delivery drain (claim SKIP LOCKED, sign, POST, record):                ${f.deliveriesPerSec.toFixed(0)} deliveries/s`,
          `  baseline: bare HTTP POST of the same bodies (concurrency ${WORKERS * BATCH}):         ${f.barePostsPerSec.toFixed(0)} posts/s`,
          `  ratio dispatcher / baseline: ${(f.deliveriesPerSec / f.barePostsPerSec).toFixed(3)} (medians of ${f.drainRounds} alternating rounds)`,
          `  bare fetch POSTs: ${f.bareFetchPostsPerSec.toFixed(0)} posts/s; ratio dispatcher / fetch: ${(f.deliveriesPerSec / f.bareFetchPostsPerSec).toFixed(3)}`,
          `  delivery side (intake answered → arrival): p50 ${f.afterAnswerP50.toFixed(1)} ms, p99 ${f.afterAnswerP99.toFixed(1)} ms`,
          `  live event → delivery latency (${f.liveEvents} events): p50 ${f.latencyP50.toFixed(1)} ms, p99 ${f.latencyP99.toFixed(1)} ms, max ${f.latencyMax.toFixed(1)} ms`,
          '',
        ].join('\n'),
      );
    })
    .catch((err) => {
      console.error(err);
      process.exit(1);
    });
}
