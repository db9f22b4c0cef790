import { bundledMigrationsDir, createDatabase, prepareDatabase } from '@expedition/db';
import { catalogSnapshot } from '@expedition/domain-pricing';
import {
  createLogger,
  exitOnStartFailure,
  listen,
  onShutdownSignal,
  postgresAt,
  reachAtStart,
} from '@expedition/http-kit';
import { ObservabilityConfigError, startObservability } from '@expedition/observability';
import { ConfigError } from '@expedition/platform';
import { WebhookSecretKeysError } from '@expedition/operators';
import { composeWebhookDispatcher } from './compose';
import { loadConfig } from './config';

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger({ name: 'webhook-dispatcher', level: config.logLevel });
  // METRICS_PORT (a separate port, never behind the Ingress) and OTEL_EXPORTER_OTLP_ENDPOINT: docs/observability.md.
  const obs = startObservability('webhook-dispatcher', process.env);
  for (const warning of config.payments.warnings) logger.warn(warning);
  const postgres = postgresAt(config.databaseUrl);
  const db = await reachAtStart(postgres, logger, () =>
    createDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, schema: config.databaseSchema }),
  );
  const prepared = await reachAtStart(postgres, logger, () =>
    prepareDatabase(db, { catalog: catalogSnapshot(), migrationsDir: bundledMigrationsDir(__dirname) }),
  );
  logger.info({ db: db.kind, migrationsApplied: prepared.applied, plans: prepared.plans }, 'database ready');

  const { app, workers } = composeWebhookDispatcher({ config, db, logger, observability: obs.observability });
  const server = await listen(app, { port: config.port, host: config.host, logger });
  const metricsUrl = await obs.listen(config.host);
  workers.start();
  logger.info(
    {
      url: server.url,
      metricsUrl,
      tracing: obs.observability.tracing?.enabled,
      provider: config.payments.provider,
      workers: config.delivery.workers,
      retryDelaysMs: config.delivery.retryDelaysMs,
    },
    'webhook-dispatcher listening',
  );

  onShutdownSignal(logger, async () => {
    await server.close();
    await workers.stop();
    await obs.close();
    await db.close();
  });
}

// A configuration error or an unreachable dependency is one line saying what to fix; a bug prints in full.
main().catch(exitOnStartFailure([ConfigError, WebhookSecretKeysError, ObservabilityConfigError]));
