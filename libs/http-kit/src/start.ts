import type { Redis } from 'ioredis';
import type { Logger } from '@expedition/platform';
import { linkedErrors } from './error-chain';
import { unavailableLink } from './error-handler';

/** A service a process talks to, as its configuration names it. */
export interface Dependency {
  /** What an operator calls it. */
  name: 'PostgreSQL' | 'Redis';
  /** The variable holding its URL: where to look when the URL is wrong. */
  variable: string;
  /** Absent: an embedded stand-in (PGlite), nothing to reach. Credentials in it are never printed. */
  url?: string;
  defaultPort: number;
}

export const postgresAt = (url: string | undefined): Dependency => ({
  name: 'PostgreSQL',
  variable: 'DATABASE_URL',
  url,
  defaultPort: 5432,
});
export const redisAt = (url: string | undefined): Dependency => ({
  name: 'Redis',
  variable: 'REDIS_URL',
  url,
  defaultPort: 6379,
});

/** `host:port` of the dependency's URL: never its user, password or database. */
export function targetOf(dependency: Dependency): string {
  try {
    const url = new URL(dependency.url ?? '');
    // PostgreSQL also takes the host as `?host=` (a Unix socket directory).
    const host = url.hostname || url.searchParams.get('host') || 'localhost';
    return `${host}:${url.port || dependency.defaultPort}`;
  } catch {
    return `the address in ${dependency.variable}`;
  }
}

interface Diagnosis {
  reason: string;
  check: string;
}

// Why a connection failed and what to check, by node errno, PostgreSQL SQLSTATE or the Prisma code for the same.
// Credentials refused and a missing database are included: they too stop a start at the door, and are usually a
// wrong URL. `{name}` and `{var}` are the dependency's name and variable.
const DIAGNOSES: ReadonlyArray<{ codes: RegExp } & Diagnosis> = [
  {
    codes: /^(ECONNREFUSED|P1001)$/,
    reason: 'connection refused',
    check: 'Check that {name} is running and listening there, and that {var} names the right host and port',
  },
  { codes: /^(ENOTFOUND|EAI_AGAIN)$/, reason: 'host name not found', check: 'Check the host name in {var} and DNS' },
  {
    codes: /^(ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|P1002|P1008)$/,
    reason: 'no answer',
    check: 'Check the network path to it (firewalls, security groups)',
  },
  { codes: /^57P03$/, reason: 'it is starting up or shutting down', check: 'Start again once it accepts connections' },
  {
    codes: /^(53300|P2037)$/,
    reason: 'too many connections',
    check: "Check its max_connections against every replica's pool size",
  },
  {
    codes: /^(28P01|28000|P1000)$/,
    reason: 'it refused the credentials',
    check: 'Check the user and password in {var}',
  },
  {
    codes: /^(3D000|P1003)$/,
    reason: 'the database does not exist',
    check: 'Check the database name in {var}, or create the database',
  },
];

/** What stopped the connection, or undefined when `err` is not a connection failure (a failed migration, a bug). */
export function diagnoseConnectionFailure(err: unknown): Diagnosis | undefined {
  for (const e of linkedErrors(err)) {
    for (const code of [e.code, e.originalCode]) {
      const known = typeof code === 'string' ? DIAGNOSES.find((d) => d.codes.test(code)) : undefined;
      if (known) return { reason: known.reason, check: known.check };
    }
  }
  const link = unavailableLink(err);
  if (!link) return undefined;
  // Prisma's messages open with the call site; the driver's own words are on the last line.
  const message = typeof link.message === 'string' ? link.message.trim().split('\n').pop()?.trim() : undefined;
  return { reason: message || 'connection lost', check: 'Check that {name} is running and reachable from here' };
}

/** The one line an operator reads when `dependency` cannot be reached: what, where, why, what to check. */
export function unreachableLine(dependency: Dependency, diagnosis: Diagnosis): string {
  const check = diagnosis.check.replace('{name}', dependency.name).replace('{var}', dependency.variable);
  return `Cannot reach ${dependency.name} at ${targetOf(dependency)} (${dependency.variable}): ${diagnosis.reason}. ${check}.`;
}

/** A start step could not reach a dependency; `message` is the one line to print, `cause` the full error. */
export class DependencyUnreachableError extends Error {
  constructor(
    readonly dependency: Dependency,
    message: string,
    options: { cause: unknown },
  ) {
    super(message, options);
    this.name = 'DependencyUnreachableError';
  }
}

/**
 * Runs a start step that talks to `dependency` (opening the database, migrating). When the dependency cannot be
 * reached, throws a DependencyUnreachableError (see exitOnStartFailure) and logs the full error at debug level;
 * any other failure passes through untouched.
 */
export async function reachAtStart<T>(
  dependency: Dependency,
  logger: Pick<Logger, 'debug'>,
  step: () => Promise<T>,
): Promise<T> {
  try {
    return await step();
  } catch (err) {
    const diagnosis = dependency.url === undefined ? undefined : diagnoseConnectionFailure(err);
    if (!diagnosis) throw err;
    logger.debug({ err, dependency: dependency.name }, 'start: dependency unreachable');
    throw new DependencyUnreachableError(dependency, unreachableLine(dependency, diagnosis), { cause: err });
  }
}

type ErrorClass = new (...args: never[]) => Error;

// Why a port cannot be listened on, by node errno: the machine's state or the chosen port, not a bug.
const LISTEN_FAILURES: Readonly<Record<string, string>> = {
  EADDRINUSE:
    'the address is already in use. Stop the process that holds the port, or give this app another port (its port variable, or METRICS_PORT)',
  EACCES: 'permission denied. Ports below 1024 need privileges: choose a port of 1024 or above',
  EADDRNOTAVAIL: 'no such address on this machine. Check HOST',
};

/** The one line for a server that could not listen (port taken, privileged port, foreign address); undefined otherwise. */
export function listenFailureLine(err: unknown): string | undefined {
  const e = err as { syscall?: unknown; code?: unknown; address?: unknown; port?: unknown } | null;
  if (typeof e !== 'object' || e === null || e.syscall !== 'listen' || typeof e.code !== 'string') return undefined;
  const why = LISTEN_FAILURES[e.code];
  if (!why) return undefined;
  const where = [e.address, e.port].filter((part) => part !== undefined && part !== '').join(':');
  return `Cannot listen on ${where || 'the configured port'}: ${why}.`;
}

/**
 * What a process that failed to start prints: one line saying what to fix for a configuration error (one of
 * `configErrors`), an unreachable dependency or a port it cannot listen on; the whole error, stack included, for
 * anything else (a bug is worth its stack).
 */
export function startFailureOutput(err: unknown, configErrors: readonly ErrorClass[]): unknown {
  const explained = err instanceof DependencyUnreachableError || configErrors.some((type) => err instanceof type);
  if (explained) return (err as Error).message;
  return listenFailureLine(err) ?? err;
}

/** `main().catch(exitOnStartFailure([ConfigError, …]))`: prints startFailureOutput on stderr and exits 1. */
export function exitOnStartFailure(configErrors: readonly ErrorClass[]): (err: unknown) => never {
  return (err) => {
    console.error(startFailureOutput(err, configErrors));
    process.exit(1);
  };
}

/**
 * Watches the process's Redis client (shared rate limits and throttles); returns it. Redis is optional at run time:
 * while it is away the limiters count per replica (README, "Redis down"), so a start neither waits for it nor fails
 * without it. Without an error listener ioredis prints an "Unhandled error event" stack on every reconnect attempt;
 * this logs one warning line per outage (host:port, what to check) and one line when Redis is back.
 */
export function logRedisOutages(
  redis: Redis,
  url: string,
  logger: Pick<Logger, 'warn' | 'info' | 'debug'>,
  /** Told when an outage starts (true) and ends (false); the metric `redis_fallback_active`. */
  onFallback?: (active: boolean) => void,
): Redis {
  const dependency = redisAt(url);
  let down = false;
  redis.on('error', (err: unknown) => {
    if (down) return logger.debug({ err }, 'Redis still unreachable');
    down = true;
    onFallback?.(true);
    const diagnosis = diagnoseConnectionFailure(err) ?? {
      reason: err instanceof Error ? err.message : String(err),
      check: 'Check {var}',
    };
    logger.warn(`${unreachableLine(dependency, diagnosis)} Until it is back, limits are counted per replica.`);
  });
  redis.on('ready', () => {
    if (!down) return;
    down = false;
    onFallback?.(false);
    logger.info(`Redis at ${targetOf(dependency)} is reachable again: limits are shared again`);
  });
  return redis;
}
