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
import { composePortal } from './compose';
import { loadConfig } from './config';

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger({ name: 'operator-portal', level: config.logLevel });
  // METRICS_PORT (a separate port, never behind the Ingress) and OTEL_EXPORTER_OTLP_ENDPOINT: docs/observability.md.
  const obs = startObservability('operator-portal', process.env);
  const postgres = postgresAt(config.databaseUrl);
  const db = await reachAtStart(postgres, logger, () =>
    createDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir }),
  );
  const prepared = await reachAtStart(postgres, logger, () =>
    prepareDatabase(db, { catalog: catalogSnapshot(), migrationsDir: bundledMigrationsDir(__dirname) }),
  );
  logger.info({ db: db.kind, migrationsApplied: prepared.applied }, 'database ready');
  const redis = config.redisUrl
    ? logRedisOutages(
        new Redis(config.redisUrl, { maxRetriesPerRequest: 1 }),
        config.redisUrl,
        logger,
        obs.observability.metrics?.redisFallback,
      )
    : undefined;

  const portal = composePortal({ config, db, logger, redis, observability: obs.observability });
  const server = await listen(portal.app, { port: config.port, host: config.host, logger });
  const metricsUrl = await obs.listen(config.host);
  logger.info(
    {
      url: server.url,
      metricsUrl,
      tracing: obs.observability.tracing?.enabled,
      publicUrl: config.urls.portal,
      mail: portal.mailer.kind,
      outbox: portal.outboxDir,
      ui: portal.uiDir,
    },
    'operator-portal listening',
  );
  if (!config.urls.portal.startsWith('https://') && config.production) {
    logger.warn('PORTAL_URL is not https: session cookies are sent without Secure');
  }

  onShutdownSignal(logger, async () => {
    await server.close();
    redis?.disconnect();
    await obs.close();
    await db.close();
  });
}

// A configuration error or an unreachable dependency is one line saying what to fix; a bug prints in full.
main().catch(exitOnStartFailure([ConfigError, ObservabilityConfigError]));
