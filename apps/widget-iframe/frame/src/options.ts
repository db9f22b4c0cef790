import type { EmbedOption } from '@expedition/contracts';

/** The spec's disclosure (§1 rule 5), shown with every offer. */
export const DISCLAIMER =
  'Prices are estimates, not a binding contract. The policy documents, or a representative of the insurer, confirm the cover and the final price.';

/** Recommended first (flag or the payload's recommendedPlanId), the payload's order otherwise. */
export function sortOptions(options: EmbedOption[], recommendedPlanId: string | null | undefined): EmbedOption[] {
  const isRec = (o: EmbedOption) => o.isRecommended || o.planId === recommendedPlanId;
  return [...options.filter(isRec), ...options.filter((o) => !isRec(o))];
}
