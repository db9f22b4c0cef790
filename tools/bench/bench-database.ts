import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Pool } from 'pg';
import { applyMigrations, createDatabase, splitSchemaParam, syncCatalog, type Database } from '@expedition/db';
import { testDatabaseUrl } from '@expedition/db/testing';
import { catalogSnapshot } from '@expedition/domain-pricing';

export type BenchDatabaseKind = 'postgres' | 'pglite';

export interface BenchDatabase {
  db: Database;
  /** A plain `pg` pool on the same schema for the hand-written baselines (PostgreSQL only). */
  pool: Pool | null;
  label: string;
  /** Closes everything and removes the throwaway schema or data directory. */
  close(): Promise<void>;
}

/**
 * A benchmark child's throwaway database, migrated and with the catalog: a fresh PostgreSQL schema at
 * TEST_DATABASE_URL with the apps' pool size, or a file-backed PGlite in a temporary directory as `npm start` has.
 * `onQuery` hears every statement the Prisma client sends (it costs: only when profiling).
 */
export async function openBenchDatabase(
  kind: BenchDatabaseKind,
  poolMax: number,
  onQuery?: (sql: string) => void,
): Promise<BenchDatabase> {
  if (kind === 'pglite') {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-pglite-'));
    const db = await ready(await createDatabase({ dataDir, onQuery }));
    return {
      db,
      pool: null,
      label: 'PGlite (file-backed, as npm start)',
      async close() {
        await db.close().catch(() => undefined);
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const { url } = splitSchemaParam(testDatabaseUrl());
  const schema = `bench_${randomBytes(4).toString('hex')}`;
  const db = await ready(await createDatabase({ databaseUrl: url, schema, poolMax, onQuery }));
  const pool = new Pool({ connectionString: url, max: poolMax, options: `-c search_path=${schema}` });
  pool.on('error', () => undefined);
  return {
    db,
    pool,
    label: `postgres (schema ${schema})`,
    async close() {
      await pool.end();
      await db.withConnection((sql) => sql.exec(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`)).catch(() => undefined);
      await db.close().catch(() => undefined);
    },
  };
}

async function ready(db: Database): Promise<Database> {
  await applyMigrations(db);
  await syncCatalog(db.prisma, catalogSnapshot());
  return db;
}

/** BENCH_DB as the parent set it for the child. */
export function benchDatabaseKind(env: NodeJS.ProcessEnv = process.env): BenchDatabaseKind {
  return env['BENCH_DB'] === 'pglite' ? 'pglite' : 'postgres';
}
