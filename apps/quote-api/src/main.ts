import Redis from 'ioredis';
import { bundledMigrationsDir, createDatabase, prepareDatabase } from '@expedition/db';
import { catalogSnapshot } from '@expedition/domain-pricing';
import {
  createLogger,
  exitOnStartFailure,
  listen,
  logRedisOutages,
  onShutdownSignal,
  postgresAt,
  reachAtStart,
} from '@expedition/http-kit';
import { ObservabilityConfigError, startObservability } from '@expedition/observability';
import { ConfigError } from '@expedition/platform';
import { composeQuoteApi } from './compose';
import { loadConfig } from './config';

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger({ name: 'quote-api', level: config.logLevel });
  // METRICS_PORT (a separate port, never behind the Ingress) and OTEL_EXPORTER_OTLP_ENDPOINT: docs/observability.md.
  const obs = startObservability('quote-api', process.env);
  for (const warning of config.payments.warnings) logger.warn(warning);
  const postgres = postgresAt(config.databaseUrl);
  const db = await reachAtStart(postgres, logger, () =>
    createDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir }),
  );
  // Every replica may run this at start: migrations take an advisory lock, the catalog sync is idempotent.
  const prepared = await reachAtStart(postgres, logger, () =>
    prepareDatabase(db, { catalog: catalogSnapshot(), migrationsDir: bundledMigrationsDir(__dirname) }),
  );
  logger.info({ db: db.kind, migrationsApplied: prepared.applied, plans: prepared.plans }, 'database ready');
  const redis = config.redisUrl
    ? logRedisOutages(
        new Redis(config.redisUrl, { maxRetriesPerRequest: 1 }),
        config.redisUrl,
        logger,
        obs.observability.metrics?.redisFallback,
      )
    : undefined;

  const app = composeQuoteApi({ config, db, logger, redis, observability: obs.observability });
  const server = await listen(app, { port: config.port, host: config.host, logger });
  const metricsUrl = await obs.listen(config.host);
  logger.info(
    {
      url: server.url,
      metricsUrl,
      tracing: obs.observability.tracing?.enabled,
      publicUrl: config.publicUrl,
      redis: Boolean(redis),
    },
    'quote-api listening',
  );

  onShutdownSignal(logger, async () => {
    await server.close();
    await obs.close();
    redis?.disconnect();
    await db.close();
  });
}

// A configuration error or an unreachable dependency is one line saying what to fix; a bug prints in full.
main().catch(exitOnStartFailure([ConfigError, ObservabilityConfigError]));
