/**
 * Benchmark: GET /api/embed/options for a ready quote through the embed gate (key -> origin -> rate limit -> route)
 * vs a bare Express route returning the same JSON, measured in the same run with the same settings. Also measures
 * the full embed-api app (request id + access log + gate + route) and a poll that reads the database.
 *
 *   npx tsx tools/bench/embed-options.ts            (BENCH_DURATION_SEC=10 BENCH_CONNECTIONS=10 by default)
 *
 * The servers run in a child process (so the load generator does not share their event loop), on 127.0.0.1 only,
 * over a throwaway test database; everything is stopped at the end or after a hard deadline.
 * This file imports no @expedition/* alias: `tsx` at the repo root has no tsconfig with the paths, so the child is
 * started with TSX_TSCONFIG_PATH pointing at tsconfig.base.json.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import autocannon from 'autocannon';

const root = path.resolve(__dirname, '..', '..');
const durationSec = Number(process.env['BENCH_DURATION_SEC'] || 10);
const connections = Number(process.env['BENCH_CONNECTIONS'] || 10);
const warmupSec = Math.min(3, durationSec);
const deadlineMs = (warmupSec * 4 + durationSec * 4 + 90) * 1000;

interface Targets {
  db: string;
  headers: Record<string, string>;
  bareUrl: string;
  gateUrl: string;
  appUrl: string;
  appDbUrl: string;
  bodyBytes: number;
}

interface Measured {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  failures: number;
}

async function main(): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, 'embed-options.server.ts')], {
    cwd: root,
    env: { ...process.env, TSX_TSCONFIG_PATH: path.join(root, 'tsconfig.base.json') },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const deadline = setTimeout(() => {
    console.error(`benchmark exceeded ${deadlineMs / 1000} s; stopping`);
    child.kill('SIGKILL');
    process.exit(2);
  }, deadlineMs);
  deadline.unref();

  try {
    const targets = await readTargets(child);
    console.log(`servers ready (database: ${targets.db}, payload ${targets.bodyBytes} bytes); ${connections} connections, ${durationSec} s per target\n`);
    const run = (url: string, seconds: number) =>
      autocannon({ url, connections, duration: seconds, headers: targets.headers, pipelining: 1, timeout: 10 });

    const plan = [
      ['bare express route', targets.bareUrl],
      ['bare route + embed gate', targets.gateUrl],
      ['embed-api app (ready)', targets.appUrl],
      ['embed-api app (DB read)', targets.appDbUrl],
    ] as const;
    process.stdout.write('warming up… ');
    for (const [, url] of plan) await run(url, warmupSec);
    console.log('done');

    const results: Measured[] = [];
    for (const [name, url] of plan) {
      const r = await run(url, durationSec);
      results.push({
        name,
        rps: r.requests.average,
        p50: r.latency.p50,
        p99: r.latency.p99,
        requests: r.requests.total,
        failures: r.non2xx + r.errors + r.timeouts,
      });
    }
    report(results);
  } finally {
    child.stdin?.end();
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
}

function readTargets(child: ReturnType<typeof spawn>): Promise<Targets> {
  return new Promise((resolve, reject) => {
    if (!child.stdout) return reject(new Error('server process has no stdout'));
    const lines = readline.createInterface({ input: child.stdout });
    lines.once('line', (line) => {
      try {
        resolve(JSON.parse(line) as Targets);
      } catch (err) {
        reject(new Error(`unexpected output from the server process: ${line}`, { cause: err }));
      }
    });
    child.once('exit', (code) => reject(new Error(`server process exited early (code ${code})`)));
  });
}

function report(results: Measured[]): void {
  console.log('\n' + 'target'.padEnd(26) + 'req/s'.padStart(10) + 'p50 ms'.padStart(9) + 'p99 ms'.padStart(9) + 'requests'.padStart(11) + 'non-2xx/errors'.padStart(16));
  for (const r of results) {
    console.log(
      r.name.padEnd(26) +
        r.rps.toFixed(0).padStart(10) +
        String(r.p50).padStart(9) +
        String(r.p99).padStart(9) +
        String(r.requests).padStart(11) +
        String(r.failures).padStart(16),
    );
  }
  const [bare, gate, app] = results;
  if (!bare || !gate || !app) return;
  const ratio = gate.rps / bare.rps;
  const appRatio = app.rps / bare.rps;
  console.log(`\nthroughput ratio, gate ÷ bare: ${ratio.toFixed(2)}  (aim ≥ 0.80: ${ratio >= 0.8 ? 'met' : 'NOT met'})`);
  console.log(`throughput ratio, full embed-api app ÷ bare: ${appRatio.toFixed(2)}  (adds request id, access log, no-store)`);
  console.log(`p99 latency: bare ${bare.p99} ms, gate ${gate.p99} ms, app ${app.p99} ms`);
  if (results.some((r) => r.failures > 0)) {
    console.log('WARNING: some responses were not 2xx; the figures above are not comparable.');
    process.exitCode = 1;
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
