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
import { composeWidgetIframe } from './compose';
import { loadConfig } from './config';

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger({ name: 'widget-iframe', level: config.logLevel });
  // METRICS_PORT (a separate port, never behind the Ingress) and OTEL_EXPORTER_OTLP_ENDPOINT: docs/observability.md.
  const obs = startObservability('widget-iframe', process.env);
  const postgres = postgresAt(config.databaseUrl);
  const db = await reachAtStart(postgres, logger, () =>
    createDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir }),
  );
  const prepared = await reachAtStart(postgres, logger, () =>
    prepareDatabase(db, { catalog: catalogSnapshot(), migrationsDir: bundledMigrationsDir(__dirname) }),
  );
  logger.info({ db: db.kind, migrationsApplied: prepared.applied }, 'database ready');

  const widget = composeWidgetIframe({ config, db, logger, observability: obs.observability });
  const server = await listen(widget.app, { port: config.port, host: config.host, logger });
  const metricsUrl = await obs.listen(config.host);
  logger.info(
    {
      url: server.url,
      metricsUrl,
      tracing: obs.observability.tracing?.enabled,
      publicUrl: config.publicUrl,
      embedUrl: config.embedUrl,
      loaderDir: config.loaderDir,
      frameDir: config.frameDir,
      pinnedVersions: [...widget.releases.versions.keys()],
      refusedVersions: widget.releases.refused,
      paymentsProvider: config.payments.provider,
    },
    'widget-iframe listening',
  );

  onShutdownSignal(logger, async () => {
    await server.close();
    await obs.close();
    await db.close();
  });
}

// A configuration error or an unreachable dependency is one line saying what to fix; a bug prints in full.
main().catch(exitOnStartFailure([ConfigError, ObservabilityConfigError]));
