import { existsSync } from 'node:fs';
import path from 'node:path';
import { syncCatalog, type CatalogSnapshot } from './catalog-sync';
import { createDatabase, type Database } from './database';
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

/** The settings of a service's database, as every app's config.ts reads them (DATABASE_URL, DATA_DIR). */
export interface ServiceDatabaseSettings {
  /** PostgreSQL; absent: PGlite under `dataDir`. */
  databaseUrl?: string;
  dataDir: string;
  /** A PostgreSQL schema of its own (the dispatcher's `?schema=`). */
  databaseSchema?: string;
}

/**
 * How a service's process opens its database and brings it to the current schema and catalog before it serves: the
 * two start steps of every app's main.ts (`runService` in libs/http-kit runs them, each under `reachAtStart`).
 * `mainDir` is the directory of the running main.js (`__dirname`), where a build keeps its migrations.
 */
export function serviceDatabase(
  settings: ServiceDatabaseSettings,
  options: { catalog: () => CatalogSnapshot; mainDir: string },
): { open(): Promise<Database>; prepare(db: Database): Promise<{ applied: string[]; plans: number }> } {
  return {
    open: () =>
      createDatabase({ databaseUrl: settings.databaseUrl, dataDir: settings.dataDir, schema: settings.databaseSchema }),
    prepare: (db) =>
      prepareDatabase(db, { catalog: options.catalog(), migrationsDir: bundledMigrationsDir(options.mainDir) }),
  };
}
