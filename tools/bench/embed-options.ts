/**
 * Benchmark: GET /api/embed/options for a ready quote through the embed gate (key -> origin -> rate limit -> route)
 * vs a bare Express route returning the same JSON, measured in the same run with the same settings. Also measures
 * the full embed-api app (request id + access log + gate + route) and a poll that reads the database.
 *
 *   npm run bench:embed        (BENCH_DURATION_SEC=5 BENCH_ROUNDS=5 BENCH_CONNECTIONS=20 by default)
 *
 * Load generator: wrk when it is installed (`apt-get install wrk`), else autocannon (BENCH_TOOL=autocannon forces
 * it). On a 2-core machine the load generator shares the CPU with the servers; autocannon, itself a JavaScript
 * process, saturates first and the figures then measure per-request latency on an idle server rather than
 * throughput. wrk leaves the servers as the bottleneck, which is what a throughput ratio is about.
 *
 * The servers run in a child process (so the load generator does not share their event loop), on 127.0.0.1 only,
 * over a throwaway test database; everything is stopped at the end or after a hard deadline.
 * The child is started with `node --import tsx`, which does not see the --tsconfig this script was started with, so
 * its environment (config.childEnv) points TSX_TSCONFIG_PATH at tsconfig.base.json for the @expedition/* aliases.
 */
import { execFile, execFileSync, spawn } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import autocannon from 'autocannon';
import { loadBenchConfig } from './config';

const root = path.resolve(__dirname, '..', '..');
const config = loadBenchConfig();
/** Targets are measured in alternation, round after round, and each figure is the median: drift hits all alike. */
const { durationSec, rounds, connections } = config.embed;
const tool = config.embed.tool === 'autocannon' || !hasWrk() ? 'autocannon' : 'wrk';

function hasWrk(): boolean {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
    return true;
  } catch (err) {
    // wrk prints its version and exits 1; only a missing binary throws ENOENT.
    return (err as NodeJS.ErrnoException).code !== 'ENOENT';
  }
}
const warmupSec = Math.min(3, durationSec);
const deadlineMs = (warmupSec * 4 + durationSec * 4 * rounds + 90) * 1000;

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
    env: config.childEnv,
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
    console.log(
      `servers ready (database: ${targets.db}, payload ${targets.bodyBytes} bytes); ${connections} connections, ` +
        `${rounds} alternating rounds of ${durationSec} s per target, medians; load generator: ${tool}\n`,
    );
    const run = (url: string, seconds: number) =>
      tool === 'wrk' ? runWrk(url, seconds, targets.headers) : runAutocannon(url, seconds, targets.headers);

    const plan = [
      ['bare express route', targets.bareUrl],
      ['bare route + embed gate', targets.gateUrl],
      ['embed-api app (ready)', targets.appUrl],
      ['embed-api app (DB read)', targets.appDbUrl],
    ] as const;
    process.stdout.write('warming up… ');
    for (const [, url] of plan) await run(url, warmupSec);
    console.log('done');

    const samples = new Map<string, Measured[]>(plan.map(([name]) => [name, []]));
    for (let round = 0; round < rounds; round++) {
      for (const [name, url] of plan) samples.get(name)!.push({ name, ...(await run(url, durationSec)) });
    }
    report(plan.map(([name]) => medianOf(samples.get(name)!)));
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

type Sample = Omit<Measured, 'name'>;

async function runAutocannon(url: string, seconds: number, headers: Record<string, string>): Promise<Sample> {
  const r = await autocannon({ url, connections, duration: seconds, headers, pipelining: 1, timeout: 10 });
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    requests: r.requests.total,
    failures: r.non2xx + r.errors + r.timeouts,
  };
}

/** wrk with one thread (the servers keep the other core); parses its --latency report. */
function runWrk(url: string, seconds: number, headers: Record<string, string>): Promise<Sample> {
  const args = ['-t1', `-c${connections}`, `-d${seconds}s`, '--latency', '--timeout', '10s'];
  for (const [name, value] of Object.entries(headers)) args.push('-H', `${name}: ${value}`);
  return new Promise((resolve, reject) => {
    execFile('wrk', [...args, url], (err, stdout) => {
      if (err) return reject(err);
      const ms = (label: string) => {
        const m = new RegExp(`${label}\\s+([\\d.]+)(us|ms|s)`).exec(stdout);
        if (!m) return NaN;
        const value = Number(m[1]);
        return m[2] === 'us' ? value / 1000 : m[2] === 's' ? value * 1000 : value;
      };
      const number = (re: RegExp) => Number(re.exec(stdout)?.[1] ?? NaN);
      const errors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(stdout);
      resolve({
        rps: number(/Requests\/sec:\s+([\d.]+)/),
        p50: ms('50%'),
        p99: ms('99%'),
        requests: number(/(\d+) requests in/),
        failures:
          (number(/Non-2xx or 3xx responses: (\d+)/) || 0) +
          (errors ? errors.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0),
      });
    });
  });
}

/** The median round by throughput (its latencies come with it); failures are summed over all rounds. */
function medianOf(samples: Measured[]): Measured {
  const sorted = [...samples].sort((a, b) => a.rps - b.rps);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  return { ...median, failures: samples.reduce((sum, s) => sum + s.failures, 0) };
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
