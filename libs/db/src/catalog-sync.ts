import type { PrismaClient } from './generated/prisma/client';

/** What the database keeps of a catalog plan: domain-pricing's `Plan` satisfies it. */
export interface CatalogPlanRow {
  id: string;
  name: string;
  carrier: string;
  brand: string;
  tier: string;
  destinations: readonly string[];
  availabilityMode: string;
  enabled: boolean;
}

/** The catalog to mirror: domain-pricing's `catalogSnapshot()` (every plan, retired and admin-only ones too). */
export interface CatalogSnapshot {
  version: string;
  plans: readonly CatalogPlanRow[];
}

/**
 * Keeps the `Plan` reference rows in step with the catalog in code, so estimates, purchases and policies have a
 * foreign key to what was sold. Idempotent and safe to run from several replicas at once. The catalog is passed in
 * (db does not depend on domain-pricing): composition roots and test harnesses pass `catalogSnapshot()`.
 */
export async function syncCatalog(prisma: PrismaClient, catalog: CatalogSnapshot): Promise<number> {
  const rows = catalog.plans.map((p) => ({
    id: p.id,
    name: p.name,
    carrier: p.carrier,
    brand: p.brand,
    tier: p.tier,
    destinations: [...p.destinations],
    availabilityMode: p.availabilityMode,
    enabled: p.enabled,
    catalogVersion: catalog.version,
  }));
  // Only the rows that differ are written: replicas starting together (or after the migration Job) then only read,
  // instead of queueing on the same rows' locks until the transaction's timeout kills the start (seen with six at once).
  const stored = new Map(
    (await prisma.plan.findMany({ where: { id: { in: rows.map((r) => r.id) } } })).map((r) => [r.id, r]),
  );
  const stale = rows.filter((row) => {
    const current = stored.get(row.id);
    return (
      !current ||
      (Object.keys(row) as (keyof typeof row)[]).some((k) => JSON.stringify(current[k]) !== JSON.stringify(row[k]))
    );
  });
  if (stale.length > 0) {
    await prisma.$transaction(
      stale.map(({ id, ...row }) => prisma.plan.upsert({ where: { id }, create: { id, ...row }, update: row })),
    );
  }
  return catalog.plans.length;
}
