/**
 * `npm start`: every app in ONE process on its own port, sharing one database (PGlite under DATA_DIR unless
 * DATABASE_URL is set), in-memory rate limits and the simulated payment processor. A composition root like each
 * app's main.ts; nothing here is used in production.
 */
import { createDatabase } from '@expedition/db';
import { createLogger, listen, onShutdownSignal, type RunningServer } from '@expedition/http-kit';
import { prepareDatabase } from '@expedition/quoting';
import { composeQuoteApi, loadQuoteApiConfig } from '@expedition/app-quote-api';

const env = process.env;
const dataDir = env.DATA_DIR || '.data';

async function main(): Promise<void> {
  const started = Date.now();
  const logger = createLogger({ name: 'launcher', level: env.LOG_LEVEL || 'warn' });
  const db = await createDatabase({ databaseUrl: env.DATABASE_URL || undefined, dataDir });
  const prepared = await prepareDatabase(db);

  const servers: { name: string; server: RunningServer; note: string }[] = [];
  const quoteConfig = loadQuoteApiConfig(env);
  servers.push({
    name: 'quote-api',
    note: 'AI agents: /api/v1 (OpenAPI at /api/v1/openapi.json)',
    server: await listen(composeQuoteApi({ config: quoteConfig, db, logger: logger.child({ app: 'quote-api' }) }), {
      port: quoteConfig.port,
      host: quoteConfig.host,
    }),
  });

  const quoteUrl = servers.find((s) => s.name === 'quote-api')?.server.url;
  const where = db.kind === 'pglite' ? `PGlite in ${dataDir}/pglite` : 'PostgreSQL (DATABASE_URL)';
  const lines = [
    '',
    'Expedition insurance platform — all apps in one process (embedded mode)',
    `  database   ${where}; ${prepared.applied.length} migration(s) applied now; ${prepared.plans} plans in the catalog`,
    `  payments   simulated test mode (no real money moves)`,
    '',
    ...servers.map((s) => `  ${s.name.padEnd(18)} ${s.server.url.padEnd(24)} ${s.note}`),
    '',
    'Try:',
    `  curl ${quoteUrl}/api/v1/destinations`,
    `  curl -X POST ${quoteUrl}/api/v1/quotes -H 'Content-Type: application/json' \\`,
    `    -d '{"destination":"Antarctica","startDate":"${nextYear()}-01-10","durationDays":14,"tripCost":24000,"travelers":2,"travelerAges":[45,72],"residence":"US","state":"CA"}'`,
    '',
    `Ready in ${((Date.now() - started) / 1000).toFixed(1)} s. Ctrl+C stops everything; data stays in ${dataDir}/.`,
    '',
  ];
  process.stdout.write(lines.join('\n'));

  onShutdownSignal(logger, async () => {
    await Promise.all(servers.map((s) => s.server.close(5_000)));
    await db.close();
  });
}

function nextYear(): number {
  return new Date().getUTCFullYear() + 1;
}

main().catch((err) => {
  console.error('Failed to start:', err instanceof Error ? err.message : err);
  process.exit(1);
});
