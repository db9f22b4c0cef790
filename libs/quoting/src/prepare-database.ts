import { existsSync } from 'node:fs';
import path from 'node:path';
import { applyMigrations, type Database } from '@expedition/db';
import { syncCatalog } from './quote.service';

/** Bumped whenever the plan catalog in domain-pricing changes meaningfully; stored on the Plan rows. */
export const CATALOG_VERSION = '2026-11-21';

/**
 * Brings a database to the current schema and catalog. Safe to run from every replica at start: migrations take an
 * advisory lock, and the catalog sync is an idempotent upsert.
 */
export async function prepareDatabase(
  db: Database,
  options: { migrationsDir?: string } = {},
): Promise<{ applied: string[]; plans: number }> {
  const { applied } = await applyMigrations(db, { migrationsDir: options.migrationsDir });
  const plans = await syncCatalog(db.prisma, CATALOG_VERSION);
  return { applied, plans };
}

/**
 * Where a deployable build keeps its migrations: `nx build` copies them next to the bundle (`<dist>/migrations`).
 * Running from source, this returns undefined and the db lib finds them in the repository.
 */
export function bundledMigrationsDir(mainDir: string): string | undefined {
  const dir = path.join(mainDir, 'migrations');
  return existsSync(dir) ? dir : undefined;
}
