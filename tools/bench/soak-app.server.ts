/**
 * Child process of soak.ts: ONE app as deployed (one process per app), named by SOAK_APP: quote-api, embed-api or
 * webhook-dispatcher (intake + delivery, refund, ACP-order and mail workers running). Composed as the launcher and
 * each app's main.ts compose it (compose*, metrics on a port of their own), over the PostgreSQL schema the parent
 * migrated (SOAK_DB, SOAK_SCHEMA), on 127.0.0.1 ports chosen by the system. Started with --expose-gc.
 *
 * Beside the app, a control port answers GET /memory (process.memoryUsage() after a full GC, and the peak RSS) and
 * GET /snapshot (v8.writeHeapSnapshot into SOAK_SNAPSHOT_DIR): the app's own port and routes stay as deployed.
 * Prints one JSON line describing its targets, then serves until stdin closes. Logs go to stderr.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import pino from 'pino';
import { createDatabase, type Database } from '@expedition/db';
import { listen } from '@expedition/http-kit';
import type { Mailer } from '@expedition/mail';
import { startObservability, type Observability } from '@expedition/observability';
import { createSimulatedProcessor } from '@expedition/payments';
import type { Logger } from '@expedition/platform';
// The bench drives the real apps through their public index.ts, as the launcher does (the lint rule also flags the launcher).
// eslint-disable-next-line @nx/enforce-module-boundaries
import { composeQuoteApi, loadQuoteApiConfig } from '@expedition/app-quote-api';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { composeEmbedApi, loadEmbedApiConfig } from '@expedition/app-embed-api';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { composeWebhookDispatcher, loadDispatcherConfig } from '@expedition/app-webhook-dispatcher';
import { loadBenchConfig } from './config';
import { SOAK_APPS, type MemoryReport, type SoakApp, type SoakAppTargets } from './soak.types';

interface Composed {
  app: Parameters<typeof listen>[0];
  start?(): void;
  stop?(): Promise<void>;
}

const env = process.env;

function required(name: string): string {
  const value = env[name];
  if (!value) throw new Error(`${name} is not set (soak-app.server.ts is started by soak.ts)`);
  return value;
}

function compose(app: SoakApp, db: Database, logger: Logger, observability: Observability): Composed {
  if (app === 'quote-api') {
    // Default limits: the parent spreads its quotes over many client addresses (X-Forwarded-For behind a trusted
    // proxy), as an Ingress would hand them over.
    const config = loadQuoteApiConfig({ ...env, TRUST_PROXY: 'loopback' });
    return { app: composeQuoteApi({ config, db, logger, observability }) };
  }
  if (app === 'embed-api') {
    const embed = composeEmbedApi({ config: loadEmbedApiConfig(env), db, logger, observability });
    return {
      app: embed.app,
      start: () => embed.optionsWorker.start(),
      stop: async () => {
        await embed.optionsWorker.stop();
        await embed.keyUsage.flush();
      },
    };
  }
  // The processor confirms payments the parent wrote as checkout would (no network; Stripe in production): the answer
  // is read from the payment row, so the stub keeps nothing in memory.
  const processor = createSimulatedProcessor({
    webhookUrl: 'http://127.0.0.1:9/unused',
    webhookSecret: required('SOAK_PROCESSOR_SECRET'),
  });
  processor.retrievePayment = async ({ paymentId }) => {
    const row = await db.prisma.payment.findUnique({
      where: { processorPaymentId: paymentId },
      select: { amountCents: true, quoteId: true },
    });
    if (!row) throw new Error(`unknown payment ${paymentId}`);
    return {
      paymentId,
      status: 'succeeded',
      amountCents: row.amountCents,
      currency: 'usd',
      metadata: { quoteId: row.quoteId },
      amountRefundedCents: 0,
    };
  };
  // Policy mails are rendered (certificate PDF) and handed to a mailer that drops them: no SMTP server, no files.
  const mailer: Mailer = { kind: 'outbox', send: async () => undefined };
  const config = loadDispatcherConfig({ ...env, WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });
  const dispatcher = composeWebhookDispatcher({ config, db, logger, processor, observability, mailer });
  return { app: dispatcher.app, start: () => dispatcher.workers.start(), stop: () => dispatcher.workers.stop() };
}

/** Peak resident set size so far (Linux: VmHWM); null where /proc is absent. */
function peakRss(): number | null {
  try {
    const kb = /VmHWM:\s+(\d+)\s+kB/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
    return kb === undefined ? null : Number(kb) * 1024;
  } catch {
    return null;
  }
}

function memoryAfterGc(): MemoryReport {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('started without --expose-gc');
  // Twice: objects freed by the first collection's finalizers (weak callbacks) go in the second.
  gc();
  gc();
  const { rss, heapUsed } = process.memoryUsage();
  const cpu = process.cpuUsage();
  return { rss, heapUsed, peakRss: peakRss(), cpuMicros: cpu.user + cpu.system };
}

async function startControl(app: SoakApp): Promise<{ url: string; server: Server }> {
  const dir = env['SOAK_SNAPSHOT_DIR'] || os.tmpdir();
  const server = createServer((req, res) => {
    try {
      let body: unknown;
      if (req.url === '/memory') body = memoryAfterGc();
      else if (req.url === '/snapshot')
        body = { file: v8.writeHeapSnapshot(path.join(dir, `soak-${app}-${Date.now()}.heapsnapshot`)) };
      else res.statusCode = 404;
      res.setHeader('Content-Type', 'application/json');
      res.end(JSON.stringify(body ?? { error: 'not found' }));
    } catch (err) {
      res.statusCode = 500;
      res.end(JSON.stringify({ error: (err as Error).message }));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

async function main(): Promise<void> {
  const app = required('SOAK_APP') as SoakApp;
  if (!SOAK_APPS.includes(app)) throw new Error(`SOAK_APP: one of ${SOAK_APPS.join(', ')}`);
  // The apps' pool size (libs/db: 10); the parent migrated the schema and synced the catalog.
  const db = await createDatabase({ databaseUrl: required('SOAK_DB'), schema: required('SOAK_SCHEMA'), poolMax: 10 });
  // stdout carries the one JSON line: the app's logs go to stderr.
  const logger = pino({ name: app, level: loadBenchConfig().http.logLevel }, pino.destination(2));
  const obs = startObservability(app, { METRICS_PORT: '0' });
  const composed = compose(app, db, logger, obs.observability);
  const server = await listen(composed.app, { port: 0, host: '127.0.0.1' });
  const metricsUrl = await obs.listen('127.0.0.1');
  composed.start?.();
  const control = await startControl(app);
  const targets: SoakAppTargets = {
    app,
    pid: process.pid,
    url: server.url,
    metricsUrl: metricsUrl ?? null,
    controlUrl: control.url,
  };
  process.stdout.write(`${JSON.stringify(targets)}\n`);

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await server.close(1_000);
    await composed.stop?.();
    await obs.close();
    control.server.close();
    await db.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop());
  process.once('SIGINT', () => void stop());
  // Never outlive the parent.
  process.stdin.on('end', () => void stop());
  process.stdin.resume();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
