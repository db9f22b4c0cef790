import { createHash } from 'node:crypto';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { createDatabase, databaseFromPGlite, type Database } from '../src/database';
import { pgliteExecutor, type SqlExecutor } from '../src/executor';
import {
  applyMigrations,
  checksumOf,
  MigrationError,
  readMigrations,
  runMigrations,
  toMigration,
} from '../src/migrations';
import { resolveMigrationsDir } from '../src/paths';
import { describeWithPostgres, testDatabaseUrl } from '../src/testing';

const first = toMigration('20250101000000_first', 'CREATE TABLE a (id int PRIMARY KEY);');
const second = toMigration('20250102000000_second', 'CREATE TABLE b (id int PRIMARY KEY);\nINSERT INTO b VALUES (1);');

async function tables(executor: SqlExecutor): Promise<string[]> {
  const rows = await executor.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY table_name`,
  );
  return rows.map((row) => row.table_name);
}

describe('readMigrations', () => {
  it('reads folders in name order with sha256 checksums, ignoring files and folders without migration.sql', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'migrations-'));
    for (const [name, sql] of [
      ['20250102000000_b', 'SELECT 2;'],
      ['20250101000000_a', 'SELECT 1;'],
    ]) {
      mkdirSync(path.join(dir, name!));
      writeFileSync(path.join(dir, name!, 'migration.sql'), sql!);
    }
    mkdirSync(path.join(dir, 'notes'));
    writeFileSync(path.join(dir, 'migration_lock.toml'), 'provider = "postgresql"\n');

    const migrations = readMigrations(dir);
    expect(migrations.map((m) => m.name)).toEqual(['20250101000000_a', '20250102000000_b']);
    expect(migrations[0]?.checksum).toBe(createHash('sha256').update('SELECT 1;').digest('hex'));
  });

  it('finds the committed migrations from source', () => {
    expect(resolveMigrationsDir()).toBe(path.resolve(__dirname, '..', 'prisma', 'migrations'));
    expect(readMigrations().length).toBeGreaterThan(0);
  });
});

function runnerSuite(open: () => Promise<Database>) {
  let db: Database;

  beforeEach(async () => {
    db = await open();
  });

  afterEach(async () => {
    await db?.close();
  });

  it('applies all pending migrations once, in order, and records them like Prisma Migrate', async () => {
    expect(await applyMigrations(db, { migrations: [second, first] })).toEqual({
      applied: [first.name, second.name],
    });
    expect(await applyMigrations(db, { migrations: [first, second] })).toEqual({ applied: [] });

    const rows = await db.withConnection((executor) =>
      executor.query<Record<string, unknown>>(
        `SELECT migration_name, checksum, finished_at, rolled_back_at, logs, applied_steps_count, started_at, id
         FROM _prisma_migrations ORDER BY migration_name`,
      ),
    );
    expect(rows.map((row) => [row['migration_name'], row['checksum'], row['applied_steps_count']])).toEqual([
      [first.name, checksumOf(first.sql), 1],
      [second.name, checksumOf(second.sql), 1],
    ]);
    expect(rows.every((row) => row['finished_at'] !== null && row['rolled_back_at'] === null)).toBe(true);
    expect(await db.withConnection(tables)).toEqual(['_prisma_migrations', 'a', 'b']);
  });

  it('applies only the new migration later', async () => {
    await applyMigrations(db, { migrations: [first] });
    expect(await applyMigrations(db, { migrations: [first, second] })).toEqual({ applied: [second.name] });
  });

  it('refuses to run when an applied migration was edited', async () => {
    await applyMigrations(db, { migrations: [first] });
    const edited = toMigration(first.name, first.sql + '\n-- edited');
    await expect(applyMigrations(db, { migrations: [edited, second] })).rejects.toThrow(MigrationError);
    await expect(applyMigrations(db, { migrations: [edited, second] })).rejects.toThrow(/was modified/);
    expect(await db.withConnection(tables)).toEqual(['_prisma_migrations', 'a']);
  });

  it('rolls a failing migration back entirely and records nothing', async () => {
    const broken = toMigration('20250103000000_broken', 'CREATE TABLE c (id int);\nSELECT * FROM no_such_table;');
    await expect(applyMigrations(db, { migrations: [first, broken] })).rejects.toThrow(/20250103000000_broken/);
    expect(await db.withConnection(tables)).toEqual(['_prisma_migrations', 'a']);
    const names = await db.withConnection((executor) =>
      executor.query<{ migration_name: string }>('SELECT migration_name FROM _prisma_migrations'),
    );
    expect(names.map((row) => row.migration_name)).toEqual([first.name]);
  });

  it('refuses to run over a failed migration left by Prisma Migrate', async () => {
    await applyMigrations(db, { migrations: [first] });
    await db.withConnection((executor) =>
      executor.query(
        `INSERT INTO _prisma_migrations (id, checksum, migration_name, started_at) VALUES ('x', 'y', $1, now())`,
        [second.name],
      ),
    );
    await expect(applyMigrations(db, { migrations: [first, second] })).rejects.toThrow(/failed earlier/);
  });

  it('applies the committed migrations from the repo', async () => {
    const { applied } = await applyMigrations(db);
    expect(applied).toEqual(readMigrations().map((m) => m.name));
    expect(await db.withConnection(tables)).toEqual(expect.arrayContaining(['operators', 'quotes', 'webhook_events']));
    expect(await applyMigrations(db)).toEqual({ applied: [] });
  });
}

describe('migration runner on PGlite', () => {
  // initdb once; every test starts from a copy of the empty cluster.
  let empty: Blob;
  beforeAll(async () => {
    const pglite = await PGlite.create();
    empty = await pglite.dumpDataDir('none');
    await pglite.close();
  });
  const fresh = () => PGlite.create({ loadDataDir: empty });

  runnerSuite(async () => databaseFromPGlite(await fresh()));

  it('works over a bare executor too', async () => {
    const pglite = await fresh();
    try {
      const executor = pgliteExecutor(pglite);
      expect(await runMigrations(executor, [first])).toEqual({ applied: [first.name] });
      expect(await runMigrations(executor, [first])).toEqual({ applied: [] });
    } finally {
      await pglite.close();
    }
  });
});

describeWithPostgres()('migration runner on PostgreSQL', () => {
  const schemas: string[] = [];
  const openInSchema = (schema: string) => createDatabase({ databaseUrl: testDatabaseUrl(), schema, poolMax: 2 });
  const freshSchema = () => {
    const schema = `t_mig_${Math.random().toString(36).slice(2, 10)}`;
    schemas.push(schema);
    return schema;
  };

  afterAll(async () => {
    const admin = await createDatabase({ databaseUrl: testDatabaseUrl(), poolMax: 1 });
    for (const schema of schemas) {
      await admin.withConnection((executor) => executor.exec(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`));
    }
    await admin.close();
  });

  runnerSuite(() => openInSchema(freshSchema()));

  it('applies once when several processes start at the same time', async () => {
    const schema = freshSchema();
    const replicas = await Promise.all([1, 2, 3, 4].map(() => openInSchema(schema)));
    try {
      const results = await Promise.all(replicas.map((db) => applyMigrations(db)));
      const all = readMigrations().map((m) => m.name);
      expect(results.flatMap((result) => result.applied).sort()).toEqual(all);
      expect(results.filter((result) => result.applied.length > 0)).toHaveLength(1);
      const count = await replicas[0]!.withConnection((executor) =>
        executor.query<{ n: number }>('SELECT count(*)::int AS n FROM _prisma_migrations'),
      );
      expect(count[0]?.n).toBe(all.length);
    } finally {
      await Promise.all(replicas.map((db) => db.close()));
    }
  });
});
