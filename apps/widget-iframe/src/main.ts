import { bundledMigrationsDir, createDatabase, prepareDatabase } from '@expedition/db';
import { catalogSnapshot } from '@expedition/domain-pricing';
import { createLogger, listen, onShutdownSignal } from '@expedition/http-kit';
import { ConfigError } from '@expedition/platform';
import { composeWidgetIframe } from './compose';
import { loadConfig } from './config';

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger({ name: 'widget-iframe', level: config.logLevel });
  const db = await createDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const prepared = await prepareDatabase(db, { catalog: catalogSnapshot(), migrationsDir: bundledMigrationsDir(__dirname) });
  logger.info({ db: db.kind, migrationsApplied: prepared.applied }, 'database ready');

  const widget = composeWidgetIframe({ config, db, logger });
  const server = await listen(widget.app, { port: config.port, host: config.host });
  logger.info(
    {
      url: server.url,
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
    await db.close();
  });
}

main().catch((err) => {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
