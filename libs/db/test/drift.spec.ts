import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { checkDrift, createMigration, createMigrationSql, nextMigrationName } from '../src/migration-authoring';

const libRoot = path.resolve(__dirname, '..');

// A scratch copy of schema + migrations, so tests can change the schema and write migrations.
function scratchCopy() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'db-drift-'));
  cpSync(path.join(libRoot, 'prisma'), dir, { recursive: true });
  return { schemaPath: path.join(dir, 'schema.prisma'), migrationsDir: path.join(dir, 'migrations') };
}

// Each diff replays every migration on a fresh PGlite (a few seconds each, much more on a loaded 2-core machine).
jest.setTimeout(180_000);

describe('drift check (offline schema-engine diff)', () => {
  it('finds no difference between schema.prisma and the committed migrations', async () => {
    const report = await checkDrift();
    expect(report.sql).toBe('');
    expect(report.inSync).toBe(true);
  });

  it('reports the SQL of a schema change, and createMigration writes it as the next migration', async () => {
    const paths = scratchCopy();
    const schema = readFileSync(paths.schemaPath, 'utf8');
    writeFileSync(
      paths.schemaPath,
      schema + '\nmodel AuditNote {\n  id   String @id @default(uuid())\n  text String\n\n  @@map("audit_notes")\n}\n',
    );

    const report = await checkDrift(paths);
    expect(report.inSync).toBe(false);
    expect(report.sql).toContain('CREATE TABLE "audit_notes"');

    const before = readdirSync(paths.migrationsDir);
    const created = await createMigration('add audit-notes', { ...paths, now: () => new Date('2099-05-06T07:08:09Z') });
    expect(created.name).toBe('20990506070809_add_audit_notes');
    expect(readFileSync(path.join(paths.migrationsDir, created.name!, 'migration.sql'), 'utf8')).toBe(report.sql);
    expect(readdirSync(paths.migrationsDir)).toHaveLength(before.length + 1);

    expect(await createMigrationSql(paths)).toBe('');
    const again = await createMigration('again', paths);
    expect(again).toEqual({ name: null, directory: null, sql: '' });
    expect(readdirSync(paths.migrationsDir)).toHaveLength(before.length + 1);
    expect(existsSync(path.join(paths.migrationsDir, 'migration_lock.toml'))).toBe(true);
  });
});

describe('nextMigrationName', () => {
  const now = new Date('2025-03-04T05:06:07.890Z');

  it('prefixes a UTC timestamp and normalizes the name', () => {
    expect(nextMigrationName('Add Payments-Index', now, [])).toBe('20250304050607_add_payments_index');
  });

  it('stays after the newest existing migration even when the clock is behind', () => {
    expect(nextMigrationName('x', now, ['20250304050607_init'])).toBe('20250304050608_x');
    expect(nextMigrationName('x', now, ['20261231235959_future'])).toBe('20270101000000_x');
  });

  it('rejects names that would not make a clean folder', () => {
    expect(() => nextMigrationName('drop; table', now, [])).toThrow(/Invalid migration name/);
  });
});
