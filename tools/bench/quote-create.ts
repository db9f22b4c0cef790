/**
 * Benchmark: POST /api/v1/quotes through the full quote-api app vs a bare Express + `pg` route doing the same writes
 * (baselines/quote-insert.bare.ts), on PostgreSQL, in the same run:
 *   1. throughput: wrk (or autocannon), alternating rounds, medians → ratio ours ÷ bare (goal ≥ 0.5);
 *   2. latency at a fixed offered load of 500 req/s (autocannon overallRate) → p99 (goal < 20 ms).
 *
 *   npm run bench -- quote        (or: npx tsx --tsconfig tools/tsconfig.json tools/bench/quote-create.ts)
 */
import { isPostgresReachable } from '@expedition/db/testing';
import { startServerChild } from './child';
import { loadBenchConfig, type BenchConfig } from './config';
import { alternate, pickTool, runAtRate, type LoadRequest } from './load';
import { maxRow, notMeasured, ratioRow, type BenchRow } from './table';

interface QuoteTargets {
  db: string;
  oursUrl: string;
  bareUrl: string;
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
const RATE = 500;

export async function benchQuoteCreate(config: Readonly<BenchConfig> = loadBenchConfig()): Promise<BenchRow[]> {
  const throughputRow = {
    id: 'quote_create_throughput',
    figure: 'POST /api/v1/quotes, throughput',
    unit: 'req/s',
    baselineLabel: 'bare Express + pg, same writes',
    goal: 'ratio ≥ 0.5',
  };
  const latencyRow = {
    id: 'quote_create_p99_at_500',
    figure: `POST /api/v1/quotes, p99 at ${RATE} req/s`,
    unit: 'ms',
    baselineLabel: 'bare',
    goal: 'p99 < 20 ms',
  };
  if (!(await isPostgresReachable())) {
    const reason = 'PostgreSQL unreachable (TEST_DATABASE_URL): the bare baseline needs it';
    return [notMeasured(throughputRow, reason), notMeasured(latencyRow, reason)];
  }
  const { durationSec, rounds, connections, warmupSec } = config.http;
  const tool = pickTool(config.http.tool);
  const child = await startServerChild<QuoteTargets>('quote-create.server.ts', config.childEnv);
  try {
    const post = (url: string): LoadRequest => ({
      url,
      method: 'POST',
      body: BODY,
      headers: { 'Content-Type': 'application/json' },
    });
    const ours = post(child.targets.oursUrl);
    const bare = post(child.targets.bareUrl);
    const thr = await alternate(
      [
        ['ours', ours],
        ['bare', bare],
      ] as const,
      { tool, rounds, durationSec, warmupSec, connections },
    );
    const rateSec = Math.max(durationSec, config.quick ? 1 : 5);
    const atRateBare = await runAtRate(bare, rateSec, connections, RATE);
    const atRateOurs = await runAtRate(ours, rateSec, connections, RATE);
    const failures = thr.ours.failures + thr.bare.failures + atRateOurs.failures + atRateBare.failures;
    const note = failures ? `${failures} non-2xx responses or errors: not comparable` : undefined;
    return [
      ratioRow({ ...throughputRow, ours: thr.ours.rps, baseline: thr.bare.rps, note }, 0.5),
      maxRow(
        {
          ...latencyRow,
          ours: atRateOurs.p99,
          baseline: atRateBare.p99,
          note: `p50 ${atRateOurs.p50} ms (bare ${atRateBare.p50} ms); ${child.targets.estimates} estimate rows per quote`,
        },
        20,
        'p99 < 20 ms',
      ),
    ];
  } finally {
    await child.stop();
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
