import { listPlans, PLAN_HIGHLIGHTS } from '@expedition/domain-pricing';
import { LOCALES, PSEUDO_LOCALE } from '@expedition/i18n';
import { catalogMessages } from '@expedition/i18n/documents';
import { toEmbedOptionsReady, type StoredOption } from './option-rows';
import { planHighlights } from './plan-highlights';

/**
 * The plan cards' highlights in the traveler's language (issue 22): the embed options answer of a quote carries every
 * plan's highlights in the language the quote recorded, and no English text of the catalog is left in a German,
 * French or Spanish answer.
 */
const plans = listPlans({ includeDisabled: true });
const TRANSLATED = LOCALES.filter((l) => l !== 'en');

/** Every plan of the catalog (retired and admin-only ones too) as one stored option each. */
const stored: StoredOption[] = plans.map((plan, rank) => ({
  planId: plan.id,
  premiumCents: 10_000 + rank,
  currency: 'USD',
  isRecommended: rank === 0,
  coverage: {},
  createdAt: new Date('2026-11-21T10:00:00Z'),
}));
const ready = (locale?: string) =>
  toEmbedOptionsReady(
    { id: 'q1', quoteNumber: 'EXP-ABCD', currency: 'USD', recommendedPlanId: null, ...(locale ? { locale } : {}) },
    stored,
    { quoteApiUrl: 'http://quote.test' },
  );

/** Every English text of the catalog namespace that the language writes differently ("Galápagos" is the same). */
function englishOnly(locale: (typeof TRANSLATED)[number]): string[] {
  const flat = (o: object): [string, string][] =>
    Object.entries(o).flatMap(([k, v]) =>
      typeof v === 'function'
        ? [[k, (v as () => string)()] as [string, string]]
        : flat(v as object).map(([j, t]) => [`${k}.${j}`, t] as [string, string]),
    );
  const translated = new Map(flat(catalogMessages(locale)));
  return flat(catalogMessages('en'))
    .filter(([key, text]) => translated.get(key) !== text)
    .map(([, text]) => text);
}

/** Every string value of a JSON document. */
const strings = (value: unknown): string[] =>
  typeof value === 'string' ? [value] : value && typeof value === 'object' ? Object.values(value).flatMap(strings) : [];

describe('plan highlights in the quote’s language', () => {
  it('has one message per highlight of the catalog in every language, English identical to the catalog', () => {
    for (const locale of [...LOCALES, PSEUDO_LOCALE] as const) {
      expect(Object.keys(catalogMessages(locale).highlights).sort()).toEqual(Object.keys(PLAN_HIGHLIGHTS).sort());
    }
    for (const [key, text] of Object.entries(PLAN_HIGHLIGHTS)) {
      expect(catalogMessages('en').highlights[key as keyof typeof PLAN_HIGHLIGHTS]()).toBe(text);
    }
  });

  it('answers an English quote (and one without a language) with the catalog’s English, as before', () => {
    for (const answer of [ready('en'), ready()]) {
      expect(answer.options.map((o) => o.highlights)).toEqual(plans.map((p) => [...p.highlights]));
    }
  });

  it.each(TRANSLATED)(
    'answers a %s quote with every plan’s highlights translated: none missing, none English, none empty',
    (locale) => {
      const answer = ready(locale);
      expect(answer.options.map((o) => o.planId)).toEqual(plans.map((p) => p.id));
      for (const [i, option] of answer.options.entries()) {
        const plan = plans[i]!;
        expect(option.highlights).toHaveLength(plan.highlights.length);
        expect(option.highlights).toEqual(planHighlights(plan, locale));
        option.highlights.forEach((text, n) => {
          expect({ plan: plan.id, text }).not.toEqual({ plan: plan.id, text: plan.highlights[n] });
          expect(text.trim()).not.toBe('');
        });
      }
      // No text of the answer is the catalog's English (plan names are names: "Polar Shield Standard" stays).
      const english = new Set(englishOnly(locale));
      expect(strings(answer).filter((text) => english.has(text))).toEqual([]);
    },
  );

  it('answers in English for a language a quote never records (the pseudo-locale, an unknown tag)', () => {
    expect(ready(PSEUDO_LOCALE).options.map((o) => o.highlights)).toEqual(plans.map((p) => [...p.highlights]));
    expect(ready('pt-BR').options[0]!.highlights).toEqual([...plans[0]!.highlights]);
  });

  it('writes the pseudo-locale when asked for it by name (layout checks)', () => {
    for (const plan of plans)
      for (const text of planHighlights(plan, PSEUDO_LOCALE)) expect(text).toMatch(/^\[\P{ASCII}.*\]$/u);
  });
});
