import type { Express } from 'express';
import Redis from 'ioredis';
import { ObservabilityConfigError, startObservability, type Observability } from '@expedition/observability';
import { ConfigError, type Logger } from '@expedition/platform';
import { createLogger } from './logger';
import { listen, onShutdownSignal } from './server';
import { exitOnStartFailure, logRedisOutages, postgresAt, reachAtStart } from './start';

/** What every app's config.ts gives its main.ts. */
export interface ServiceConfig {
  logLevel: string;
  host: string;
  port: number;
  /** PostgreSQL; absent: PGlite (nothing to reach). */
  databaseUrl?: string;
  /** Redis for shared limits; absent: in-process counters. Read only by a service that asks for Redis. */
  redisUrl?: string;
  /** A service that takes payments: its processor, and the payments lib's start-up warnings, logged first. */
  payments?: { provider: string; warnings?: readonly string[] };
}

/** The database as a start needs it: what it is, and how to close it last. */
export interface ServiceDb {
  kind: string;
  close(): Promise<void>;
}

/** What a service composed from its dependencies serves and runs. */
export interface ComposedService {
  app: Express;
  /** Starts what runs beside the HTTP server (workers), once it listens. */
  start?(): void;
  /** Stops it at shutdown: after the server drained, before observability and the database close. */
  stop?(): Promise<void>;
  /** Fields of the "<name> listening" line besides url, metricsUrl and tracing. */
  log?: Record<string, unknown>;
}

export interface ServiceDefinition<C extends ServiceConfig, D extends ServiceDb> {
  /** The service's name: its logger, metrics and traces. */
  name: string;
  /** Reads and checks the environment (throws a ConfigError, printed as one line). */
  loadConfig(): C;
  /** Opens the database, then migrates it and syncs the catalog: both steps can say PostgreSQL is unreachable. */
  database(config: C): { open(): Promise<D>; prepare(db: D): Promise<{ applied: readonly string[]; plans: number }> };
  /** Connects to Redis when the config names one (REDIS_URL), logging each outage in one line. */
  redis?: boolean;
  /** More configuration errors that print as one line (ConfigError and ObservabilityConfigError always do). */
  configErrors?: ReadonlyArray<new (...args: never[]) => Error>;
  compose(deps: {
    config: C;
    db: D;
    logger: Logger;
    redis: Redis | undefined;
    observability: Observability;
  }): ComposedService;
}

export interface StartedService {
  url: string;
  metricsUrl: string | undefined;
  logger: Logger;
  /** The shutdown: server (drains requests), the service's own stop, observability, Redis, database. */
  stop(): Promise<void>;
}

/**
 * Starts a service as every app's main.ts does: config, logger, observability (METRICS_PORT, a separate port never
 * behind the Ingress, and OTEL_EXPORTER_OTLP_ENDPOINT: docs/observability.md), database (every replica may run the
 * preparation: migrations take an advisory lock, the catalog sync is idempotent), Redis when asked, then the composed
 * app on its port, its workers, and one "<name> listening" line.
 */
export async function startService<C extends ServiceConfig, D extends ServiceDb>(
  definition: ServiceDefinition<C, D>,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<StartedService> {
  const config = definition.loadConfig();
  const logger = createLogger({ name: definition.name, level: config.logLevel });
  const obs = startObservability(definition.name, env);
  for (const warning of config.payments?.warnings ?? []) logger.warn(warning);
  const postgres = postgresAt(config.databaseUrl);
  const database = definition.database(config);
  const db = await reachAtStart(postgres, logger, () => database.open());
  const prepared = await reachAtStart(postgres, logger, () => database.prepare(db));
  logger.info({ db: db.kind, migrationsApplied: prepared.applied, plans: prepared.plans }, 'database ready');
  const redis =
    definition.redis && config.redisUrl
      ? logRedisOutages(
          new Redis(config.redisUrl, { maxRetriesPerRequest: 1 }),
          config.redisUrl,
          logger,
          obs.observability.metrics?.redisFallback,
        )
      : undefined;

  const service = definition.compose({ config, db, logger, redis, observability: obs.observability });
  const server = await listen(service.app, { port: config.port, host: config.host, logger });
  const metricsUrl = await obs.listen(config.host);
  service.start?.();
  logger.info(
    { url: server.url, metricsUrl, tracing: obs.observability.tracing?.enabled, ...service.log },
    `${definition.name} listening`,
  );
  return {
    url: server.url,
    metricsUrl,
    logger,
    async stop() {
      await server.close();
      await service.stop?.();
      await obs.close();
      redis?.disconnect();
      await db.close();
    },
  };
}

/**
 * An app's whole main.ts: starts the service, stops it on SIGTERM/SIGINT, and on a failed start prints one line saying
 * what to fix (a configuration error, an unreachable dependency, a port taken) or a bug in full, and exits 1.
 */
export function runService<C extends ServiceConfig, D extends ServiceDb>(definition: ServiceDefinition<C, D>): void {
  startService(definition)
    .then((started) => onShutdownSignal(started.logger, started.stop))
    .catch(exitOnStartFailure([ConfigError, ObservabilityConfigError, ...(definition.configErrors ?? [])]));
}
