/**
 * Benchmark (memory and leaks): quote-api, embed-api and webhook-dispatcher, each in its own process as deployed
 * (soak-app.server.ts, started with --expose-gc), over one throwaway PostgreSQL schema, under a modest fixed load for
 * BENCH_SOAK_SEC seconds (600; BENCH_QUICK=1: 20): 50 quotes/s, 100 embed polls/s (ready and pending quotes, 200
 * operators' keys), 20 processor events/s, each leading to a policy.issued delivery to a loopback receiver.
 * Every BENCH_SOAK_SEC/20 seconds each app's heap after a full GC and its RSS are sampled (after a scrape of its
 * metrics, as Prometheus would). Rows: each app's peak RSS, and its heap after GC at the end against the start
 * (goal: within 10 %); the curves go to results/soak.txt. Method: tools/bench/README.md.
 *
 *   npm run bench -- soak                          (BENCH_SOAK_SEC=120 for a shorter run)
 *   BENCH_SOAK_SNAPSHOTS=1 npm run bench -- soak   also writes heap snapshots after the warm-up and at the end
 *                                                  (SOAK_SNAPSHOT_DIR, default the temporary directory)
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { applyMigrations, createDatabase, splitSchemaParam, syncCatalog, type Database } from '@expedition/db';
import { isPostgresReachable, testDatabaseUrl } from '@expedition/db/testing';
import { catalogSnapshot } from '@expedition/domain-pricing';
import { createSecretBox, parseWebhookSecretKeys } from '@expedition/operators';
import { envVar, optionalVar, parseConfig, systemClock } from '@expedition/platform';
import { withoutEndpoints } from '@expedition/platform/testing';
import { createQuoteService } from '@expedition/quoting';
import { signPayload } from '@expedition/webhook-signature';
import { startServerChild, type ServerChild } from './child';
import { loadBenchConfig, type BenchConfig } from './config';
import { paymentEvent, quoteAwaitingPayment, startReceiver, type Receiver } from './dispatcher-throughput.helpers';
import { QUOTE_BODY } from './quote-create';
import { SOAK_APPS, type MemoryReport, type SoakApp, type SoakAppTargets, type SoakFigures } from './soak.types';
import { clientAddress, closeClients, getJson, send, startStreams, warmUp, type Stream } from './soak.driver';
import { plotCurve, sampleTable, type Point } from './soak.plot';
import { EMBED_OPERATORS, seedSoak, type Seeded } from './soak.seed';
import { soakRows } from './soak.rows';

export const RATES = { quotes: 50, polls: 100, events: 20 } as const;
const SAMPLES = 20;
/** quote-api's clients (its default limit is per client: 120 a minute). */
const CLIENTS = 5_000;
const PROCESSOR_SECRET = 'whsec_soak_processor';
const root = path.resolve(__dirname, '..', '..');

const SoakEnvSchema = z.object({
  BENCH_SOAK_SEC: envVar.int({ min: 5, max: 3_600 }),
  BENCH_SOAK_SNAPSHOTS: optionalVar(z.enum(['0', '1'])),
});

export function soakSettings(config: Readonly<BenchConfig>) {
  const env = parseConfig(SoakEnvSchema, process.env);
  const soakSec = env.BENCH_SOAK_SEC ?? (config.quick ? 20 : 600);
  // A quick run checks the harness: a fifth of the rates, over a fifth of the operators (the same polls per key).
  const scale = config.quick ? 0.2 : 1;
  return {
    soakSec,
    // A minute, or a quarter of a shorter run: start-up allocations (JIT, pools, caches filling) settle first.
    warmupSec: Math.min(60, soakSec / 4),
    rates: { quotes: RATES.quotes * scale, polls: RATES.polls * scale, events: RATES.events * scale },
    operators: Math.round(EMBED_OPERATORS * scale),
    snapshots: env.BENCH_SOAK_SNAPSHOTS === '1',
  };
}
type Settings = ReturnType<typeof soakSettings>;

/** One migrated schema with the catalog, for the three apps; dropped by `drop()`. */
async function prepareSchema(): Promise<{ db: Database; url: string; schema: string; drop(): Promise<void> }> {
  const { url } = splitSchemaParam(testDatabaseUrl());
  const schema = `soak_${randomBytes(4).toString('hex')}`;
  const db = await createDatabase({ databaseUrl: url, schema, poolMax: 4 });
  const drop = async () => {
    await db.withConnection((sql) => sql.exec(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`)).catch(() => undefined);
    await db.close();
  };
  try {
    await applyMigrations(db);
    await syncCatalog(db.prisma, catalogSnapshot());
  } catch (err) {
    await drop();
    throw err;
  }
  return { db, url, schema, drop };
}

async function startApps(
  env: Record<string, string | undefined>,
): Promise<Record<SoakApp, ServerChild<SoakAppTargets>>> {
  const started = await Promise.allSettled(
    SOAK_APPS.map((app) => startServerChild<SoakAppTargets>('soak-app.server.ts', { ...env, SOAK_APP: app })),
  );
  const failed = started.find((s) => s.status === 'rejected');
  if (failed) {
    await Promise.all(started.map((s) => (s.status === 'fulfilled' ? s.value.stop() : undefined)));
    throw (failed as PromiseRejectedResult).reason;
  }
  const children = started.map((s) => (s as PromiseFulfilledResult<ServerChild<SoakAppTargets>>).value);
  return Object.fromEntries(SOAK_APPS.map((app, i) => [app, children[i]!])) as Record<
    SoakApp,
    ServerChild<SoakAppTargets>
  >;
}

/** Each app: a scrape of its metrics, then its memory after a full GC (one app at a time). */
async function sample(apps: Record<SoakApp, ServerChild<SoakAppTargets>>): Promise<Record<SoakApp, MemoryReport>> {
  const out = {} as Record<SoakApp, MemoryReport>;
  for (const app of SOAK_APPS) {
    const { metricsUrl, controlUrl } = apps[app].targets;
    if (metricsUrl) await send('GET', metricsUrl).catch(() => undefined);
    out[app] = await getJson<MemoryReport>(`${controlUrl}/memory`);
  }
  return out;
}

async function snapshot(apps: Record<SoakApp, ServerChild<SoakAppTargets>>, label: string): Promise<void> {
  for (const app of SOAK_APPS) {
    const { file } = await getJson<{ file: string }>(`${apps[app].targets.controlUrl}/snapshot`);
    process.stderr.write(`soak: ${app} heap snapshot (${label}): ${file}\n`);
  }
}

function eventSender(db: Database, seeded: Seeded, intakeUrl: string) {
  const quotes = createQuoteService({ prisma: db.prisma, clock: systemClock });
  const operatorId = seeded.deliveryOperatorId;
  // Each event pays for a quote of the delivering operator, written as checkout would write it (quote + payment).
  return async (seq: number): Promise<number> => {
    const paid = await quoteAwaitingPayment(db.prisma, quotes, {
      operatorId,
      // The id paymentEvent gives the processor's payment intent for this quote.
      paymentId: (quoteId) => `pi_bench_${seq}_${quoteId}`,
      email: `buyer-${seq}@example.com`,
    });
    const event = paymentEvent(paid.quoteId, paid.planId, operatorId, paid.premiumCents, seq);
    const body = JSON.stringify(event);
    const signature = signPayload(body, PROCESSOR_SECRET, Math.floor(Date.now() / 1000));
    return (await send('POST', intakeUrl, { body, headers: { 'Stripe-Signature': signature } })).status;
  };
}

async function drive(
  db: Database,
  apps: Record<SoakApp, ServerChild<SoakAppTargets>>,
  seeded: Seeded,
  settings: Settings,
  receiver: Receiver,
): Promise<Omit<SoakFigures, 'plotFile' | 'soakSec' | 'warmupSec' | 'rates'>> {
  const { soakSec, warmupSec } = settings;
  const quoteUrl = `${apps['quote-api'].targets.url}/api/v1/quotes`;
  const optionsUrl = `${apps['embed-api'].targets.url}/api/embed/options`;
  const quoteBody = JSON.stringify(QUOTE_BODY);
  const plan: Stream[] = [
    {
      name: 'quotes',
      rate: settings.rates.quotes,
      fire: async (seq) =>
        (await send('POST', quoteUrl, { body: quoteBody, headers: { 'X-Forwarded-For': clientAddress(seq, CLIENTS) } }))
          .status,
    },
    {
      // Operator by operator, its ready quote then its pending one (a pending poll reads the database).
      name: 'polls',
      rate: settings.rates.polls,
      fire: async (seq) => {
        const op = seeded.embed[Math.floor(seq / 2) % seeded.embed.length]!;
        const quoteId = seq % 2 ? op.pendingQuoteId : op.readyQuoteId;
        const headers = { 'X-SVC-Publishable-Key': op.key, Origin: op.origin };
        return (await send('GET', `${optionsUrl}?quoteId=${quoteId}`, { headers })).status;
      },
    },
    {
      name: 'events',
      rate: settings.rates.events,
      fire: eventSender(db, seeded, `${apps['webhook-dispatcher'].targets.url}/processor/events`),
    },
  ];
  await warmUp(plan);
  // The warm-up's deliveries are not the load's.
  await Promise.race([receiver.waitFor(3), new Promise((resolve) => setTimeout(resolve, 10_000).unref())]);
  receiver.reset();
  const streams = startStreams(plan);
  const curves = Object.fromEntries(SOAK_APPS.map((app) => [app, [] as Point[]])) as Record<SoakApp, Point[]>;
  const reports: Record<SoakApp, MemoryReport[]> = { 'quote-api': [], 'embed-api': [], 'webhook-dispatcher': [] };
  const startedAt = performance.now();
  const stepMs = (soakSec * 1000) / SAMPLES;
  let snapshotTaken = false;
  try {
    // Samples k = 0 … SAMPLES at k × step; one that comes late (an app answering late) skips those already past,
    // so the run ends on time.
    for (let k = 0; ;) {
      const wait = startedAt + k * stepMs - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const t = (performance.now() - startedAt) / 1000;
      const memory = await sample(apps);
      for (const app of SOAK_APPS) {
        curves[app].push({ t, heapUsed: memory[app].heapUsed, rss: memory[app].rss });
        reports[app].push(memory[app]);
      }
      if (settings.snapshots && !snapshotTaken && t >= warmupSec) {
        snapshotTaken = true;
        await snapshot(apps, 'after the warm-up');
      }
      process.stderr.write(`soak: ${t.toFixed(0)} s, ${SOAK_APPS.map((a) => heapText(memory[a])).join(', ')}\n`);
      if (k === SAMPLES) break;
      k = Math.min(SAMPLES, Math.max(k + 1, Math.ceil((performance.now() - startedAt) / stepMs)));
    }
    if (settings.snapshots) await snapshot(apps, 'end');
  } finally {
    await streams.stop();
  }
  // Deliveries still on their way when the load stopped: wait for them (at most 30 s).
  const accepted = streams.stats['events']!.ok;
  await Promise.race([receiver.waitFor(accepted), new Promise((resolve) => setTimeout(resolve, 30_000).unref())]);
  const last = (app: SoakApp) => reports[app][reports[app].length - 1]!;
  const span = (app: SoakApp) => curves[app][curves[app].length - 1]!.t - curves[app][0]!.t;
  const byApp = <T>(f: (app: SoakApp) => T) =>
    Object.fromEntries(SOAK_APPS.map((a) => [a, f(a)])) as Record<SoakApp, T>;
  return {
    curves,
    peakRss: byApp((app) => last(app).peakRss),
    cpuShare: byApp((app) => (last(app).cpuMicros - reports[app][0]!.cpuMicros) / 1e6 / (span(app) || 1)),
    load: streams.stats as SoakFigures['load'],
    deliveries: receiver.arrivals.size,
  };
}

const heapText = (m: MemoryReport) => `${(m.heapUsed / 2 ** 20).toFixed(1)}/${(m.rss / 2 ** 20).toFixed(0)} MB`;

function writePlot(config: Readonly<BenchConfig>, figures: Omit<SoakFigures, 'plotFile'>, loadAtStart: number): string {
  const dir =
    process.env['BENCH_RESULTS_DIR'] ||
    (config.quick ? mkdtempSync(path.join(os.tmpdir(), 'bench-quick-')) : path.join(root, 'tools/bench/results'));
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'soak.txt');
  const { soakSec, warmupSec, curves, rates } = figures;
  const lines = [
    `npm run bench -- soak, ${new Date().toISOString().slice(0, 16)}Z: ${soakSec} s at ${rates.quotes} quotes/s, ` +
      `${rates.polls} embed polls/s, ${rates.events} processor events/s; one process per app; heap after a full GC ` +
      `every ${(soakSec / SAMPLES).toFixed(0)} s. Start: the median of the first 3 samples after the ${warmupSec.toFixed(0)} s ` +
      'warm-up; end: the median of the last 3.',
    // Others keeping the machine busy starve the apps (see their CPU share in the table's notes).
    `${os.cpus().length} CPUs; load average ${loadAtStart.toFixed(1)} before the soak, ${os.loadavg()[0]!.toFixed(1)} at its end.`,
    '',
    ...SOAK_APPS.flatMap((app) => [...plotCurve(app, curves[app], warmupSec), '']),
    ...sampleTable(curves),
    '',
  ];
  writeFileSync(file, lines.join('\n'));
  return path.relative(root, file).startsWith('..') ? file : path.relative(root, file);
}

export async function measureSoak(config: Readonly<BenchConfig> = loadBenchConfig()): Promise<SoakFigures> {
  const settings = soakSettings(config);
  const loadAtStart = os.loadavg()[0]!;
  const began = performance.now();
  const since = () => `${((performance.now() - began) / 1000).toFixed(1)} s`;
  const schema = await prepareSchema();
  const receiver = await startReceiver();
  let apps: Record<SoakApp, ServerChild<SoakAppTargets>> | undefined;
  try {
    const keys = `soak:${randomBytes(32).toString('base64')}`;
    const secretBox = createSecretBox(parseWebhookSecretKeys(keys));
    process.stderr.write(`soak: schema ${schema.schema} migrated (${since()}); starting the three apps…\n`);
    apps = await startApps({
      ...withoutEndpoints(config.childEnv),
      NODE_OPTIONS: [process.env['NODE_OPTIONS'], '--expose-gc'].filter(Boolean).join(' '),
      SOAK_DB: schema.url,
      SOAK_SCHEMA: schema.schema,
      SOAK_PROCESSOR_SECRET: PROCESSOR_SECRET,
      WEBHOOK_SECRET_KEYS: keys,
    });
    process.stderr.write(`soak: apps listening (${since()}); seeding…\n`);
    const seeded = await seedSoak(
      schema.db,
      apps['embed-api'].targets.url,
      settings.operators,
      secretBox,
      receiver.url,
    );
    process.stderr.write(`soak: seeded (${since()}); ${settings.soakSec} s of load…\n`);
    const measured = await drive(schema.db, apps, seeded, settings, receiver);
    const figures = { ...measured, soakSec: settings.soakSec, warmupSec: settings.warmupSec, rates: settings.rates };
    return { ...figures, plotFile: writePlot(config, figures, loadAtStart) };
  } finally {
    closeClients();
    if (apps) await Promise.all(Object.values(apps).map((a) => a.stop()));
    await receiver.close();
    await schema.drop();
  }
}

export async function benchSoak(config: Readonly<BenchConfig> = loadBenchConfig()) {
  if (!(await isPostgresReachable()))
    return soakRows(null, 'PostgreSQL unreachable (TEST_DATABASE_URL): the three processes share it');
  return soakRows(await measureSoak(config));
}

if (require.main === module) {
  benchSoak()
    .then((rows) =>
      console.table(
        rows.map(({ figure, ours, baseline, ratio, goal, met }) => ({ figure, ours, baseline, ratio, goal, met })),
      ),
    )
    .catch((err) => {
      console.error(err);
      process.exit(1);
    });
}
