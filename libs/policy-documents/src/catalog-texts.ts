import { findDestination, type Plan } from '@expedition/domain-pricing';
import type { RenderLocale } from '@expedition/i18n';
import { catalogMessages, documentsMessages, type CatalogMessages } from '@expedition/i18n/documents';

/**
 * The catalog's words in the reader's language: destination names, plan descriptions, cancellation reasons and the
 * general exclusions. The catalog (libs/domain-pricing) holds them in English; the catalog namespace of libs/i18n
 * holds every language, keyed by the catalog's ids, and by the English text for the reasons and exclusions
 * (catalog-texts.spec.ts checks that it holds exactly the catalog's entries, English identical). A text the
 * translations do not know yet is shown in English rather than not at all.
 */

type Texts = Record<string, () => string>;

const byId = (texts: unknown, id: string): string | undefined => (texts as Texts)[id]?.();

/** English text → key, for a catalog section keyed by name (cancelReasons, exclusions). */
function reverse(section: keyof CatalogMessages): Map<string, string> {
  return new Map(Object.entries(catalogMessages('en')[section] as Texts).map(([key, text]) => [text(), key]));
}
const REASON_KEYS = reverse('cancelReasons');
const EXCLUSION_KEYS = reverse('exclusions');

/** The carrier's name with "(illustrative)" in the reader's language: the catalog's carriers are invented. */
export function carrierName(carrier: string, locale: RenderLocale): string {
  const bare = carrier.replace(/ \(illustrative\)$/, '');
  return bare === carrier ? carrier : documentsMessages(locale).common.carrierName({ name: bare });
}

export function destinationName(slug: string, locale: RenderLocale): string {
  return byId(catalogMessages(locale).destinations, slug) ?? findDestination(slug)?.name ?? slug;
}

/** A plan's tier (basic, standard, premium) as people read it. */
export function tierName(tier: string, locale: RenderLocale): string {
  return byId(catalogMessages(locale).tiers, tier) ?? tier;
}

export function planDescription(plan: Pick<Plan, 'id' | 'description'>, locale: RenderLocale): string {
  return byId(catalogMessages(locale).plans, plan.id) ?? plan.description;
}

export function cancelReasonText(english: string, locale: RenderLocale): string {
  const key = REASON_KEYS.get(english);
  return (key && byId(catalogMessages(locale).cancelReasons, key)) || english;
}

export function exclusionText(english: string, locale: RenderLocale): string {
  const key = EXCLUSION_KEYS.get(english);
  return (key && byId(catalogMessages(locale).exclusions, key)) || english;
}
