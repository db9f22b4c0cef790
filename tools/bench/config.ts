import path from 'node:path';
import { z } from 'zod';
import { envVar, optionalVar, parseConfig, type Env } from '@expedition/platform';

/**
 * The benchmarks' one reading of the environment (`npm run bench` and the single benches). BENCH_QUICK=1 is a smoke
 * run (seconds, not minutes): tiny counts, one short round, no warm-up — it checks the harness, not the figures.
 */
const BenchEnvSchema = z
  .object({
    BENCH_QUICK: optionalVar(z.enum(['0', '1', 'true', 'false'])).transform((v) => v === '1' || v === 'true'),
    /** Dispatcher: events fulfilled and delivered per run, and events delivered by the live phase. */
    BENCH_EVENTS: envVar.int({ min: 1, max: 10_000 }),
    BENCH_LIVE_EVENTS: envVar.int({ min: 0, max: 10_000 }),
    BENCH_POLL_MS: envVar.int({ min: 1 }).default(20),
    /** HTTP benchmarks: seconds per measurement, alternating rounds, concurrent connections, load tool. */
    BENCH_DURATION_SEC: envVar.int({ min: 1 }),
    BENCH_ROUNDS: envVar.int({ min: 1 }),
    BENCH_CONNECTIONS: envVar.int({ min: 1 }).default(20),
    BENCH_TOOL: optionalVar(z.enum(['wrk', 'autocannon'])),
    BENCH_LOG_LEVEL: envVar.logLevel('warn'),
    /** A directory: the benchmarks that support it write CPU profiles of their phases there (control-server.ts). */
    BENCH_PROFILE_DIR: optionalVar(z.string().min(1)),
  })
  .transform((env) => {
    const quick = env.BENCH_QUICK;
    const durationSec = env.BENCH_DURATION_SEC ?? (quick ? 1 : 5);
    const http = {
      durationSec,
      rounds: env.BENCH_ROUNDS ?? (quick ? 1 : 5),
      connections: env.BENCH_CONNECTIONS,
      warmupSec: quick ? 0 : Math.min(3, durationSec),
      tool: env.BENCH_TOOL,
      logLevel: env.BENCH_LOG_LEVEL,
    };
    return {
      quick,
      profileDir: env.BENCH_PROFILE_DIR,
      dispatcher: {
        events: env.BENCH_EVENTS ?? (quick ? 40 : 2000),
        liveEvents: env.BENCH_LIVE_EVENTS ?? (quick ? 20 : 500),
        pollMs: env.BENCH_POLL_MS,
      },
      http,
      /** The embed benchmark's settings (the same as every HTTP benchmark's). */
      embed: http,
    };
  });

export type BenchConfig = z.infer<typeof BenchEnvSchema> & {
  /** The environment the benchmarks' child servers start with: this one, with tsx pointed at the aliases. */
  childEnv: Readonly<Record<string, string | undefined>>;
};

export function loadBenchConfig(env: Env = process.env): Readonly<BenchConfig> {
  const root = path.resolve(__dirname, '..', '..');
  const childEnv = Object.freeze({ ...env, TSX_TSCONFIG_PATH: path.join(root, 'tsconfig.base.json') });
  return Object.freeze({ ...parseConfig(BenchEnvSchema, env), childEnv });
}
