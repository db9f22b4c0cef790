// Our runner must leave the history exactly as Prisma Migrate would: the schema engine's own deploy logic
// (what `prisma migrate deploy` runs) is driven here through the wasm engine over the same database.
import { readFileSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { PrismaPg } from '@prisma/adapter-pg';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { Pool } from 'pg';
import { databaseFromPGlite } from '../src/database';
import { applyMigrations, readMigrations } from '../src/migrations';
import { resolveMigrationsDir, resolveSchemaPath } from '../src/paths';
import { NO_FILTERS, toMigrationList, withSchemaEngine } from '../src/schema-engine';
import { createTestDatabase, describeWithPostgres, testDatabaseUrl } from '../src/testing';

async function prismaSeesSameHistory(factory: SqlMigrationAwareDriverAdapterFactory) {
  const schemaPath = resolveSchemaPath();
  const list = toMigrationList(resolveMigrationsDir(), readMigrations());
  return withSchemaEngine({ path: schemaPath, content: readFileSync(schemaPath, 'utf8') }, factory, async (engine) => {
    const diagnosis = await engine.diagnoseMigrationHistory({
      migrationsList: list,
      optInToShadowDatabase: false,
      filters: NO_FILTERS,
    });
    const deploy = await engine.applyMigrations({ migrationsList: list, filters: NO_FILTERS });
    return { diagnosis, deploy };
  });
}

const expected = {
  diagnosis: { editedMigrationNames: [], failedMigrationNames: [], hasMigrationsTable: true, history: null },
  deploy: { appliedMigrationNames: [] },
};

describe('Prisma Migrate compatibility on PGlite', () => {
  it('sees the runner history as complete and unedited; deploy applies nothing', async () => {
    const pglite = await PGlite.create();
    const db = await databaseFromPGlite(pglite);
    try {
      await applyMigrations(db);
      expect(await prismaSeesSameHistory(new PrismaPGlite(pglite))).toEqual(expected);
    } finally {
      await db.close();
    }
  });

  // Controls: the same engine calls do notice an edited checksum, and do deploy onto an empty database.
  it('reports an edited migration when the recorded checksum differs', async () => {
    const pglite = await PGlite.create();
    const db = await databaseFromPGlite(pglite);
    try {
      await applyMigrations(db);
      await pglite.query(`UPDATE _prisma_migrations SET checksum = repeat('0', 64)`);
      const { diagnosis } = await prismaSeesSameHistory(new PrismaPGlite(pglite));
      expect(diagnosis.editedMigrationNames).toEqual(readMigrations().map((m) => m.name));
    } finally {
      await db.close();
    }
  });

  it('deploys every migration onto an empty database', async () => {
    const pglite = await PGlite.create();
    try {
      const { deploy } = await prismaSeesSameHistory(new PrismaPGlite(pglite));
      expect(deploy.appliedMigrationNames).toEqual(readMigrations().map((m) => m.name));
    } finally {
      await pglite.close();
    }
  });
});

describeWithPostgres()('Prisma Migrate compatibility on PostgreSQL', () => {
  it('sees the runner history as complete and unedited; deploy applies nothing', async () => {
    const db = await createTestDatabase({ kind: 'postgres' });
    const schema = (
      await db.withConnection((executor) => executor.query<{ s: string }>('SELECT current_schema() AS s'))
    )[0]!.s;
    const pool = new Pool({ connectionString: testDatabaseUrl(), max: 2, options: `-c search_path=${schema}` });
    try {
      expect(await prismaSeesSameHistory(new PrismaPg(pool, { schema }))).toEqual(expected);
    } finally {
      await pool.end();
      await db.close();
    }
  });
});
