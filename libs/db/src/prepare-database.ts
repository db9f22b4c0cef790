import { existsSync } from 'node:fs';
import path from 'node:path';
import { syncCatalog, type CatalogSnapshot } from './catalog-sync';
import type { Database } from './database';
import { applyMigrations } from './migrations';

/**
 * Brings a database to the current schema and catalog. Safe to run from every replica at start: migrations take an
 * advisory lock, and the catalog sync is an idempotent upsert.
 */
export async function prepareDatabase(
  db: Database,
  options: { catalog: CatalogSnapshot; migrationsDir?: string },
): Promise<{ applied: string[]; plans: number }> {
  const { applied } = await applyMigrations(db, { migrationsDir: options.migrationsDir });
  const plans = await syncCatalog(db.prisma, options.catalog);
  return { applied, plans };
}

/**
 * Where a deployable build keeps its migrations: `nx build` copies them next to the bundle (`<dist>/migrations`).
 * Running from source, this returns undefined and the migrations are found in the repository.
 */
export function bundledMigrationsDir(mainDir: string): string | undefined {
  const dir = path.join(mainDir, 'migrations');
  return existsSync(dir) ? dir : undefined;
}
