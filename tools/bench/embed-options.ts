/**
 * Benchmark: GET /api/embed/options for a ready quote through the embed gate (key -> origin -> rate limit -> route)
 * vs a bare Express route returning the same JSON, measured in the same run with the same settings. Also measures
 * the full embed-api app (request id + access log + gate + route) and a poll that reads the database.
 *
 *   npm run bench:embed        (BENCH_DURATION_SEC=5 BENCH_ROUNDS=5 BENCH_CONNECTIONS=20 by default)
 *
 * Load generator: wrk when it is installed, else autocannon (BENCH_TOOL=autocannon forces it); see load.ts.
 * The servers run in a child process (embed-options.server.ts), on 127.0.0.1 only, over a throwaway test database;
 * everything is stopped at the end or after a hard deadline.
 */
import { loadBenchConfig, type BenchConfig } from './config';
import { startServerChild } from './child';
import { alternate, medianPair, pickTool, roundPairs, type RoundsSample } from './load';
import { infoRow, pairedRatioRow, type BenchRow } from './table';

interface Targets {
  db: string;
  headers: Record<string, string>;
  bareUrl: string;
  gateUrl: string;
  appUrl: string;
  appDbUrl: string;
  bodyBytes: number;
}

const PLAN = [
  ['bare express route', 'bareUrl'],
  ['bare route + embed gate', 'gateUrl'],
  ['embed-api app (ready)', 'appUrl'],
  ['embed-api app (DB read)', 'appDbUrl'],
] as const;
type Name = (typeof PLAN)[number][0];

export interface EmbedResult {
  db: string;
  tool: string;
  results: Record<Name, RoundsSample>;
}

export async function measureEmbed(config: Readonly<BenchConfig> = loadBenchConfig()): Promise<EmbedResult> {
  const { durationSec, rounds, connections, warmupSec } = config.http;
  const tool = pickTool(config.http.tool);
  const child = await startServerChild<Targets>('embed-options.server.ts', config.childEnv);
  try {
    const { targets } = child;
    const results = await alternate(
      PLAN.map(([name, key]) => [name, { url: targets[key], headers: targets.headers }] as const),
      { tool, rounds, durationSec, warmupSec, connections },
    );
    return { db: targets.db, tool, results };
  } finally {
    await child.stop();
  }
}

/** The table rows: gate ÷ bare (goal ≥ 0.9), full app ÷ bare (goal ≥ 0.85), and the DB-read poll for reference. */
export async function benchEmbed(config: Readonly<BenchConfig> = loadBenchConfig()): Promise<BenchRow[]> {
  const { results } = await measureEmbed(config);
  const bare = results['bare express route'];
  const failures = Object.values(results).reduce((sum, s) => sum + s.failures, 0);
  const note = failures ? `${failures} non-2xx responses or errors: not comparable` : undefined;
  const base = { unit: 'req/s', baselineLabel: 'bare Express, same JSON' };
  const gate = results['bare route + embed gate'];
  const app = results['embed-api app (ready)'];
  const db = results['embed-api app (DB read)'];
  return [
    pairedRatioRow(
      { ...base, id: 'embed_gate', figure: 'GET /api/embed/options (ready), gate only', note },
      0.9,
      roundPairs(gate, bare),
    ),
    pairedRatioRow(
      {
        ...base,
        id: 'embed_app',
        figure: 'GET /api/embed/options (ready), full embed-api app',
        note: `p99 ${app.p99} ms (bare ${bare.p99} ms)${note ? `; ${note}` : ''}`,
      },
      0.85,
      roundPairs(app, bare),
    ),
    infoRow({
      ...base,
      id: 'embed_app_db_read',
      figure: 'GET /api/embed/options (pending: reads the database), full app',
      ours: db.rps,
      baseline: bare.rps,
    }),
  ];
}

function report({ db, tool, results }: EmbedResult): void {
  const { durationSec, rounds, connections } = loadBenchConfig().http;
  console.log(
    `database: ${db}; ${connections} connections, ${rounds} alternating rounds of ${durationSec} s per target, medians; load generator: ${tool}\n`,
  );
  console.log(
    'target'.padEnd(26) +
      'req/s'.padStart(10) +
      'p50 ms'.padStart(9) +
      'p99 ms'.padStart(9) +
      'requests'.padStart(11) +
      'non-2xx/errors'.padStart(16),
  );
  for (const [name] of PLAN) {
    const r = results[name];
    console.log(
      name.padEnd(26) +
        r.rps.toFixed(0).padStart(10) +
        String(r.p50).padStart(9) +
        String(r.p99).padStart(9) +
        String(r.requests).padStart(11) +
        String(r.failures).padStart(16),
    );
  }
  const bare = results['bare express route'];
  const pairRatio = (target: Name) => {
    const middle = medianPair(roundPairs(results[target], bare))!;
    return middle.ours / middle.baseline;
  };
  const ratio = pairRatio('bare route + embed gate');
  const appRatio = pairRatio('embed-api app (ready)');
  console.log(
    `\nthroughput ratio, gate ÷ bare (median of the paired rounds): ${ratio.toFixed(2)}  (goal ≥ 0.90: ${ratio >= 0.9 ? 'met' : 'NOT met'})`,
  );
  console.log(
    `throughput ratio, full embed-api app ÷ bare (median of the paired rounds): ${appRatio.toFixed(2)}  (goal ≥ 0.85: ${appRatio >= 0.85 ? 'met' : 'NOT met'})`,
  );
  if (Object.values(results).some((r) => r.failures > 0)) {
    console.log('WARNING: some responses were not 2xx; the figures above are not comparable.');
    process.exitCode = 1;
  }
}

if (require.main === module) {
  const { durationSec, rounds, warmupSec } = loadBenchConfig().http;
  const deadline = setTimeout(
    () => {
      console.error('benchmark exceeded its deadline; stopping');
      process.exit(2);
    },
    (warmupSec * 4 + durationSec * 4 * rounds + 90) * 1000,
  );
  deadline.unref();
  measureEmbed()
    .then(report)
    .catch((err) => {
      console.error(err);
      process.exit(1);
    });
}
