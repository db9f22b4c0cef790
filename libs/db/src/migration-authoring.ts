import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { readMigrations } from './migrations';
import { resolveMigrationsDir, resolveSchemaPath } from './paths';
import { diffMigrationsToSchema, MIGRATION_LOCK } from './schema-engine';

export interface MigrationAuthoringOptions {
  schemaPath?: string;
  migrationsDir?: string;
}

export interface CreateMigrationOptions extends MigrationAuthoringOptions {
  now?: () => Date;
}

export interface CreatedMigration {
  /** Folder name, or null when the schema already matches the migrations ("No changes"). */
  name: string | null;
  directory: string | null;
  sql: string;
}

export interface DriftReport {
  inSync: boolean;
  /** SQL that the next migration would contain; '' when in sync. */
  sql: string;
}

const NAME_PATTERN = /^[a-z0-9_]+$/;

/** Offline: SQL from the committed migrations' end state to the Prisma schema ('' when they agree). */
export async function createMigrationSql(options: MigrationAuthoringOptions = {}): Promise<string> {
  const schemaPath = resolveSchemaPath(options.schemaPath);
  const migrationsDir = resolveMigrationsDir(options.migrationsDir);
  const lockPath = path.join(migrationsDir, 'migration_lock.toml');
  return diffMigrationsToSchema({
    schemaPath,
    schemaContent: readFileSync(schemaPath, 'utf8'),
    migrationsDir,
    migrations: readMigrations(migrationsDir),
    lockfile: existsSync(lockPath) ? readFileSync(lockPath, 'utf8') : MIGRATION_LOCK,
  });
}

export async function checkDrift(options: MigrationAuthoringOptions = {}): Promise<DriftReport> {
  const sql = await createMigrationSql(options);
  return { inSync: sql === '', sql };
}

function timestamp(date: Date): string {
  return date.toISOString().replace(/[-:T]/g, '').slice(0, 14);
}

/** `<UTC yyyymmddhhmmss>_<name>`, strictly after every existing folder so name order stays apply order. */
export function nextMigrationName(name: string, now: Date, existing: string[]): string {
  const slug = name
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
  if (!NAME_PATTERN.test(slug)) throw new Error(`Invalid migration name "${name}": use letters, digits and _`);
  const last = [...existing].sort().at(-1)?.slice(0, 14);
  let stamp = timestamp(now);
  if (last !== undefined && stamp <= last) stamp = timestamp(new Date(Date.parse(isoOf(last)) + 1000));
  return `${stamp}_${slug}`;
}

function isoOf(stamp: string): string {
  const part = (from: number, to: number) => stamp.slice(from, to);
  return `${part(0, 4)}-${part(4, 6)}-${part(6, 8)}T${part(8, 10)}:${part(10, 12)}:${part(12, 14)}Z`;
}

/** Writes `<migrationsDir>/<timestamp>_<name>/migration.sql` when the schema differs; writes nothing otherwise. */
export async function createMigration(name: string, options: CreateMigrationOptions = {}): Promise<CreatedMigration> {
  const migrationsDir = resolveMigrationsDir(options.migrationsDir);
  const existing = readMigrations(migrationsDir).map((migration) => migration.name);
  const folder = nextMigrationName(name, (options.now ?? (() => new Date()))(), existing);
  const sql = await createMigrationSql({ ...options, migrationsDir });
  if (sql === '') return { name: null, directory: null, sql };
  const directory = path.join(migrationsDir, folder);
  mkdirSync(directory, { recursive: true });
  writeFileSync(path.join(directory, 'migration.sql'), sql);
  const lockPath = path.join(migrationsDir, 'migration_lock.toml');
  if (!existsSync(lockPath)) writeFileSync(lockPath, MIGRATION_LOCK);
  return { name: folder, directory, sql };
}
