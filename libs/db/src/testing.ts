import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import type { PGlite } from '@electric-sql/pglite';
import { createDatabase, databaseFromPGlite, type Database } from './database';
import type { PrismaClient } from './generated/prisma/client';
import { pgliteExecutor } from './executor';
import type { Notifications, NotifyChannel } from './notifications';
import { readMigrations, runMigrations, applyMigrations, type Migration } from './migrations';
import { noteSkippedSuite, redactUrl, servicesRequired } from '@expedition/platform/testing';

export const DEFAULT_TEST_DATABASE_URL = 'postgresql://postgres@127.0.0.1:5432/test';

export interface CreateTestDatabaseOptions {
  /** 'auto' (default): PostgreSQL when reachable, else PGlite. */
  kind?: 'auto' | 'postgres' | 'pglite';
  migrationsDir?: string;
  /** PostgreSQL pool size: 4 keeps many test files within max_connections; benchmarks pass the apps' default, 10. */
  poolMax?: number;
  /** Every SQL statement the Prisma client sends (e.g. to prove two paths run the same statements). */
  onQuery?: (sql: string) => void;
}

export function testDatabaseUrl(): string {
  return process.env['TEST_DATABASE_URL'] || DEFAULT_TEST_DATABASE_URL;
}

// Per process (under jest: per test file, each has its own module registry).
const reachability = new Map<string, Promise<boolean>>();

async function probe(url: string): Promise<boolean> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export function isPostgresReachable(url: string = testDatabaseUrl()): Promise<boolean> {
  let cached = reachability.get(url);
  if (!cached) {
    cached = probe(url);
    reachability.set(url, cached);
  }
  return cached;
}

/** PostgreSQL suites: true to run, false to skip; throws when REQUIRE_SERVICES=1 and PostgreSQL is unreachable. */
export async function postgresAvailable(url: string = testDatabaseUrl()): Promise<boolean> {
  if (await isPostgresReachable(url)) return true;
  if (servicesRequired()) throw new Error(`REQUIRE_SERVICES=1 but PostgreSQL is unreachable at ${url}`);
  return false;
}

const syncReachability = new Map<string, boolean>();

/**
 * Synchronous variant for choosing `describe` vs `describe.skip` at collection time (jest cannot await there).
 * Probes from a child process; cached per process.
 */
export function isPostgresReachableSync(url: string = testDatabaseUrl()): boolean {
  const cached = syncReachability.get(url);
  if (cached !== undefined) return cached;
  const script =
    `const { Client } = require(${JSON.stringify(require.resolve('pg'))});` +
    `const c = new Client({ connectionString: process.argv[1], connectionTimeoutMillis: 2000 });` +
    `c.connect().then(() => c.query('SELECT 1')).then(() => process.exit(0), () => process.exit(1));`;
  const result = spawnSync(process.execPath, ['-e', script, url], { timeout: 5000, stdio: 'ignore' });
  const reachable = result.status === 0;
  syncReachability.set(url, reachable);
  return reachable;
}

/** `describe` when PostgreSQL is reachable, `describe.skip` otherwise; throws when REQUIRE_SERVICES=1 and it is not. */
export function describeWithPostgres(url: string = testDatabaseUrl()): jest.Describe {
  if (isPostgresReachableSync(url)) return describe;
  if (servicesRequired()) throw new Error(`REQUIRE_SERVICES=1 but PostgreSQL is unreachable at ${url}`);
  noteSkippedSuite(`PostgreSQL unreachable at ${redactUrl(url)} (set TEST_DATABASE_URL)`);
  return describe.skip;
}

async function createPostgresTestDatabase(
  url: string,
  migrations: Migration[],
  poolMax = 4,
  onQuery?: (sql: string) => void,
): Promise<Database> {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const db = await createDatabase({ databaseUrl: url, schema, poolMax, onQuery });
  // The simulated processor keeps its books beside the database's schema (docs/decisions.md, "One charge per quote
  // through any crash"): they go with it.
  const dropSchema = async () => {
    await db.withConnection((executor) =>
      executor.exec(
        `DROP SCHEMA IF EXISTS "${schema}" CASCADE; DROP SCHEMA IF EXISTS "${schema}_simulated_processor" CASCADE`,
      ),
    );
  };
  try {
    await applyMigrations(db, { migrations });
  } catch (error) {
    await dropSchema().finally(() => db.close());
    throw error;
  }
  return {
    ...db,
    async close() {
      await db.prisma.$disconnect();
      await dropSchema().finally(() => db.close());
    },
  };
}

// --- PGlite: start from a migrated template (initdb + migrations take seconds; loading a dump is fast). ---

const templates = new Map<string, Promise<Blob>>();

function pgliteVersion(): string {
  const packageJson = path.join(path.dirname(require.resolve('@electric-sql/pglite')), '..', 'package.json');
  return (JSON.parse(readFileSync(packageJson, 'utf8')) as { version: string }).version;
}

function templateKey(migrations: Migration[]): string {
  const hash = createHash('sha256').update(pgliteVersion());
  for (const migration of migrations) hash.update(`${migration.name}:${migration.checksum}\n`);
  return hash.digest('hex').slice(0, 16);
}

async function buildTemplate(migrations: Migration[]): Promise<Blob> {
  const { PGlite } = await import('@electric-sql/pglite');
  const pglite = await PGlite.create();
  try {
    await runMigrations(pgliteExecutor(pglite), migrations);
    return await pglite.dumpDataDir('none');
  } finally {
    await pglite.close();
  }
}

// The template is also kept on disk (keyed by PGlite version + migration checksums) so that every test file,
// each in its own process or module registry, skips initdb.
async function loadTemplate(migrations: Migration[]): Promise<Blob> {
  const dir = path.join(os.tmpdir(), 'expedition-db-templates');
  const file = path.join(dir, `pglite-${templateKey(migrations)}.tar`);
  if (existsSync(file)) return new Blob([readFileSync(file)]);
  const blob = await buildTemplate(migrations);
  mkdirSync(dir, { recursive: true });
  const partial = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(partial, Buffer.from(await blob.arrayBuffer()));
  renameSync(partial, file);
  return blob;
}

async function createPGliteTestDatabase(migrations: Migration[], onQuery?: (sql: string) => void): Promise<Database> {
  const key = templateKey(migrations);
  let template = templates.get(key);
  if (!template) {
    template = loadTemplate(migrations);
    templates.set(key, template);
  }
  const { PGlite } = await import('@electric-sql/pglite');
  let pglite: PGlite;
  try {
    pglite = await PGlite.create({ loadDataDir: await template });
  } catch {
    // A damaged cached dump must not break tests: start from scratch.
    pglite = await PGlite.create();
    await runMigrations(pgliteExecutor(pglite), migrations);
  }
  return databaseFromPGlite(pglite, { onQuery });
}

/**
 * A migrated, isolated database for one test file: a fresh schema `t_<random>` on PostgreSQL at TEST_DATABASE_URL
 * (dropped by close()) when reachable, else an in-memory PGlite. Create it in beforeAll, close it in afterAll.
 */
export async function createTestDatabase(options: CreateTestDatabaseOptions = {}): Promise<Database> {
  const kind = options.kind ?? 'auto';
  const migrations = readMigrations(options.migrationsDir);
  if (kind === 'pglite') return createPGliteTestDatabase(migrations, options.onQuery);
  const url = testDatabaseUrl();
  if (await isPostgresReachable(url))
    return createPostgresTestDatabase(url, migrations, options.poolMax, options.onQuery);
  if (kind === 'postgres' || servicesRequired()) {
    throw new Error(`PostgreSQL is unreachable at ${url} (REQUIRE_SERVICES=${process.env['REQUIRE_SERVICES'] ?? ''})`);
  }
  return createPGliteTestDatabase(migrations, options.onQuery);
}

/**
 * Wraps a database's notifications so a test can tell a worker was woken by one: `wakes()` counts the notifications
 * the wrapped subscriber received on `channel` (the only channel it accepts; another one throws).
 */
export function countingNotifications(notifications: Notifications, channel: NotifyChannel) {
  let wakes = 0;
  const subscriber: Pick<Notifications, 'subscribe'> = {
    subscribe(asked, onNotify) {
      if (asked !== channel) throw new Error(`subscribed to ${asked}, expected ${channel}`);
      return notifications.subscribe(asked, () => {
        wakes++;
        onNotify();
      });
    },
  };
  return { subscriber, wakes: () => wakes };
}

/**
 * Scans every text, varchar, array and JSON column of `tables` (this schema's, from information_schema) for each of
 * `needles` (plain substrings): for tests proving that no bearer secret is stored in clear. `columns` lists what was
 * scanned (`table.column`), so a test can show the scan covered the tables; `hits` says where a needle was found.
 */
export async function scanTextColumns(
  prisma: PrismaClient,
  tables: readonly string[],
  needles: readonly string[],
): Promise<{ columns: string[]; hits: string[] }> {
  const found = await prisma.$queryRaw<{ table: string; column: string }[]>`
    SELECT table_name AS "table", column_name AS "column" FROM information_schema.columns
    WHERE table_schema = current_schema() AND table_name = ANY(${[...tables]}::text[])
      AND data_type IN ('text', 'character varying', 'json', 'jsonb', 'ARRAY')
    ORDER BY table_name, ordinal_position`;
  const hits: string[] = [];
  for (const { table, column } of found) {
    for (const needle of needles) {
      // Identifiers come from information_schema, not from the test: quoting them is enough.
      const rows = await prisma.$queryRawUnsafe<{ n: number }[]>(
        `SELECT count(*)::int AS n FROM "${table}" WHERE strpos("${column}"::text, $1) > 0`,
        needle,
      );
      if ((rows[0]?.n ?? 0) > 0) hits.push(`${table}.${column} holds ${needle}`);
    }
  }
  return { columns: found.map((c) => `${c.table}.${c.column}`), hits };
}
