/**
 * `npm run admin -- <command>`: the platform team's operator administration (no portal yet). Thin wrapper: every
 * behaviour lives in runAdmin (src/run-admin.ts), which tests drive in-process.
 */
import { createDatabase } from '@expedition/db';
import { resolveWebhookSecretKeys } from '@expedition/operators';
import { prepareDatabase } from '@expedition/quoting';
import { runAdmin } from './src/run-admin';
import { demoDefaults } from './src/demo-defaults';

const env = process.env;
const databaseUrl = env['DATABASE_URL'] || undefined;
const dataDir = env['DATA_DIR'] || '.data';

runAdmin(process.argv.slice(2), {
  openDatabase: () => createDatabase({ databaseUrl, dataDir }),
  prepareDatabase,
  dataDir,
  usingDatabaseUrl: databaseUrl !== undefined,
  webhookSecretKeys: () =>
    resolveWebhookSecretKeys({ configured: env['WEBHOOK_SECRET_KEYS'], embedded: databaseUrl === undefined, dataDir }),
  ...demoDefaults(env),
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
