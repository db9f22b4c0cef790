import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { bundledMigrationsDir, prepareDatabase, serviceDatabase, syncCatalog, type Database } from '../src/index';
import type { CatalogSnapshot } from '../src/catalog-sync';
import { createTestDatabase } from '../src/testing';

let db: Database;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.close());

const plan = (id: string, enabled = true) => ({
  id,
  name: `Plan ${id}`,
  carrier: 'Carrier',
  brand: 'Brand',
  tier: 'standard',
  destinations: ['antarctica'],
  availabilityMode: 'full',
  enabled,
});

describe('prepareDatabase / syncCatalog', () => {
  it('keeps one Plan row per catalog plan, stamped with the catalog version, and is idempotent', async () => {
    const catalog: CatalogSnapshot = { version: 'v1', plans: [plan('sync-a'), plan('sync-b', false)] };
    const prepared = await prepareDatabase(db, { catalog });
    expect(prepared).toEqual({ applied: [], plans: 2 }); // the test database is migrated already
    expect(await syncCatalog(db.prisma, catalog)).toBe(2);
    expect(await db.prisma.plan.count({ where: { id: { in: ['sync-a', 'sync-b'] } } })).toBe(2);

    await syncCatalog(db.prisma, { version: 'v2', plans: [{ ...plan('sync-a'), name: 'Renamed' }] });
    expect(await db.prisma.plan.findUniqueOrThrow({ where: { id: 'sync-a' } })).toMatchObject({
      name: 'Renamed',
      catalogVersion: 'v2',
    });
    expect(await db.prisma.plan.findUniqueOrThrow({ where: { id: 'sync-b' } })).toMatchObject({
      enabled: false,
      catalogVersion: 'v1',
    });
  });

  it("finds a bundle's migrations next to its main file, and none when running from source", () => {
    expect(bundledMigrationsDir(__dirname)).toBeUndefined();
    const prismaDir = path.resolve(__dirname, '..', 'prisma');
    expect(bundledMigrationsDir(prismaDir)).toBe(path.join(prismaDir, 'migrations'));
  });

  it("serviceDatabase: a service's start steps, here on PGlite under DATA_DIR (no DATABASE_URL)", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'service-database-'));
    const catalog: CatalogSnapshot = { version: 'v1', plans: [plan('svc-a')] };
    const steps = serviceDatabase({ dataDir }, { catalog: () => catalog, mainDir: __dirname });
    const own = await steps.open();
    try {
      expect(own.kind).toBe('pglite');
      const prepared = await steps.prepare(own);
      expect(prepared.applied.length).toBeGreaterThan(0); // a new database: every migration of the repository
      expect(prepared.plans).toBe(1);
      expect(await own.prisma.plan.count()).toBe(1);
    } finally {
      await own.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
