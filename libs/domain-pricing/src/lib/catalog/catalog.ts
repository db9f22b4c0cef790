import { normalizeText } from '../text';
import { centsToDollars } from '../money';
import { travelerPremium } from '../premium';
import { DESTINATION_TABLE, type Destination, type DestinationSlug } from './destinations.catalog';
import { buildPlan, PLAN_TABLE, type Plan } from './plans.catalog';

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

const DESTINATIONS: readonly Destination[] = deepFreeze(
  DESTINATION_TABLE.map((d) => ({ ...d, requirements: { ...d.requirements }, aliases: [...d.aliases] })),
);

/** Reference trip behind every plan's `basePrice` (see Plan.basePrice). */
export const BASE_PRICE_REFERENCE = { tripCostCents: 500_000, age: 35, travelers: 1 } as const;

function indicativeBasePriceUsd(row: (typeof PLAN_TABLE)[number]): number {
  const cheapest = DESTINATIONS.filter((d) => (row.destinations as readonly string[]).includes(d.slug)).sort(
    (a, b) => a.riskFactor - b.riskFactor,
  )[0];
  if (!cheapest) throw new Error(`plan ${row.id} covers no destination`);
  const { premiumCents } = travelerPremium({
    tier: row.tier,
    rateAdjustment: row.rateAdjustment,
    destination: cheapest.slug,
    durationDays: cheapest.defaultDurationDays,
    age: BASE_PRICE_REFERENCE.age,
    insuredCostCents: Math.min(BASE_PRICE_REFERENCE.tripCostCents, row.tripCancellationLimit * 100),
  });
  return centsToDollars(premiumCents);
}

const PLANS: readonly Plan[] = deepFreeze(PLAN_TABLE.map((row) => buildPlan(row, indicativeBasePriceUsd(row))));

/** All five destinations, in catalog order. */
export function listDestinations(): readonly Destination[] {
  return DESTINATIONS;
}

/**
 * Finds a destination by slug, name or alias, ignoring case, accents, punctuation and spacing
 * ("Galápagos", "galapagos islands", "AFRICAN SAFARI", "african-safari").
 */
export function findDestination(slugOrName: string): Destination | undefined {
  const wanted = normalizeText(slugOrName);
  if (wanted === '') return undefined;
  return DESTINATIONS.find(
    (d) =>
      normalizeText(d.slug) === wanted ||
      normalizeText(d.name) === wanted ||
      d.aliases.some((alias) => normalizeText(alias) === wanted),
  );
}

export function getDestination(slug: DestinationSlug): Destination {
  const found = DESTINATIONS.find((d) => d.slug === slug);
  if (!found) throw new Error(`unknown destination slug ${slug}`);
  return found;
}

/** Every plan, including admin-only and retired ones. */
export function allPlans(): readonly Plan[] {
  return PLANS;
}

/** Bumped whenever the plan catalog changes meaningfully; the database's Plan rows record it (catalogSnapshot). */
export const CATALOG_VERSION = '2026-11-21';

/**
 * The catalog as the database mirrors it: its version and every plan, admin-only and retired ones too (a sold plan
 * must keep its row). Composition roots hand it to `prepareDatabase` / `syncCatalog` of @expedition/db.
 */
export function catalogSnapshot(): { version: string; plans: readonly Plan[] } {
  return { version: CATALOG_VERSION, plans: PLANS };
}

/** A plan by id, whatever its availability (admin-only and disabled plans too). */
export function getPlan(id: string): Plan | undefined {
  return PLANS.find((p) => p.id === id);
}

/** Whether the public may see and buy the plan (priced in quotes, listed by default). */
export function isPubliclyListed(plan: Plan): boolean {
  return plan.enabled && plan.availabilityMode !== 'admin_only';
}

/** Whether the plan can be bought without an underwriter: listed, and sold in full or on deposit. */
export function isPurchasable(plan: Plan): boolean {
  return isPubliclyListed(plan) && (plan.availabilityMode === 'full' || plan.availabilityMode === 'deposit');
}
