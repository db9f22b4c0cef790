import { createHash, randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { SqlExecutor, WithConnection } from './executor';
import { resolveMigrationsDir } from './paths';

export interface Migration {
  /** Folder name, e.g. `20250101000000_init`; migrations apply in name order. */
  name: string;
  sql: string;
  /** sha256 hex of migration.sql, as Prisma Migrate records it. */
  checksum: string;
}

export interface RunMigrationsOptions {
  /** Called once per applied migration (tools print it). */
  onApplied?: (name: string) => void;
  randomId?: () => string;
}

export interface ApplyMigrationsOptions extends RunMigrationsOptions {
  /** Folder in Prisma Migrate's layout; defaults to libs/db/prisma/migrations (see resolveMigrationsDir). */
  migrationsDir?: string;
  /** Already loaded migrations (e.g. embedded in a bundle); wins over migrationsDir. */
  migrations?: Migration[];
}

export interface MigrationResult {
  applied: string[];
}

export class MigrationError extends Error {
  override readonly name = 'MigrationError';
}

// Same key as Prisma Migrate, so our runner and `prisma migrate deploy` exclude each other.
const ADVISORY_LOCK_KEY = 72707369;

// Prisma Migrate's own bookkeeping table (PostgreSQL flavour), column for column.
const CREATE_MIGRATIONS_TABLE = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
);`;

interface MigrationRow {
  migration_name: string;
  checksum: string;
  finished_at: Date | string | null;
  rolled_back_at: Date | string | null;
}

export function checksumOf(sql: string): string {
  return createHash('sha256').update(sql, 'utf8').digest('hex');
}

export function toMigration(name: string, sql: string): Migration {
  return { name, sql, checksum: checksumOf(sql) };
}

/** Reads `<dir>/<name>/migration.sql` for every migration folder, sorted by name. */
export function readMigrations(migrationsDir?: string): Migration[] {
  const dir = resolveMigrationsDir(migrationsDir);
  return readdirSync(dir)
    .filter((entry) => statSync(path.join(dir, entry)).isDirectory())
    .filter((entry) => existsSync(path.join(dir, entry, 'migration.sql')))
    .sort()
    .map((entry) => toMigration(entry, readFileSync(path.join(dir, entry, 'migration.sql'), 'utf8')));
}

function byName(a: Migration, b: Migration): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

function pendingMigrations(migrations: Migration[], rows: MigrationRow[]): Migration[] {
  const failed = rows.find((row) => row.finished_at === null && row.rolled_back_at === null);
  if (failed) {
    throw new MigrationError(
      `Migration ${failed.migration_name} failed earlier and is not resolved; fix the database first`,
    );
  }
  const applied = new Map(
    rows.filter((row) => row.rolled_back_at === null).map((row) => [row.migration_name, row.checksum]),
  );
  for (const migration of migrations) {
    const checksum = applied.get(migration.name);
    if (checksum !== undefined && checksum !== migration.checksum) {
      throw new MigrationError(
        `Migration ${migration.name} was modified after it was applied (checksum ${checksum} in the database, ` +
          `${migration.checksum} on disk); add a new migration instead`,
      );
    }
  }
  return migrations.filter((migration) => !applied.has(migration.name)).sort(byName);
}

async function applyOne(executor: SqlExecutor, migration: Migration, id: string): Promise<void> {
  try {
    await executor.transaction(async (tx) => {
      await tx.exec(migration.sql);
      await tx.query(
        `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, finished_at, applied_steps_count)
         VALUES ($1, $2, $3, now(), clock_timestamp(), 1)`,
        [id, migration.checksum, migration.name],
      );
    });
  } catch (error) {
    throw new MigrationError(`Migration ${migration.name} failed and was rolled back: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

/**
 * Applies pending migrations over one connection, each in its own transaction, recording them in Prisma's
 * `_prisma_migrations`. A session advisory lock serializes concurrent runners (several replicas starting at once).
 */
export async function runMigrations(
  executor: SqlExecutor,
  migrations: Migration[],
  options: RunMigrationsOptions = {},
): Promise<MigrationResult> {
  const randomId = options.randomId ?? randomUUID;
  await executor.query('SELECT pg_advisory_lock($1)', [ADVISORY_LOCK_KEY]);
  try {
    await executor.exec(CREATE_MIGRATIONS_TABLE);
    const rows = await executor.query<MigrationRow>(
      'SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations" ORDER BY started_at',
    );
    const applied: string[] = [];
    for (const migration of pendingMigrations(migrations, rows)) {
      await applyOne(executor, migration, randomId());
      applied.push(migration.name);
      options.onApplied?.(migration.name);
    }
    return { applied };
  } finally {
    await executor.query('SELECT pg_advisory_unlock($1)', [ADVISORY_LOCK_KEY]);
  }
}

/** Applies the project's migrations (or the given ones) to a Database. */
export async function applyMigrations(
  db: { withConnection: WithConnection },
  options: ApplyMigrationsOptions = {},
): Promise<MigrationResult> {
  const migrations = options.migrations ?? readMigrations(options.migrationsDir);
  return db.withConnection((executor) => runMigrations(executor, migrations, options));
}
