/**
 * Child process of embed-options.ts: serves GET /api/embed/options for a ready quote (1) from a bare Express route,
 * (2) from the same route behind the real embed gate, (3) through the full embed-api app, and (4) through the app
 * for a quote whose poll reads the database every time; all on 127.0.0.1, over a throwaway test database (a PostgreSQL
 * schema dropped on exit, or in-memory PGlite) seeded with one operator, one test key and a ready quote.
 * Prints one JSON line describing the targets, then serves until SIGTERM.
 */
import express from 'express';
import { createEmbedGate, mintPublishableKey } from '@expedition/auth-publishable-key';
import { syncCatalog } from '@expedition/db';
import { createTestDatabase } from '@expedition/db/testing';
import { createLogger, listen } from '@expedition/http-kit';
import { createKeyResolver } from '@expedition/operators';
import { createRateLimiter, systemClock } from '@expedition/platform';
import { catalogSnapshot } from '@expedition/domain-pricing';
import { createOptionsWorker } from '@expedition/quoting';
// The bench drives the real app through its public index.ts, as the launcher does (the lint rule also flags the launcher).
// eslint-disable-next-line @nx/enforce-module-boundaries
import { createApp } from '@expedition/app-embed-api';
import { loadBenchConfig } from './config';

const ORIGIN = 'https://tours.example';

async function main(): Promise<void> {
  const db = await createTestDatabase();
  await syncCatalog(db.prisma, catalogSnapshot());
  const operator = await db.prisma.operator.create({
    data: {
      name: 'Bench Voyages',
      status: 'active',
      embeddingEnabled: true,
      allowedOrigins: { create: [{ origin: ORIGIN }] },
    },
  });
  const key = mintPublishableKey('test');
  await db.prisma.publishableKey.create({ data: { operatorId: operator.id, key, mode: 'test' } });

  const logger = createLogger({ name: 'embed-api-bench', level: loadBenchConfig().embed.logLevel });
  const gateDeps = {
    resolveKey: createKeyResolver(db.prisma).resolve,
    // The production limiter implementation with a budget the benchmark cannot exhaust: at the contract's 60 per
    // minute the run would measure 429s.
    rateLimiter: createRateLimiter({ points: 1_000_000_000, durationSec: 60 }),
    firstPartyOrigins: ['http://localhost:3003'],
    testDashboardOrigins: ['http://localhost:3004'],
  };
  const embed = createApp({ prisma: db.prisma, ready: () => db.ping(), logger, clock: systemClock, ...gateDeps });
  const embedServer = await listen(embed, { port: 0, host: '127.0.0.1' });
  const headers = { 'X-SVC-Publishable-Key': key, Origin: ORIGIN };

  const quoteId = await createQuote(embedServer.url, headers, { travelerAges: [45, 52] });
  await createOptionsWorker({ prisma: db.prisma }).runOnce();
  const ready = await fetch(`${embedServer.url}/api/embed/options?quoteId=${quoteId}`, { headers });
  const body = await ready.text();
  if (ready.status !== 200 || body.includes('"pending"')) throw new Error(`quote not ready: ${ready.status} ${body}`);
  // A not-eligible quote stays on the pending shape and is never cached: every poll reads the database.
  const pendingQuoteId = await createQuote(embedServer.url, headers, {});

  const send: express.RequestHandler = (_req, res) => {
    res.type('application/json').send(body);
  };
  const bare = plainExpress();
  bare.get('/api/embed/options', send);
  const bareServer = await listen(bare, { port: 0, host: '127.0.0.1' });
  // The same bare route behind the real gate (same key resolver over the database, same limiter): the gate's cost alone.
  const gated = plainExpress();
  gated.get('/api/embed/options', createEmbedGate({ ...gateDeps, allowQueryKey: () => true }), send);
  const gatedServer = await listen(gated, { port: 0, host: '127.0.0.1' });

  process.stdout.write(
    `${JSON.stringify({
      db: db.kind,
      headers,
      bareUrl: `${bareServer.url}/api/embed/options?quoteId=${quoteId}`,
      gateUrl: `${gatedServer.url}/api/embed/options?quoteId=${quoteId}`,
      appUrl: `${embedServer.url}/api/embed/options?quoteId=${quoteId}`,
      appDbUrl: `${embedServer.url}/api/embed/options?quoteId=${pendingQuoteId}`,
      bodyBytes: Buffer.byteLength(body),
    })}\n`,
  );

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await Promise.all([embedServer.close(1_000), bareServer.close(1_000), gatedServer.close(1_000)]);
    await db.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop());
  process.once('SIGINT', () => void stop());
  // Never outlive the parent.
  process.stdin.on('end', () => void stop());
  process.stdin.resume();
}

function plainExpress(): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  return app;
}

async function createQuote(baseUrl: string, headers: Record<string, string>, patch: object): Promise<string> {
  const res = await fetch(`${baseUrl}/api/embed/quote`, {
    method: 'POST',
    headers: { ...headers, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      destination: 'Antarctica',
      tripCost: 24000,
      travelers: 2,
      residence: 'GB',
      email: 'bench@example.com',
      startDate: `${new Date().getUTCFullYear() + 1}-01-10`,
      endDate: `${new Date().getUTCFullYear() + 1}-01-24`,
      ...patch,
    }),
  });
  const json = (await res.json()) as { quoteId?: string };
  if (res.status !== 200 || !json.quoteId)
    throw new Error(`quote creation failed: ${res.status} ${JSON.stringify(json)}`);
  return json.quoteId;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
