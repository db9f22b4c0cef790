import type { EmbedOption } from '@expedition/contracts';

/** Recommended first (flag or the payload's recommendedPlanId), the payload's order otherwise. */
export function sortOptions(options: EmbedOption[], recommendedPlanId: string | null | undefined): EmbedOption[] {
  const isRec = (o: EmbedOption) => o.isRecommended || o.planId === recommendedPlanId;
  return [...options.filter(isRec), ...options.filter((o) => !isRec(o))];
}
