/**
 * Child process of quote-create.ts: serves POST /api/v1/quotes (1) through the full quote-api app (composeQuoteApi,
 * the same composition as `npm start`, rate limit raised out of reach) and (2) from the bare Express + `pg` baseline
 * (baselines/quote-insert.bare.ts), both over ONE throwaway PostgreSQL schema (dropped on exit) with pools of the
 * same size, on 127.0.0.1 only; with BENCH_DB=pglite, only the app, on a file-backed PGlite as `npm start` has. A
 * control server reports the process's event-loop delay, GC pauses and RSS over a window (the tail's profile).
 * Prints one JSON line describing the targets, then serves until stdin closes.
 */
import { priceQuote } from '@expedition/domain-pricing';
import { createLogger, listen } from '@expedition/http-kit';
// The bench drives the real app through its public index.ts, as the launcher does (the lint rule also flags the launcher).
// eslint-disable-next-line @nx/enforce-module-boundaries
import { composeQuoteApi, loadQuoteApiConfig } from '@expedition/app-quote-api';
import { benchDatabaseKind, openBenchDatabase } from './bench-database';
import { createBareQuoteApp } from './baselines/quote-insert.bare';
import { loadBenchConfig } from './config';
import { serveControl, runtimeStats } from './control-server';
import { QUOTE_BODY, type QuoteTargets } from './quote-create';

const POOL = 10;

async function main(): Promise<void> {
  const { db, pool, label, close } = await openBenchDatabase(benchDatabaseKind(), POOL);
  const stats = runtimeStats();

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
  const bare = pool ? await listen(createBareQuoteApp(pool, pricing), { port: 0, host: '127.0.0.1' }) : null;
  const control = await serveControl({
    'stats/reset': async () => stats.reset(),
    stats: async () => stats.read(),
  });
  const targets: QuoteTargets = {
    db: label,
    oursUrl: `${ours.url}/api/v1/quotes`,
    bareUrl: bare ? `${bare.url}/api/v1/quotes` : null,
    controlUrl: control.url,
    estimates: pricing.estimates.length,
  };
  process.stdout.write(`${JSON.stringify(targets)}\n`);

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    control.close();
    await Promise.all([ours.close(1_000), bare?.close(1_000)]);
    await close();
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
