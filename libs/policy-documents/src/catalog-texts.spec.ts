import { GENERAL_EXCLUSIONS, listDestinations, listPlans, PLAN_HIGHLIGHTS, TIERS } from '@expedition/domain-pricing';
import { LOCALES } from '@expedition/i18n';
import { catalogMessages } from '@expedition/i18n/documents';
import { cancelReasonText, destinationName, exclusionText, planDescription } from './catalog-texts';

/** The catalog namespace of libs/i18n holds exactly the catalog's entries (none missing, none unused), English identical. */
describe('the catalog in every language', () => {
  const plans = listPlans({ includeDisabled: true });
  const keys = (o: object) => Object.keys(o).sort();

  it('has one description per plan, one name per destination, one text per cancellation reason and exclusion', () => {
    const en = catalogMessages('en');
    expect(keys(en.plans)).toEqual(plans.map((p) => p.id).sort());
    expect(keys(en.destinations)).toEqual(
      listDestinations()
        .map((d) => d.slug)
        .sort(),
    );
    expect(
      Object.values(en.cancelReasons)
        .map((t) => t())
        .sort(),
    ).toEqual([...new Set(plans.map((p) => p.coverage.cancelReason))].sort());
    expect(Object.values(en.exclusions).map((t) => t())).toEqual([...GENERAL_EXCLUSIONS]);
    expect(keys(en.tiers)).toEqual([...TIERS].sort());
    // The plan cards' highlights, by the catalog's keys (libs/quoting's plan-highlights.spec.ts checks their texts).
    expect(keys(en.highlights)).toEqual(keys(PLAN_HIGHLIGHTS));
  });

  it('gives the English of the catalog in English, and a translation in every other language', () => {
    for (const plan of plans) {
      expect(planDescription(plan, 'en')).toBe(plan.description);
      expect(cancelReasonText(plan.coverage.cancelReason, 'en')).toBe(plan.coverage.cancelReason);
      for (const locale of LOCALES.filter((l) => l !== 'en')) {
        expect(planDescription(plan, locale)).not.toBe(plan.description);
        expect(cancelReasonText(plan.coverage.cancelReason, locale)).not.toBe(plan.coverage.cancelReason);
      }
    }
    for (const text of GENERAL_EXCLUSIONS) {
      expect(exclusionText(text, 'en')).toBe(text);
      expect(exclusionText(text, 'fr')).not.toBe(text);
    }
    expect(listDestinations().map((d) => destinationName(d.slug, 'de'))).toEqual([
      'Antarktis',
      'Arktis',
      'Spitzbergen',
      'Galápagos',
      'Afrika-Safari',
    ]);
  });

  it('falls back to English for a text the translations do not know', () => {
    expect(cancelReasonText('A reason added to the catalog yesterday', 'de')).toBe(
      'A reason added to the catalog yesterday',
    );
    expect(destinationName('atlantis', 'es')).toBe('atlantis');
  });
});
