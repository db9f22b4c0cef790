/**
 * Child process of dispatcher-throughput.ts (so the load generator and the receiver never share the dispatcher's event
 * loop, as in every other benchmark): the real webhook-dispatcher intake (`createApp`) and two delivery workers
 * (`createDeliveryWorkers`, woken by LISTEN/NOTIFY on PostgreSQL, polling on PGlite), and the hand-written baseline
 * worker (baselines/delivery.bare.ts, PostgreSQL only), over a throwaway database: a PostgreSQL schema
 * (BENCH_DB=postgres, dropped on exit) or a file-backed PGlite in a temporary directory as `npm start` has
 * (BENCH_DB=pglite). A control server on another port lets the parent prepare events, start and stop the workers, run
 * the baseline and reset the outbox between rounds. Prints one JSON line describing both URLs, then serves until
 * stdin closes.
 */
import { randomBytes } from 'node:crypto';
import pino from 'pino';
// The bench drives the real app through its public index.ts, as the launcher does (the lint rule also flags the launcher).
// eslint-disable-next-line @nx/enforce-module-boundaries
import { createApp, createDeliveryWorkers } from '@expedition/app-webhook-dispatcher';
import { listen } from '@expedition/http-kit';
import { createSecretBox } from '@expedition/operators';
import { createSimulatedProcessor } from '@expedition/payments';
import { systemClock } from '@expedition/platform';
import { createQuoteService } from '@expedition/quoting';
import { benchDatabaseKind, openBenchDatabase } from './bench-database';
import { createBareDelivery } from './baselines/delivery.bare';
import { profilerRoutes, serveControl } from './control-server';
import { loadBenchConfig } from './config';
import { processCpuSeconds } from './cpu';
import {
  keepNewestOutboxRows,
  paymentEvent,
  pool as inPool,
  quoteAwaitingPayment,
  resetOutbox,
} from './dispatcher-throughput.helpers';

export const WORKERS = 2;
export const BATCH = 10;
export const POOL = 10;
const LEASE_MS = 40_000;
export const PROCESSOR_SECRET = 'whsec_bench_processor';
const OPERATOR_SECRET = 'whsec_bench_operator';

export interface DispatcherTargets {
  db: string;
  kind: 'postgres' | 'pglite';
  intakeUrl: string;
  controlUrl: string;
  wakeups: 'listen/notify' | 'polling';
  /** Whether the hand-written baseline can run (it needs a PostgreSQL pool). */
  bare: boolean;
}

export interface PreparedEvent {
  quoteId: string;
  body: string;
}

async function main(): Promise<void> {
  const kind = benchDatabaseKind();
  const pollMs = Number(process.env['BENCH_POLL_MS'] ?? 20);
  // The apps' pool size (libs/db: 10), not the test suites' 4: the intake and the workers share it as in production.
  // When profiling, the statements the Prisma client sends are counted too (the count is part of the profile).
  const { profileDir } = loadBenchConfig();
  let statements = 0;
  const { db, pool, label, close } = await openBenchDatabase(kind, POOL, profileDir ? () => statements++ : undefined);
  const logger = pino({ level: 'silent' });

  // The intake trusts an event only for a payment of ours that the processor confirms (it asks Stripe in production).
  // The events are fabricated: the Payment rows are written as checkout would, and the processor's answer comes from
  // this ledger (no network, as a local Stripe call would not be free either: a lower bound of the real cost).
  const processor = createSimulatedProcessor({
    webhookUrl: 'http://127.0.0.1:9/unused',
    webhookSecret: PROCESSOR_SECRET,
  });
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
  const intake = await listen(
    createApp({ prisma: db.prisma, ready: () => db.ping(), logger, clock: systemClock, processor }),
    { port: 0, host: '127.0.0.1' },
  );
  // Stored sealed, as in production: every round pays for opening the operator's secret.
  const secretBox = createSecretBox([{ kid: 'bench', key: randomBytes(32) }]);
  const workers = createDeliveryWorkers(WORKERS, {
    prisma: db.prisma,
    logger,
    clock: systemClock,
    retryDelaysMs: [30_000, 300_000],
    timeoutMs: 10_000,
    leaseMs: LEASE_MS,
    batchSize: BATCH,
    pollIntervalMs: pollMs,
    secretBox,
    allowPrivateNetworks: true, // the bench receiver is on loopback
    notifications: db.notifications,
  });
  const bare = pool ? createBareDelivery(pool, { batch: BATCH, leaseMs: LEASE_MS, secret: OPERATOR_SECRET }) : null;
  const quotes = createQuoteService({ prisma: db.prisma, clock: systemClock });
  let operatorId = '';

  async function prepare(count: number, offset: number, receiverUrl: string): Promise<PreparedEvent[]> {
    if (!operatorId) {
      const operator = await db.prisma.operator.create({
        data: { name: 'Bench operator', status: 'active', commissionRateBps: 1_250, webhookUrl: receiverUrl },
      });
      operatorId = operator.id;
      await db.prisma.operator.update({
        where: { id: operatorId },
        data: { webhookSecret: secretBox.seal(OPERATOR_SECRET, operatorId) },
      });
    }
    const events: PreparedEvent[] = [];
    await inPool(
      Array.from({ length: count }, (_, i) => i + offset),
      4,
      async (i) => {
        const paid = await quoteAwaitingPayment(db.prisma, quotes, {
          operatorId,
          paymentId: (quoteId) => `pi_bench_${i}_${quoteId}`,
        });
        ledger.set(paid.paymentId, { amountCents: paid.premiumCents, quoteId: paid.quoteId });
        const event = paymentEvent(paid.quoteId, paid.planId, operatorId, paid.premiumCents, i);
        events.push({ quoteId: paid.quoteId, body: JSON.stringify(event) });
      },
    );
    return events;
  }

  const control = await serveControl({
    ...(profileDir ? profilerRoutes(profileDir) : {}),
    statements: async () => ({ count: statements }),
    cpu: async () => ({ seconds: processCpuSeconds() }),
    prepare: (i) => prepare(Number(i['count']), Number(i['offset']), String(i['receiverUrl'])),
    pending: async () => ({ count: await db.prisma.webhookEvent.count({ where: { status: 'pending' } }) }),
    reset: async () => resetOutbox(db.prisma),
    trim: async (i) => ({ count: await keepNewestOutboxRows(db.prisma, Number(i['keep'])) }),
    'workers/start': async () => workers.start(),
    'workers/stop': () => workers.stop(),
    'bare/drain': async () => {
      if (!bare) throw new Error('the hand-written baseline needs PostgreSQL');
      await bare.drain(WORKERS);
    },
  });
  const targets: DispatcherTargets = {
    db: label,
    kind,
    intakeUrl: intake.url,
    controlUrl: control.url,
    wakeups: db.notifications ? 'listen/notify' : 'polling',
    bare: bare !== null,
  };
  process.stdout.write(`${JSON.stringify(targets)}\n`);

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await workers.stop();
    bare?.close();
    control.close();
    await intake.close(1_000);
    await close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop());
  process.stdin.on('end', () => void stop());
  process.stdin.resume();
}

// Imported by the parent for its constants and types; started as a script by it.
if (require.main === module) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
