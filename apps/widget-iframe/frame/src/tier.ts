import type { WidgetBootData } from '@expedition/contracts/widget-boot';

export type Tier = 1 | 2 | 3;

const isTier = (value: unknown): value is Tier => value === 1 || value === 2 || value === 3;

/** Effective tier = min(config.tier ?? allowedTier, allowedTier): a page can ask for less than the provider allows, never more. */
export function effectiveTier(requested: unknown, allowed: Tier): Tier {
  if (!isTier(requested)) return allowed;
  return requested < allowed ? requested : allowed;
}

/**
 * What the traveler can do with a plan:
 * - `none`: tier 1 in an iframe (the operator sells by its own means; quote events still fire);
 * - `link`: tier 2 in an iframe (hosted checkout in a new tab) or the hosted page (hosted checkout in the same tab);
 * - `embedded`: tier 3, checkout inside the iframe.
 */
export type BuyMode = 'none' | 'link' | 'embedded';

export function buyMode(kind: WidgetBootData['kind'], tier: Tier): BuyMode {
  if (kind === 'hosted') return 'link';
  if (tier === 3) return 'embedded';
  return tier === 2 ? 'link' : 'none';
}

/**
 * Whether a plan card offers "Select" apart from buying. In an iframe (every tier) it tells the operator's page which
 * plan the traveler chose (`quote.selected`, docs/contract.md). The hosted page has no page around it to tell: there
 * the card's one action is to buy the plan.
 */
export function canSelect(kind: WidgetBootData['kind']): boolean {
  return kind === 'frame';
}
