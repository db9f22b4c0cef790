/**
 * Child process of quote-create.ts: serves POST /api/v1/quotes (1) through the full quote-api app (composeQuoteApi,
 * the same composition as `npm start`, rate limit raised out of reach) and (2) from the bare Express + `pg` baseline
 * (baselines/quote-insert.bare.ts), both over ONE throwaway PostgreSQL schema (dropped on exit) with pools of the
 * same size, on 127.0.0.1 only. Prints one JSON line describing the targets, then serves until stdin closes.
 */
import { randomBytes } from 'node:crypto';
import { Pool } from 'pg';
import { applyMigrations, createDatabase, splitSchemaParam, syncCatalog } from '@expedition/db';
import { testDatabaseUrl } from '@expedition/db/testing';
import { catalogSnapshot, priceQuote } from '@expedition/domain-pricing';
import { createLogger, listen } from '@expedition/http-kit';
// The bench drives the real app through its public index.ts, as the launcher does (the lint rule also flags the launcher).
// eslint-disable-next-line @nx/enforce-module-boundaries
import { composeQuoteApi, loadQuoteApiConfig } from '@expedition/app-quote-api';
import { createBareQuoteApp } from './baselines/quote-insert.bare';
import { loadBenchConfig } from './config';
import { QUOTE_BODY } from './quote-create';

const POOL = 10;

async function main(): Promise<void> {
  const { url } = splitSchemaParam(testDatabaseUrl());
  const schema = `bench_${randomBytes(4).toString('hex')}`;
  const db = await createDatabase({ databaseUrl: url, schema, poolMax: POOL });
  const pool = new Pool({ connectionString: url, max: POOL, options: `-c search_path=${schema}` });
  pool.on('error', () => undefined);
  const dropSchema = () => db.withConnection((sql) => sql.exec(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`));
  await applyMigrations(db);
  await syncCatalog(db.prisma, catalogSnapshot());

  const logger = createLogger({ name: 'quote-api-bench', level: loadBenchConfig().embed.logLevel });
  const config = loadQuoteApiConfig({
    ...process.env,
    QUOTE_API_RATE_LIMIT_PER_MINUTE: '1000000000',
    QUOTE_API_PORT: '0',
  });
  const ours = await listen(composeQuoteApi({ config, db, logger }), { port: 0, host: '127.0.0.1' });
  const pricing = priceQuote({
    ...QUOTE_BODY,
    tripCostCents: QUOTE_BODY.tripCost * 100,
    today: new Date().toISOString().slice(0, 10),
  });
  const bare = await listen(createBareQuoteApp(pool, pricing), { port: 0, host: '127.0.0.1' });

  process.stdout.write(
    `${JSON.stringify({ db: `postgres (schema ${schema})`, oursUrl: `${ours.url}/api/v1/quotes`, bareUrl: `${bare.url}/api/v1/quotes`, estimates: pricing.estimates.length })}\n`,
  );

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await Promise.all([ours.close(1_000), bare.close(1_000)]);
    await pool.end();
    await dropSchema().catch(() => undefined);
    await db.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop());
  process.once('SIGINT', () => void stop());
  process.stdin.on('end', () => void stop());
  process.stdin.resume();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
