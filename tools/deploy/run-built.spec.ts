import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { describeWithPostgres, testDatabaseUrl } from '@expedition/db/testing';
import { closedPort, isRedisReachableSync, testRedisUrl } from '@expedition/platform/testing';
import {
  APPS,
  copyArtifact,
  distDir,
  npmCi,
  removeDir,
  runNode,
  startNode,
  waitForStatus,
  type AppName,
} from './src/app-artifacts';

/**
 * Issue 12 §1: each dist/apps/<app>, copied to an EMPTY folder, runs with only `npm ci` of its own pruned manifest and
 * environment variables: the migration step (`node migrate.js`, what the Kubernetes Job runs) on a fresh PostgreSQL
 * database, then `node main.js` answers /healthz and /readyz 200 and drains on SIGTERM. And a bad or missing
 * variable stops the BUILT process with one line naming it.
 */
const SIM_SECRET = `whsec_sim_${randomBytes(24).toString('hex')}`;
const KEYRING = `k1:${randomBytes(32).toString('base64')}`;
const scratch = mkdtempSync(path.join(os.tmpdir(), 'deploy-data-'));

/** What each app needs beyond DATABASE_URL in a deployed (not production) run on the simulated processor. */
const APP_ENV: Record<AppName, Record<string, string>> = {
  'quote-api': { SIMULATED_PROCESSOR_WEBHOOK_SECRET: SIM_SECRET },
  'embed-api': { SIMULATED_PROCESSOR_WEBHOOK_SECRET: SIM_SECRET },
  'widget-iframe': {},
  'operator-portal': { WEBHOOK_SECRET_KEYS: KEYRING },
  'webhook-dispatcher': { SIMULATED_PROCESSOR_WEBHOOK_SECRET: SIM_SECRET, WEBHOOK_SECRET_KEYS: KEYRING },
};

afterAll(() => removeDir(scratch));

describe('config errors of the built processes: one line naming the variable, never a stack trace', () => {
  interface Case {
    app: AppName;
    title: string;
    env: Record<string, string>;
    names: string[];
  }
  const cases: Case[] = APPS.flatMap(({ app, portVar }): Case[] => [
    { app, title: `${portVar}=not-a-port`, env: { [portVar]: 'not-a-port' }, names: [portVar] },
    { app, title: 'LOG_LEVEL=loud', env: { LOG_LEVEL: 'loud' }, names: ['LOG_LEVEL'] },
    {
      app,
      title: 'NODE_ENV=production without DATABASE_URL',
      env: { NODE_ENV: 'production' },
      names: ['DATABASE_URL'],
    },
  ]);
  cases.push(
    {
      app: 'quote-api',
      title: 'production without MPP_SECRET_KEY and POLICY_TOKEN_SECRET',
      env: { NODE_ENV: 'production', DATABASE_URL: 'postgresql://db/x' },
      names: ['MPP_SECRET_KEY', 'POLICY_TOKEN_SECRET'],
    },
    {
      app: 'embed-api',
      title: 'production without POLICY_TOKEN_SECRET',
      env: { NODE_ENV: 'production', DATABASE_URL: 'postgresql://db/x' },
      names: ['POLICY_TOKEN_SECRET'],
    },
    {
      app: 'operator-portal',
      title: 'production without the keyring and SMTP',
      env: { NODE_ENV: 'production', DATABASE_URL: 'postgresql://db/x' },
      names: ['SMTP_URL', 'WEBHOOK_SECRET_KEYS'],
    },
    {
      app: 'operator-portal',
      title: 'a bad keyring',
      env: { DATABASE_URL: 'postgresql://db/x', WEBHOOK_SECRET_KEYS: 'k1:short' },
      names: ['WEBHOOK_SECRET_KEYS'],
    },
    {
      app: 'webhook-dispatcher',
      title: 'production on the simulated processor',
      env: {
        NODE_ENV: 'production',
        DATABASE_URL: 'postgresql://db/x',
        WEBHOOK_SECRET_KEYS: KEYRING,
        POLICY_TOKEN_SECRET: 'p'.repeat(40),
      },
      names: ['PAYMENTS_PROVIDER'],
    },
    {
      app: 'embed-api',
      title: 'Stripe without its keys',
      env: { PAYMENTS_PROVIDER: 'stripe' },
      names: ['STRIPE_TEST_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET'],
    },
    {
      app: 'webhook-dispatcher',
      title: 'DATABASE_URL of another database',
      env: { DATABASE_URL: 'mysql://db/x' },
      names: ['DATABASE_URL'],
    },
  );

  it.each(cases)('$app: $title', ({ app, env, names }) => {
    const result = runNode(distDir(app), 'main.js', { DATA_DIR: path.join(scratch, app), ...env });
    expect(result.status).toBe(1);
    const lines = result.stderr.split('\n').filter((l) => l.trim() !== '');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^Invalid configuration: /);
    for (const name of names) expect(lines[0]).toContain(name);
    expect(result.stderr).not.toMatch(/^\s+at /m);
    expect(result.stdout).toBe('');
  });
});

describe('an unreachable database at start: one line saying what failed, where and what to check, never a stack trace', () => {
  let port: number;
  beforeAll(async () => {
    port = await closedPort();
  });

  it.each(APPS.map((a) => a.app))('%s', (app) => {
    const databaseUrl = `postgresql://app:s3cret@127.0.0.1:${port}/expedition`;
    const result = runNode(distDir(app), 'main.js', {
      DATA_DIR: path.join(scratch, app),
      DATABASE_URL: databaseUrl,
      ...APP_ENV[app],
    });
    expect(result.status).toBe(1);
    expect(result.stderr.split('\n').filter((l) => l.trim() !== '')).toEqual([
      `Cannot reach PostgreSQL at 127.0.0.1:${port} (DATABASE_URL): connection refused. ` +
        'Check that PostgreSQL is running and listening there, and that DATABASE_URL names the right host and port.',
    ]);
    expect(result.stdout + result.stderr).not.toContain('s3cret');
  });
});

describeWithPostgres()(
  'each artifact from an empty folder on PostgreSQL' + (isRedisReachableSync() ? ' and Redis' : ''),
  () => {
    const database = `deploy_${randomBytes(5).toString('hex')}`;
    const admin = new URL(testDatabaseUrl());
    const databaseUrl = Object.assign(new URL(admin.toString()), { pathname: `/${database}` }).toString();
    const redisUrl = isRedisReachableSync() ? testRedisUrl() : undefined;
    const folders: string[] = [];

    const sql = async (text: string) => {
      const client = new Client({ connectionString: admin.toString() });
      await client.connect();
      try {
        return await client.query(text);
      } finally {
        await client.end();
      }
    };

    beforeAll(async () => {
      await sql(`CREATE DATABASE "${database}"`);
    });

    afterAll(async () => {
      for (const dir of folders) removeDir(dir);
      await sql(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    });

    const install = (app: string): string => {
      const dir = copyArtifact(app);
      folders.push(dir);
      const ci = npmCi(dir);
      if (ci.status !== 0) throw new Error(`npm ci in ${app}'s artifact failed:\n${ci.output}`);
      return dir;
    };

    it('migrate.js (the release step) applies every migration and the catalog, then a second run applies none', async () => {
      const dir = install('quote-api');
      const first = runNode(dir, 'migrate.js', { DATABASE_URL: databaseUrl });
      expect([first.status, first.stderr]).toEqual([0, '']);
      const report = JSON.parse(first.stdout.trim()) as { migrationsApplied: string[]; plans: number };
      expect(report.migrationsApplied.length).toBeGreaterThan(0);
      expect(report.plans).toBeGreaterThan(0);
      const second = JSON.parse(runNode(dir, 'migrate.js', { DATABASE_URL: databaseUrl }).stdout.trim());
      expect(second.migrationsApplied).toEqual([]);
      const missing = runNode(dir, 'migrate.js', {});
      expect([missing.status, missing.stderr.trim()]).toEqual([
        1,
        'Invalid configuration: DATABASE_URL: required (the PostgreSQL to migrate)',
      ]);
    });

    it.each(APPS)(
      '$app: npm ci, node main.js → /healthz 200, /readyz 200, SIGTERM drains and exits 0',
      async ({ app, portVar, testPort }) => {
        const dir = install(app);
        const running = startNode(dir, 'main.js', {
          NODE_ENV: 'development',
          DATABASE_URL: databaseUrl,
          ...(redisUrl ? { REDIS_URL: redisUrl } : {}),
          HOST: '127.0.0.1',
          [portVar]: String(testPort),
          DATA_DIR: path.join(scratch, `${app}-data`),
          LOG_LEVEL: 'warn',
          WEBHOOK_WORKERS: '1',
          ...APP_ENV[app],
        });
        try {
          const base = `http://127.0.0.1:${testPort}`;
          const health = await waitForStatus(`${base}/healthz`, 200, running);
          const ready = await waitForStatus(`${base}/readyz`, 200, running, 30_000);
          expect({ health, ready, output: health === 200 && ready === 200 ? '' : running.output() }).toEqual({
            health: 200,
            ready: 200,
            output: '',
          });
        } finally {
          const code = await running.stop();
          expect({ code, output: code === 0 ? '' : running.output() }).toEqual({ code: 0, output: '' });
        }
      },
    );
  },
);
