import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { applyMigrations, createDatabase, type Database } from '../src/index';
import {
  createTestDatabase,
  describeWithPostgres,
  isPostgresReachable,
  postgresAvailable,
  testDatabaseUrl,
} from '../src/testing';
import { seedOperator } from './fixtures';

function isolationSuite(kind: 'postgres' | 'pglite') {
  it(`gives each caller its own ${kind} database`, async () => {
    const [a, b] = await Promise.all([createTestDatabase({ kind }), createTestDatabase({ kind })]);
    try {
      expect([a.kind, b.kind]).toEqual([kind, kind]);
      await seedOperator(a.prisma, 'Only in A');
      expect(await a.prisma.operator.count({ where: { name: 'Only in A' } })).toBe(1);
      expect(await b.prisma.operator.count()).toBe(0);
      await a.ping();
      await b.ping();
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
}

describe('createTestDatabase on PGlite', () => {
  isolationSuite('pglite');
});

describeWithPostgres()('createTestDatabase on PostgreSQL', () => {
  isolationSuite('postgres');

  it('drops its schema on close', async () => {
    const db = await createTestDatabase({ kind: 'postgres' });
    const [{ schema } = { schema: '' }] = await db.withConnection((executor) =>
      executor.query<{ schema: string }>('SELECT current_schema() AS schema'),
    );
    expect(schema).toMatch(/^t_[0-9a-f]{12}$/);
    await db.close();

    const admin = await createDatabase({ databaseUrl: testDatabaseUrl() });
    try {
      const rows = await admin.withConnection((executor) =>
        executor.query('SELECT 1 FROM information_schema.schemata WHERE schema_name = $1', [schema]),
      );
      expect(rows).toEqual([]);
    } finally {
      await admin.close();
    }
  });
});

describe('when PostgreSQL is unreachable', () => {
  const saved = { url: process.env['TEST_DATABASE_URL'], required: process.env['REQUIRE_SERVICES'] };
  const restore = (name: string, value: string | undefined) => {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  };

  beforeEach(() => {
    process.env['TEST_DATABASE_URL'] = 'postgresql://postgres@127.0.0.1:1/none';
  });

  afterEach(() => {
    restore('TEST_DATABASE_URL', saved.url);
    restore('REQUIRE_SERVICES', saved.required);
  });

  it('falls back to PGlite', async () => {
    delete process.env['REQUIRE_SERVICES'];
    expect(await isPostgresReachable()).toBe(false);
    expect(await postgresAvailable()).toBe(false);
    const db = await createTestDatabase();
    try {
      expect(db.kind).toBe('pglite');
    } finally {
      await db.close();
    }
  });

  it('fails instead when REQUIRE_SERVICES=1', async () => {
    process.env['REQUIRE_SERVICES'] = '1';
    await expect(createTestDatabase()).rejects.toThrow(/unreachable/);
    await expect(postgresAvailable()).rejects.toThrow(/REQUIRE_SERVICES/);
  });
});

describe('createDatabase with PGlite on disk', () => {
  it('creates <dataDir>/pglite and keeps data across a restart', async () => {
    const dataDir = path.join(mkdtempSync(path.join(os.tmpdir(), 'db-data-')), 'nested');
    let db: Database = await createDatabase({ dataDir });
    try {
      expect(db.kind).toBe('pglite');
      expect(existsSync(path.join(dataDir, 'pglite'))).toBe(true);
      await applyMigrations(db);
      await seedOperator(db.prisma, 'Survivor');
    } finally {
      await db.close();
    }

    db = await createDatabase({ dataDir });
    try {
      await expect(createDatabase({ dataDir })).rejects.toThrow(/in use by process/);
      expect(await applyMigrations(db)).toEqual({ applied: [] });
      expect(await db.prisma.operator.count({ where: { name: 'Survivor' } })).toBe(1);
    } finally {
      await db.close();
    }
    expect(existsSync(path.join(dataDir, 'pglite.pid'))).toBe(false);
  });

  it('takes over a lock left by a process that no longer exists', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'db-data-'));
    // Far above any pid_max: no such process.
    writeFileSync(path.join(dataDir, 'pglite.pid'), '99999999');
    const db = await createDatabase({ dataDir });
    try {
      await db.ping();
    } finally {
      await db.close();
    }
  });
});
