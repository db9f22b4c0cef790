import { allPlans, findDestination, isPubliclyListed } from './catalog/catalog';
import type { Plan } from './catalog/plans.catalog';
import type { Tier } from './catalog/rates.table';
import { checkEligibility } from './eligibility';
import { PricingError } from './errors';

export interface PlanFilter {
  /** Destination slug, name or alias. An unknown destination throws `unknown_destination`. */
  readonly destination?: string;
  /** ISO 3166-1 alpha-2 residence; plans the resident cannot buy are left out. */
  readonly residence?: string;
  /** US state code. A US residence without a (valid) state matches no plan, as eligibility requires one. */
  readonly state?: string;
  readonly tier?: Tier;
  /** Default false. True also returns admin-only and retired (disabled) plans. */
  readonly includeDisabled?: boolean;
}

/**
 * Plans matching the filter, in catalog order. By default only publicly listed plans (enabled and not
 * admin-only). The residence and state filters apply the same rules as `checkEligibility`.
 */
export function listPlans(filter: PlanFilter = {}): Plan[] {
  const destination = resolveDestinationSlug(filter.destination);
  return allPlans().filter((plan) => {
    if (!filter.includeDisabled && !isPubliclyListed(plan)) return false;
    if (destination && !plan.destinations.includes(destination)) return false;
    if (filter.tier && plan.tier !== filter.tier) return false;
    if (filter.residence === undefined) return true;
    return checkEligibility(plan, { residence: filter.residence, state: filter.state ?? null }).eligible;
  });
}

function resolveDestinationSlug(value: string | undefined): Plan['destinations'][number] | null {
  if (value === undefined || value.trim() === '') return null;
  const found = findDestination(value);
  if (!found) throw new PricingError('unknown_destination', `Unknown destination "${value}".`, 'destination');
  return found.slug;
}
