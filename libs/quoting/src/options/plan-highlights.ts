import type { HighlightKey, Plan } from '@expedition/domain-pricing';
import type { RenderLocale } from '@expedition/i18n';
import { catalogMessages } from '@expedition/i18n/documents';

/**
 * A plan card's short lines in the reader's language: the catalog names them by key (libs/domain-pricing,
 * highlights.table.ts) and libs/i18n's catalog namespace holds each key in every language (`catalog.highlights`). The
 * typed table below does not compile when a key of the catalog has no message; English is the catalog's own text.
 */
export function planHighlights(plan: Pick<Plan, 'highlightKeys'>, locale: RenderLocale): string[] {
  const texts: Readonly<Record<HighlightKey, () => string>> = catalogMessages(locale).highlights;
  return plan.highlightKeys.map((key) => texts[key]());
}
