/**
 * Load generation shared by the HTTP benchmarks: wrk when it is installed (it leaves the servers as the bottleneck on
 * 2 cores), else autocannon; autocannon also drives fixed-rate runs (p99 at N req/s), which wrk cannot.
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';

export interface LoadRequest {
  url: string;
  headers?: Record<string, string>;
  method?: 'GET' | 'POST';
  body?: string;
}

export interface Sample {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  /** Non-2xx responses, socket errors and timeouts. */
  failures: number;
}

export function hasWrk(): boolean {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
    return true;
  } catch (err) {
    // wrk prints its version and exits 1; only a missing binary throws ENOENT.
    return (err as NodeJS.ErrnoException).code !== 'ENOENT';
  }
}

export type LoadTool = 'wrk' | 'autocannon';

export function pickTool(wanted?: LoadTool): LoadTool {
  return wanted === 'autocannon' || !hasWrk() ? 'autocannon' : 'wrk';
}

/** As many requests as `connections` keep in flight for `seconds`. */
export function runLoad(tool: LoadTool, req: LoadRequest, seconds: number, connections: number): Promise<Sample> {
  return tool === 'wrk' ? runWrk(req, seconds, connections) : runAutocannon(req, seconds, connections);
}

/** A fixed offered rate (requests per second over all connections): the latency a client sees at that load. */
export async function runAtRate(req: LoadRequest, seconds: number, connections: number, rate: number): Promise<Sample> {
  return runAutocannon(req, seconds, connections, rate);
}

async function runAutocannon(
  req: LoadRequest,
  seconds: number,
  connections: number,
  overallRate?: number,
): Promise<Sample> {
  const r = await autocannon({
    url: req.url,
    method: req.method ?? 'GET',
    headers: req.headers,
    body: req.body,
    connections,
    duration: seconds,
    pipelining: 1,
    timeout: 10,
    ...(overallRate ? { overallRate } : {}),
  });
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    requests: r.requests.total,
    failures: r.non2xx + r.errors + r.timeouts,
  };
}

/** wrk with one thread (the servers keep the other core); parses its --latency report. */
function runWrk(req: LoadRequest, seconds: number, connections: number): Promise<Sample> {
  const args = ['-t1', `-c${connections}`, `-d${seconds}s`, '--latency', '--timeout', '10s'];
  for (const [name, value] of Object.entries(req.headers ?? {})) args.push('-H', `${name}: ${value}`);
  let scriptDir: string | null = null;
  if (req.method === 'POST') {
    scriptDir = mkdtempSync(path.join(tmpdir(), 'bench-wrk-'));
    const script = path.join(scriptDir, 'post.lua');
    writeFileSync(script, `wrk.method = "POST"\nwrk.body = ${JSON.stringify(req.body ?? '')}\n`);
    args.push('-s', script);
  }
  return new Promise<Sample>((resolve, reject) => {
    execFile('wrk', [...args, req.url], (err, stdout) => {
      if (scriptDir) rmSync(scriptDir, { recursive: true, force: true });
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

/** The item whose `score` is the median one (the upper one of an even count), undefined when there are none. */
export function middleBy<T>(items: readonly T[], score: (item: T) => number): T | undefined {
  return [...items].sort((a, b) => score(a) - score(b))[Math.floor(items.length / 2)];
}

/** The median of `values`, NaN when there are none. */
export function median(values: readonly number[]): number {
  return middleBy(values, (v) => v) ?? NaN;
}

/** One target's figures over alternating rounds: its median round (by throughput), and every round in order. */
export interface RoundsSample extends Sample {
  rounds: Sample[];
}

/** The median round by throughput (its latencies come with it); failures are summed over all rounds. */
export function medianOf(samples: readonly Sample[]): RoundsSample {
  const middle = middleBy(samples, (s) => s.rps)!;
  return { ...middle, failures: samples.reduce((sum, s) => sum + s.failures, 0), rounds: [...samples] };
}

/** One round's figure of a target and of its baseline, measured one after the other. */
export interface RoundPair {
  ours: number;
  baseline: number;
}

/**
 * Each round's throughput, ours beside its baseline. Both were measured one after the other in the same round, so a
 * slow spell of the machine that spans the pair divides out of its ratio (`pairedRatioRow` in table.ts).
 */
export function roundPairs(ours: RoundsSample, baseline: RoundsSample): RoundPair[] {
  return ours.rounds.map((s, i) => ({ ours: s.rps, baseline: baseline.rounds[i]!.rps }));
}

/** The pair whose ratio ours ÷ baseline is the median one (the upper one of an even count). */
export function medianPair(pairs: readonly RoundPair[]): RoundPair | undefined {
  return middleBy(pairs, (p) => p.ours / p.baseline);
}

/**
 * Measures every target in alternation, round after round (drift on a shared machine hits all alike), after one
 * warm-up each; returns each target's median round and its rounds.
 */
export async function alternate<K extends string>(
  targets: readonly (readonly [K, LoadRequest])[],
  settings: { tool: LoadTool; rounds: number; durationSec: number; warmupSec: number; connections: number },
): Promise<Record<K, RoundsSample>> {
  const { tool, rounds, durationSec, warmupSec, connections } = settings;
  if (warmupSec > 0) for (const [, req] of targets) await runLoad(tool, req, warmupSec, connections);
  const samples = new Map<K, Sample[]>(targets.map(([name]) => [name, []]));
  for (let round = 0; round < rounds; round++) {
    for (const [name, req] of targets) samples.get(name)!.push(await runLoad(tool, req, durationSec, connections));
  }
  return Object.fromEntries(targets.map(([name]) => [name, medianOf(samples.get(name)!)])) as Record<K, RoundsSample>;
}
