import path from 'node:path';
import { z } from 'zod';
import { envVar, optionalVar, parseConfig, type Env } from '@expedition/platform';

/** The benchmarks' one reading of the environment (`npm run bench:embed`, `npm run bench:dispatcher`). */
const BenchEnvSchema = z
  .object({
    /** Dispatcher: events fulfilled and delivered per run, and events delivered by the live phase. */
    BENCH_EVENTS: envVar.int({ min: 1, max: 10_000 }).default(2000),
    BENCH_LIVE_EVENTS: envVar.int({ min: 0, max: 10_000 }).default(500),
    BENCH_POLL_MS: envVar.int({ min: 1 }).default(20),
    /** Embed options: seconds per measurement, alternating rounds, concurrent connections, load tool. */
    BENCH_DURATION_SEC: envVar.int({ min: 1 }).default(5),
    BENCH_ROUNDS: envVar.int({ min: 1 }).default(5),
    BENCH_CONNECTIONS: envVar.int({ min: 1 }).default(20),
    BENCH_TOOL: optionalVar(z.enum(['wrk', 'autocannon'])),
    BENCH_LOG_LEVEL: envVar.logLevel('warn'),
  })
  .transform((env) => ({
    dispatcher: { events: env.BENCH_EVENTS, liveEvents: env.BENCH_LIVE_EVENTS, pollMs: env.BENCH_POLL_MS },
    embed: {
      durationSec: env.BENCH_DURATION_SEC,
      rounds: env.BENCH_ROUNDS,
      connections: env.BENCH_CONNECTIONS,
      tool: env.BENCH_TOOL,
      logLevel: env.BENCH_LOG_LEVEL,
    },
  }));

export type BenchConfig = z.infer<typeof BenchEnvSchema> & {
  /** The environment the embed benchmark's child server starts with: this one, with tsx pointed at the aliases. */
  childEnv: Readonly<Record<string, string | undefined>>;
};

export function loadBenchConfig(env: Env = process.env): Readonly<BenchConfig> {
  const root = path.resolve(__dirname, '..', '..');
  const childEnv = Object.freeze({ ...env, TSX_TSCONFIG_PATH: path.join(root, 'tsconfig.base.json') });
  return Object.freeze({ ...parseConfig(BenchEnvSchema, env), childEnv });
}
