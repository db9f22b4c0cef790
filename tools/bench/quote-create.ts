/**
 * Benchmark: POST /api/v1/quotes through the full quote-api app vs a bare Express + `pg` route doing the same writes
 * (baselines/quote-insert.bare.ts), on PostgreSQL, in the same run:
 *   1. throughput: wrk (or autocannon), alternating rounds, medians → ratio ours ÷ bare (goal ≥ 0.5);
 *   2. latency at a fixed offered load of half the bare route's measured maximum (autocannon overallRate), in
 *      TAIL_ROUNDS paired rounds (bare, then ours) → each round's p99 ratio, goal: their median ≤ 2; with the server
 *      process's event-loop delay, GC pauses and RSS over each window of the median round (in the row's note);
 *   3. the app alone on a file-backed PGlite (the embedded mode of `npm start`): throughput beside PostgreSQL's.
 *
 *   npm run bench -- quote        (or: npx tsx --tsconfig tools/tsconfig.json tools/bench/quote-create.ts)
 */
import { isPostgresReachable } from '@expedition/db/testing';
import { startServerChild } from './child';
import { loadBenchConfig, type BenchConfig } from './config';
import { alternate, middleBy, pickTool, roundPairs, runAtRate, type LoadRequest } from './load';
import { control, type RuntimeStats } from './control-server';
import { infoRow, notMeasured, pairedRatioRow, type BenchRow } from './table';

export interface QuoteTargets {
  db: string;
  oursUrl: string;
  /** Null on PGlite (the bare baseline needs a `pg` pool). */
  bareUrl: string | null;
  controlUrl: string;
  estimates: number;
}

/** The request both targets get (the quote-api contract's fields; the bare route stores the same figures). */
export const QUOTE_BODY = {
  destination: 'Antarctica',
  startDate: `${new Date().getUTCFullYear() + 1}-01-10`,
  durationDays: 14,
  tripCost: 24000,
  travelers: 2,
  travelerAges: [45, 52],
  residence: 'GB',
};
const BODY = JSON.stringify(QUOTE_BODY);

const post = (url: string): LoadRequest => ({
  url,
  method: 'POST',
  body: BODY,
  headers: { 'Content-Type': 'application/json' },
});

const ROWS = {
  throughput: {
    id: 'quote_create_throughput',
    figure: 'POST /api/v1/quotes, throughput',
    unit: 'req/s',
    baselineLabel: 'bare Express + pg, same writes',
    goal: 'ratio ≥ 0.5',
  },
  tail: {
    id: 'quote_create_p99_at_half_max',
    figure: "POST /api/v1/quotes, p99 at half the bare route's maximum rate",
    unit: 'ms',
    baselineLabel: 'bare, same rate',
    goal: 'p99 ≤ 2 × bare',
  },
  pglite: {
    id: 'quote_create_throughput_pglite',
    figure: 'POST /api/v1/quotes on PGlite (embedded mode, `npm start`)',
    unit: 'req/s',
    baselineLabel: 'the same app on PostgreSQL',
    goal: '—',
  },
};

/** Paired rounds of the fixed-rate tail measurement (each: bare, then ours). */
const TAIL_ROUNDS = 3;

const profile = (s: RuntimeStats) =>
  `event-loop delay p99 ${s.loopDelayP99.toFixed(1)} ms (max ${s.loopDelayMax.toFixed(0)}), ` +
  `GC ${s.gcCount}× ${s.gcPauseMs.toFixed(0)} ms (max ${s.gcMaxPauseMs.toFixed(1)}), RSS ${s.rssMb.toFixed(0)} MB`;

export async function benchQuoteCreate(config: Readonly<BenchConfig> = loadBenchConfig()): Promise<BenchRow[]> {
  if (!(await isPostgresReachable())) {
    const reason = 'PostgreSQL unreachable (TEST_DATABASE_URL): the bare baseline needs it';
    return [notMeasured(ROWS.throughput, reason), notMeasured(ROWS.tail, reason), notMeasured(ROWS.pglite, reason)];
  }
  const { durationSec, rounds, connections, warmupSec } = config.http;
  const tool = pickTool(config.http.tool);
  const child = await startServerChild<QuoteTargets>('quote-create.server.ts', config.childEnv);
  let rows: BenchRow[];
  try {
    const { oursUrl, bareUrl, controlUrl, estimates } = child.targets;
    const ours = post(oursUrl);
    const bare = post(bareUrl!);
    const thr = await alternate(
      [
        ['ours', ours],
        ['bare', bare],
      ] as const,
      { tool, rounds, durationSec, warmupSec, connections },
    );
    // Half the bare route's measured maximum: a load the bare route carries with room to spare.
    const rate = Math.max(1, Math.round(thr.bare.rps / 2));
    const rateSec = Math.max(durationSec, config.quick ? 1 : 10);
    const atRate = async (req: LoadRequest) => {
      await control(controlUrl, 'stats/reset');
      const sample = await runAtRate(req, rateSec, connections, rate);
      return { sample, stats: await control<RuntimeStats>(controlUrl, 'stats') };
    };
    // Paired rounds, bare then ours: one 10 s window's p99 is a handful of requests, and the machine's slow spells
    // moved the single pair's ratio between 1.6 and 4.4 from run to run (tools/bench/README.md, sixth pass).
    const pairs: { bare: Awaited<ReturnType<typeof atRate>>; ours: Awaited<ReturnType<typeof atRate>> }[] = [];
    for (let round = 0; round < (config.quick ? 1 : TAIL_ROUNDS); round++)
      pairs.push({ bare: await atRate(bare), ours: await atRate(ours) });
    const tailRatio = (p: (typeof pairs)[number]) => p.ours.sample.p99 / p.bare.sample.p99;
    const middle = middleBy(pairs, tailRatio)!;
    const { bare: tailBare, ours: tailOurs } = middle;
    const failures =
      thr.ours.failures +
      thr.bare.failures +
      pairs.reduce((n, p) => n + p.ours.sample.failures + p.bare.sample.failures, 0);
    const note = failures ? `${failures} non-2xx responses or errors: not comparable` : undefined;
    const ratio = tailRatio(middle);
    const roundP99s = pairs.map((p) => `${p.ours.sample.p99}/${p.bare.sample.p99}`).join(', ');
    // A window in which no request completed (a one-second quick run on a loaded machine) has no p99 to compare.
    const tail: BenchRow = Number.isFinite(ratio)
      ? {
          ...ROWS.tail,
          figure: `${ROWS.tail.figure} (${rate} req/s)`,
          ours: tailOurs.sample.p99,
          baseline: tailBare.sample.p99,
          ratio,
          met: ratio <= 2,
          note:
            `the median of ${pairs.length} paired rounds of ${rateSec} s (p99 ours/bare, ms: ${roundP99s}); ` +
            `p50 ${tailOurs.sample.p50} ms (bare ${tailBare.sample.p50} ms); ${estimates} estimate rows per quote; ` +
            `ours: ${profile(tailOurs.stats)}; bare: ${profile(tailBare.stats)}`,
        }
      : notMeasured(
          ROWS.tail,
          `no p99 to compare at ${rate} req/s (ours ${tailOurs.sample.p99} ms, bare ${tailBare.sample.p99} ms)`,
        );
    rows = [pairedRatioRow({ ...ROWS.throughput, note }, 0.5, roundPairs(thr.ours, thr.bare)), tail];
  } finally {
    await child.stop();
  }
  rows.push(config.quick ? notMeasured(ROWS.pglite, 'not in a quick run') : await pgliteRow(config, rows[0]!.ours));
  return rows;
}

/** The app alone on PGlite, one measurement after a warm-up, beside the PostgreSQL figure of the same run. */
async function pgliteRow(config: Readonly<BenchConfig>, onPostgres: number | null): Promise<BenchRow> {
  const { durationSec, connections, warmupSec } = config.http;
  try {
    const child = await startServerChild<QuoteTargets>('quote-create.server.ts', {
      ...config.childEnv,
      BENCH_DB: 'pglite',
    });
    try {
      const tool = pickTool(config.http.tool);
      const { ours } = await alternate([['ours', post(child.targets.oursUrl)]] as const, {
        tool,
        rounds: 1,
        durationSec,
        warmupSec,
        connections,
      });
      return infoRow({
        ...ROWS.pglite,
        ours: ours.rps,
        baseline: onPostgres,
        note: `p99 ${ours.p99} ms; ${child.targets.db}`,
      });
    } finally {
      await child.stop();
    }
  } catch (err) {
    return notMeasured(ROWS.pglite, `failed: ${(err as Error).message.split('\n')[0]}`);
  }
}

if (require.main === module) {
  benchQuoteCreate()
    .then((rows) =>
      console.table(
        rows.map(({ figure, ours, baseline, ratio, goal, met }) => ({ figure, ours, baseline, ratio, goal, met })),
      ),
    )
    .catch((err) => {
      console.error(err);
      process.exit(1);
    });
}
