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
  await prisma.$transaction(
    catalog.plans.map((p) => {
      const row = {
        name: p.name,
        carrier: p.carrier,
        brand: p.brand,
        tier: p.tier,
        destinations: [...p.destinations],
        availabilityMode: p.availabilityMode,
        enabled: p.enabled,
        catalogVersion: catalog.version,
      };
      return prisma.plan.upsert({ where: { id: p.id }, create: { id: p.id, ...row }, update: row });
    }),
  );
  return catalog.plans.length;
}
