/**
 * Webhook-dispatcher benchmark (loopback only, bounded):
 *   npm run bench -- dispatcher      (or: npm run bench:dispatcher for the figures alone)
 * Env: BENCH_EVENTS (default 2000, max 10000), BENCH_LIVE_EVENTS (default 500), BENCH_POLL_MS (default 20).
 *
 * The intake and the workers run in a child process (dispatcher.server.ts); the load generator and the receiver here.
 * On PostgreSQL the workers are woken by LISTEN/NOTIFY, as in production; on PGlite they poll every BENCH_POLL_MS.
 *
 * 1. Intake: N signed Stripe-format payment events through the real HTTP intake (payment, purchase, policy,
 *    commission and the policy.issued outbox row per event), workers stopped, concurrency 8 → events per second.
 * 2. Drain: two delivery workers deliver the N outbox rows to the receiver → deliveries per second. Baseline in the
 *    same run: a hand-written `pg` + `node:http` worker doing the same claim, sign, POST and record per batch
 *    (baselines/delivery.bare.ts), same workers × batch, same pool size. Alternating rounds (BENCH_ROUNDS, after a
 *    warm-up round of each; the outbox is reset between rounds): the round whose ratio is the median.
 * 3. Bursts: 3 × M more events through the intake at concurrency 8 while the workers run → processor event POST →
 *    arrival at the receiver, p50/p99 of all 3 × M; and the intake's answer → arrival (the delivery side alone).
 * 4. Steady: M more events at a fixed 100 events/s (one every 10 ms, not waiting for each other) → the same latency.
 * On PGlite (`measureDispatcher(config, 'pglite')`, the embedded mode): the intake only, for what `npm start` carries.
 */
import { loadBenchConfig, type BenchConfig } from './config';
import { startServerChild } from './child';
import { control } from './control-server';
import { postgresCpuSeconds, processCpuSeconds } from './cpu';
import { percentile, pool, rawPoster, startReceiver } from './dispatcher-throughput.helpers';
import { median, type RoundPair } from './load';
import { PROCESSOR_SECRET, type DispatcherTargets, type PreparedEvent } from './dispatcher.server';
import { signPayload } from '@expedition/webhook-signature';

const INTAKE_CONCURRENCY = 8;
/** Measured intake rounds of BENCH_EVENTS each, after a warm-up round of as many (one round, no warm-up, when quick). */
const INTAKE_ROUNDS = 3;
export const STEADY_RATE = 100;
/**
 * Bursts of BENCH_LIVE_EVENTS each (one when quick); the burst figures are percentiles of all their events together.
 * One burst's p99 is its 5th-slowest event, and read 33-102 ms across runs on this machine (tools/bench/README.md).
 */
const BURSTS = 3;

export interface LatencyFigures {
  events: number;
  p50: number;
  p99: number;
  max: number;
  /** The intake's answer (its transaction, with the outbox row, committed) → arrival: the delivery side alone. */
  afterAnswerP50: number;
  afterAnswerP99: number;
  /** Each burst's own p99, in order (one entry for the steady run). */
  p99s: number[];
}

export interface DispatcherFigures {
  db: string;
  kind: 'postgres' | 'pglite';
  events: number;
  /** Events the intake answered 200 but did not fulfil (no outbox row), e.g. refused under load. */
  unfulfilled: number;
  /** Outbox rows each drain round delivers (the measured intake rounds'). */
  drained: number;
  /** The median of the measured rounds. */
  intakePerSec: number;
  intakeRounds: number[];
  /**
   * CPU per intake event, in microseconds: the intake's process, this process (the load: signing and sending), and
   * the PostgreSQL server (null where /proc is not readable).
   */
  intakeCpuUs: { intake: number; load: number; postgres: number | null };
  /**
   * Each measured round's deliveries/s, ours beside the hand-written worker's, in order (after a warm-up round of
   * each); empty when not measured.
   */
  drainPairs: RoundPair[];
  burst: LatencyFigures | null;
  steady: LatencyFigures | null;
  /** Whether the delivery workers listened for NOTIFY (PostgreSQL) or only polled (PGlite). */
  wakeups: 'listen/notify' | 'polling';
}

/**
 * The figures on PostgreSQL (every phase) or on PGlite (the intake only): the dispatcher's child on a throwaway
 * database, this process as the processor sending events and the operator's receiver.
 */
export async function measureDispatcher(
  config: Readonly<BenchConfig> = loadBenchConfig(),
  kind: 'postgres' | 'pglite' = 'postgres',
): Promise<DispatcherFigures> {
  const { events: N, liveEvents: LIVE } = config.dispatcher;
  const full = kind === 'postgres';
  // Quick runs (one round) measure the drain once, without a warm-up round.
  const ROUNDS = config.quick ? 0 : config.http.rounds;
  const child = await startServerChild<DispatcherTargets>('dispatcher.server.ts', {
    ...config.childEnv,
    BENCH_DB: kind,
    BENCH_POLL_MS: String(config.dispatcher.pollMs),
  });
  const receiver = await startReceiver();
  const { intakeUrl, controlUrl } = child.targets;
  // Every event is signed and built into its bytes before its phase's clock starts (the signature's timestamp stays
  // well within the processor's tolerance), and sent by a load generator that costs little (rawPoster): the figures
  // are the dispatcher's, not the client's.
  const intake = rawPoster(`${intakeUrl}/processor/events`);
  const sign = (events: readonly PreparedEvent[]) => {
    const signedAt = Math.floor(Date.now() / 1000);
    return events.map((e) =>
      intake.wire(e.body, { 'Stripe-Signature': signPayload(e.body, PROCESSOR_SECRET, signedAt) }),
    );
  };
  // BENCH_PROFILE_DIR: a CPU profile of the child during the intake and the last drain round (control-server.ts).
  let statementsAtStart = 0;
  const profile = async (step: 'start' | 'stop', name: string, events = 0) => {
    if (!config.profileDir) return;
    const { count } = await control<{ count: number }>(controlUrl, 'statements');
    const out = await control<{ file?: string }>(controlUrl, `profile/${step}`, { name });
    if (step === 'start') statementsAtStart = count;
    const perEvent = events ? `; ${((count - statementsAtStart) / events).toFixed(1)} Prisma statements per event` : '';
    if (out.file) process.stderr.write(`profile: ${out.file}${perEvent}\n`);
  };
  const prepare = (count: number, offset: number) =>
    control<PreparedEvent[]>(controlUrl, 'prepare', { count, offset, receiverUrl: receiver.url });

  try {
    // The intake's warm-up (as every other benchmark has one): a whole unmeasured round. Its first events run while
    // the JIT compiles the path and each pooled connection prepares the sale's statements; after 300 events the next
    // round was still a fifth slower than the ones after it (tools/bench/README.md).
    const WARM = config.quick ? 0 : N;
    const ROUNDS_IN = config.quick ? 1 : INTAKE_ROUNDS;
    const BURSTS_IN = config.quick ? 1 : BURSTS;
    process.stdout.write(
      `preparing ${WARM + ROUNDS_IN * N + (full ? (BURSTS_IN + 1) * LIVE : 0)} quotes on ${child.targets.db}…\n`,
    );

    // 1. Intake, workers stopped: the warm-up, then ROUNDS_IN measured rounds of N events each; the median round.
    const cpuAt = async () => ({
      intake: (await control<{ seconds: number }>(controlUrl, 'cpu')).seconds,
      load: processCpuSeconds(),
      postgres: postgresCpuSeconds(),
    });
    const send = async (events: readonly PreparedEvent[]) => {
      const statuses = await intake.sendAll(sign(events), INTAKE_CONCURRENCY);
      const refused = statuses.filter((s) => s !== 200).length;
      if (refused)
        throw new Error(`intake answered ${refused} of ${events.length} events with another status than 200`);
    };
    if (WARM) await send(await prepare(WARM, 0));
    const intakeRates: number[] = [];
    const cpuSpent = { intake: 0, load: 0, postgres: 0 as number | null };
    for (let round = 0; round < ROUNDS_IN; round++) {
      const events = await prepare(N, WARM + round * N);
      const last = round === ROUNDS_IN - 1;
      if (last) await profile('start', 'intake');
      const cpu0 = await cpuAt();
      const t = performance.now();
      await send(events);
      intakeRates.push(N / ((performance.now() - t) / 1000));
      const cpu1 = await cpuAt();
      if (last) await profile('stop', `intake-${kind}`, N);
      cpuSpent.intake += cpu1.intake - cpu0.intake;
      cpuSpent.load += cpu1.load - cpu0.load;
      cpuSpent.postgres =
        cpuSpent.postgres === null || cpu0.postgres === null || cpu1.postgres === null
          ? null
          : cpuSpent.postgres + cpu1.postgres - cpu0.postgres;
    }
    const measured = ROUNDS_IN * N;
    const perEvent = (seconds: number) => (seconds * 1e6) / measured;
    const intakeCpuUs = {
      intake: perEvent(cpuSpent.intake),
      load: perEvent(cpuSpent.load),
      postgres: cpuSpent.postgres === null ? null : perEvent(cpuSpent.postgres),
    };
    // The intake answers 200 for every recorded outcome, refused ones included: count what it fulfilled.
    const { count: fulfilled } = await control<{ count: number }>(controlUrl, 'pending');
    if (fulfilled === 0) throw new Error(`no outbox rows after ${measured} events: the intake fulfilled none`);
    // The drain delivers the measured rounds' rows (the warm-up's are deleted): at N = 2,000, a round of 6,000 rows
    // lasts 2–3 s; with the last round's rows alone it lasted under a second, and its median moved by a fifth from
    // run to run (tools/bench/README.md, fifth pass).
    const { count: outboxRows } = await control<{ count: number }>(controlUrl, 'trim', { keep: measured });
    const base = {
      db: child.targets.db,
      kind,
      events: N,
      unfulfilled: WARM + measured - fulfilled,
      drained: outboxRows,
      intakePerSec: median(intakeRates),
      intakeRounds: intakeRates,
      intakeCpuUs,
      wakeups: child.targets.wakeups,
    };
    if (!full)
      return {
        ...base,
        drainPairs: [],
        burst: null,
        steady: null,
      };

    // 2. Drain, alternating with the hand-written worker. Round 0 drains the intake's rows and is the warm-up of both;
    // before every other drain the rows are put back as the intake left them. The table shows the round whose ratio is the median.
    const drainRates: number[] = [];
    const bareRates: number[] = [];
    const timedDrain = async (run: () => Promise<unknown>) => {
      receiver.reset();
      const started = performance.now();
      await Promise.all([run(), receiver.waitFor(outboxRows)]);
      return outboxRows / ((performance.now() - started) / 1000);
    };
    for (let round = 0; round <= ROUNDS; round++) {
      if (round > 0) await control(controlUrl, 'reset');
      if (round === ROUNDS) await profile('start', 'drain');
      const ours = await timedDrain(async () => {
        await control(controlUrl, 'workers/start');
        await receiver.waitFor(outboxRows);
        await control(controlUrl, 'workers/stop');
      });
      if (round === ROUNDS) await profile('stop', 'drain', outboxRows);
      await control(controlUrl, 'reset');
      const bare = await timedDrain(() => control(controlUrl, 'bare/drain'));
      if (round === 0 && ROUNDS > 0) continue;
      drainRates.push(ours);
      bareRates.push(bare);
    }

    // 3. and 4. Live latency, workers running: bursts at concurrency 8, then a steady 100 events/s.
    const burstSets: PreparedEvent[][] = [];
    for (let b = 0; b < BURSTS_IN; b++) burstSets.push(await prepare(LIVE, WARM + measured + b * LIVE));
    const steadyEvents = await prepare(LIVE, WARM + measured + BURSTS_IN * LIVE);
    await control(controlUrl, 'workers/start');
    const bursts: Timings[] = [];
    for (const events of burstSets) bursts.push(await live(events, (send) => pool(events, INTAKE_CONCURRENCY, send)));
    const steady = figures([await live(steadyEvents, (send) => atRate(steadyEvents, STEADY_RATE, send))]);
    await control(controlUrl, 'workers/stop');
    return {
      ...base,
      drainPairs: drainRates.map((ours, i) => ({ ours, baseline: bareRates[i]! })),
      burst: figures(bursts),
      steady,
    };
  } finally {
    intake.close();
    await receiver.close();
    await child.stop();
  }

  /** Sends `events` as `schedule` says and times each from its processor event POST to arrival at the receiver. */
  async function live(
    events: readonly PreparedEvent[],
    schedule: (send: (e: PreparedEvent) => Promise<void>) => Promise<void>,
  ): Promise<Timings> {
    receiver.reset();
    const signed = sign(events);
    const wires = new Map(events.map((e, i) => [e.quoteId, signed[i]!]));
    const sentAt = new Map<string, number>();
    const answeredAt = new Map<string, number>();
    await schedule(async (e) => {
      sentAt.set(e.quoteId, performance.now());
      const status = await intake.send(wires.get(e.quoteId)!);
      if (status !== 200) throw new Error(`intake answered ${status}`);
      answeredAt.set(e.quoteId, performance.now());
    });
    // Events the intake did not fulfil never arrive: wait for all, or at most 30 s, and measure what arrived.
    const settled = new Promise<void>((resolve) => setTimeout(resolve, 30_000).unref());
    await Promise.race([receiver.waitFor(events.length), settled]);
    const since = (at: Map<string, number>) =>
      events
        .filter((e) => receiver.arrivals.has(e.quoteId) && at.has(e.quoteId))
        .map((e) => receiver.arrivals.get(e.quoteId)! - at.get(e.quoteId)!)
        .sort((a, b) => a - b);
    return { latencies: since(sentAt), afterAnswer: since(answeredAt) };
  }
}

/** One run's event → arrival and answer → arrival times, in ms, each sorted. */
interface Timings {
  latencies: number[];
  afterAnswer: number[];
}

/** The percentiles of several runs' events taken together, and each run's own p99. */
function figures(runs: readonly Timings[]): LatencyFigures {
  const all = (pick: (t: Timings) => number[]) => runs.flatMap(pick).sort((a, b) => a - b);
  const latencies = all((t) => t.latencies);
  const afterAnswer = all((t) => t.afterAnswer);
  return {
    events: latencies.length,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: latencies[latencies.length - 1] ?? NaN,
    afterAnswerP50: percentile(afterAnswer, 50),
    afterAnswerP99: percentile(afterAnswer, 99),
    p99s: runs.map((t) => percentile(t.latencies, 99)),
  };
}

/** Starts one `send` every 1/rate seconds on a fixed schedule (never waiting for earlier ones); resolves when all end. */
async function atRate<T>(items: readonly T[], rate: number, send: (item: T) => Promise<void>): Promise<void> {
  const started = performance.now();
  const inFlight: Promise<void>[] = [];
  for (let i = 0; i < items.length; i++) {
    const due = started + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    inFlight.push(send(items[i]!));
  }
  await Promise.all(inFlight);
}

if (require.main === module) {
  measureDispatcher()
    .then((f) => process.stdout.write(`${JSON.stringify(f, null, 2)}\n`))
    .catch((err) => {
      console.error(err);
      process.exit(1);
    });
}
