/**
 * `npm run admin -- <command>`: the platform team's operator administration (no portal yet). Thin wrapper: every
 * behaviour lives in runAdmin (src/run-admin.ts), which tests drive in-process.
 */
import { createDatabase, prepareDatabase } from '@expedition/db';
import { catalogSnapshot } from '@expedition/domain-pricing';
import { resolveWebhookSecretKeys } from '@expedition/operators';
import { paymentsSettingsFromEnv } from '@expedition/payments';
import { runAdmin } from './src/run-admin';
import { loadAdminConfig } from './config';
import { ConfigError } from '@expedition/platform';

let config: ReturnType<typeof loadAdminConfig>;
try {
  config = loadAdminConfig();
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  process.stderr.write(`error: ${error.message}\n`);
  process.exit(1);
}
const { databaseUrl, dataDir } = config;

runAdmin(process.argv.slice(2), {
  openDatabase: () => createDatabase({ databaseUrl, dataDir }),
  prepareDatabase: (db) => prepareDatabase(db, { catalog: catalogSnapshot() }),
  dataDir,
  usingDatabaseUrl: databaseUrl !== undefined,
  paymentsSettings: () => paymentsSettingsFromEnv(process.env),
  webhookSecretKeys: () =>
    resolveWebhookSecretKeys({ configured: config.webhookSecretKeys, embedded: databaseUrl === undefined, dataDir }),
  demoOrigin: config.demoOrigin,
  demoWebhookUrl: config.demoWebhookUrl,
  allowPrivateWebhookUrls: config.allowPrivateWebhookUrls,
})
  .then((result) => {
    process.stdout.write(result.stdout);
    process.stderr.write(result.stderr);
    process.exitCode = result.exitCode;
  })
  .catch((error: unknown) => {
    // runAdmin turns every failure into a result; this is only a last resort, still without a stack trace.
    process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
