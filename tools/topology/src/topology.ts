import { randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createDatabase, type Database } from '@expedition/db';
import {
  createOperatorService,
  createSecretBox,
  ensureDemoOperator,
  parseWebhookSecretKeys,
} from '@expedition/operators';
import { startLoadBalancer, startWebhookReceiver, type LoadBalancer, type WebhookReceiver } from './network';
import { appProcess, type AppProcess } from './processes';
import { startPrivatePostgres, startPrivateRedis, type PrivatePostgres, type PrivateRedis } from './services';

/** Every port of the topology, inside the range reserved for it (16400–16599). */
export const PORTS = {
  postgres: 16400,
  redis: 16401,
  intakeLoadBalancer: 16402,
  receiver: 16403,
  quoteApi: [16411, 16412],
  embedApi: [16421, 16422],
  dispatcher: [16431, 16432],
} as const;

/** The operator's site: the Origin the embed gate checks. */
export const SITE_ORIGIN = 'http://operator-site.test';

export interface Topology {
  /** What the migration Job printed, or null when the build has no migrate.js (the apps then migrate at start). */
  migrationJob: string | null;
  postgres: PrivatePostgres;
  redis: PrivateRedis;
  quoteApi: AppProcess[];
  embedApi: AppProcess[];
  dispatcher: AppProcess[];
  all(): AppProcess[];
  intake: LoadBalancer;
  receiver: WebhookReceiver;
  /** The harness's own connection (seeding operators and reading what the apps wrote). */
  db: Database;
  operatorId: string;
  /** A fresh test publishable key of the operator: each check gets its own 60/minute budget. */
  mintKey(): Promise<string>;
  /** Stops every process and service and removes every temp dir; safe to call twice. */
  stop(): Promise<void>;
}

export interface TopologyOptions {
  /** The built apps: `<distDir>/<app>/main.js`. */
  distDir: string;
  pgBin: string;
  redisServer: string;
}

function runMigrationJob(distDir: string, env: NodeJS.ProcessEnv): string | null {
  const job = path.join(distDir, 'webhook-dispatcher', 'migrate.js');
  if (!existsSync(job)) return null;
  return execFileSync(process.execPath, [job], {
    cwd: path.dirname(job),
    env,
    encoding: 'utf8',
    timeout: 120_000,
  }).trim();
}

/**
 * Brings up the deployed topology on one machine: a private PostgreSQL and Redis, two replicas each of the BUILT
 * quote-api, embed-api and webhook-dispatcher (`node dist/apps/<app>/main.js`, env config only; every replica runs
 * the migrations at start under the runner's advisory lock, as in production), a load balancer in front of the
 * dispatchers' processor intake and the operator's webhook receiver.
 */
export async function startTopology(options: TopologyOptions): Promise<Topology> {
  const cleanups: (() => Promise<void>)[] = [];
  const stopAll = async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
  };
  try {
    const postgres = await startPrivatePostgres({ pgBin: options.pgBin, port: PORTS.postgres });
    cleanups.push(() => postgres.destroy());
    const redis = await startPrivateRedis({ redisServer: options.redisServer, port: PORTS.redis });
    cleanups.push(() => redis.destroy());
    const dataDir = mkdtempSync(path.join(tmpdir(), 'expedition-topology-data-'));
    cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));

    const receiver = await startWebhookReceiver({ port: PORTS.receiver });
    cleanups.push(() => receiver.close());
    const dispatcherUrls = PORTS.dispatcher.map((p) => `http://127.0.0.1:${p}`);
    const intake = await startLoadBalancer({ port: PORTS.intakeLoadBalancer, backends: () => dispatcherUrls });
    cleanups.push(() => intake.close());

    const webhookSecretKeys = `topology:${randomBytes(32).toString('base64')}`;
    const common = {
      NODE_ENV: 'development',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      DATABASE_URL: postgres.url,
      REDIS_URL: redis.url,
      DATA_DIR: dataDir,
      PAYMENTS_PROVIDER: 'simulated',
      SIMULATED_PROCESSOR_WEBHOOK_URL: `${intake.url}/processor/events`,
      SIMULATED_PROCESSOR_WEBHOOK_SECRET: `whsec_sim_${randomBytes(24).toString('hex')}`,
      WEBHOOK_SECRET_KEYS: webhookSecretKeys,
      // One secret for every app that hands out a policy's access token (derived, never stored: docs/decisions.md).
      POLICY_TOKEN_SECRET: `policy-tokens-${randomBytes(24).toString('hex')}`,
      QUOTE_API_URL: `http://127.0.0.1:${PORTS.quoteApi[0]}`,
      EMBED_URL: `http://127.0.0.1:${PORTS.embedApi[0]}`,
      WIDGET_URL: 'http://127.0.0.1:16404',
      PORTAL_URL: 'http://127.0.0.1:16405',
    };
    const quoteApi = PORTS.quoteApi.map((port, i) =>
      appProcess({
        distDir: options.distDir,
        app: 'quote-api',
        name: `quote-api#${i + 1}`,
        port,
        env: {
          ...common,
          QUOTE_API_PORT: String(port),
          // Shared by both replicas: a challenge issued by one is redeemed at the other.
          MPP_SECRET_KEY: `mpp_${randomBytes(24).toString('hex')}`,
          // The per-client limit of /api/v1 is not under test here; the harness is one client sending 1,000s.
          QUOTE_API_RATE_LIMIT_PER_MINUTE: '1000000',
        },
      }),
    );
    const mppSecret = quoteApi[0]!.env['MPP_SECRET_KEY'];
    for (const q of quoteApi) q.env['MPP_SECRET_KEY'] = mppSecret;
    const embedApi = PORTS.embedApi.map((port, i) =>
      appProcess({
        distDir: options.distDir,
        app: 'embed-api',
        name: `embed-api#${i + 1}`,
        port,
        env: { ...common, EMBED_API_PORT: String(port), EMBED_OPTIONS_POLL_MS: '200', EMBED_KEY_CACHE_TTL_MS: '1000' },
      }),
    );
    const dispatcher = PORTS.dispatcher.map((port, i) =>
      appProcess({
        distDir: options.distDir,
        app: 'webhook-dispatcher',
        name: `webhook-dispatcher#${i + 1}`,
        port,
        env: {
          ...common,
          DISPATCHER_PORT: String(port),
          WEBHOOK_POLL_INTERVAL_MS: '100',
          WEBHOOK_RETRY_DELAYS_MS: '300,300',
          // Small on purpose: a killed replica's leased rows come back to the other within ~3 s.
          WEBHOOK_TIMEOUT_MS: '2000',
          WEBHOOK_LEASE_MS: '3000',
          WEBHOOK_BATCH_SIZE: '20',
          // Both replicas reconcile every second, so the two race on the same unfinished attempts.
          PAYMENTS_RECONCILE_INTERVAL_MS: '1000',
        },
      }),
    );
    const all = () => [...quoteApi, ...embedApi, ...dispatcher];
    cleanups.push(async () => {
      await Promise.all(all().map((p) => p.stop()));
    });
    // The release step first, as the migration Job does (dist/apps/<app>/migrate.js), when the build has it; then all
    // six at once: each app also migrates at start (idempotent, advisory lock), like replicas rolling out together.
    const migrated = runMigrationJob(options.distDir, { PATH: process.env['PATH'], DATABASE_URL: postgres.url });
    await Promise.all(all().map((p) => p.start()));

    const db = await createDatabase({ databaseUrl: postgres.url });
    cleanups.push(() => db.close());
    const secretBox = createSecretBox(parseWebhookSecretKeys(webhookSecretKeys));
    const demo = await ensureDemoOperator({
      prisma: db.prisma,
      dataDir,
      demoOrigin: SITE_ORIGIN,
      webhookUrl: receiver.url,
      secretBox,
    });
    await db.prisma.operator.update({ where: { id: demo.operatorId }, data: { embeddingEnabled: true } });
    receiver.setSecret(demo.webhookSecret);
    const operators = createOperatorService({ prisma: db.prisma, secretBox });

    return {
      migrationJob: migrated,
      postgres,
      redis,
      quoteApi,
      embedApi,
      dispatcher,
      all,
      intake,
      receiver,
      db,
      operatorId: demo.operatorId,
      mintKey: async () => (await operators.mintPublishableKey(demo.operatorId, 'test', 'topology')).key,
      stop: stopAll,
    };
  } catch (err) {
    await stopAll();
    throw err;
  }
}
