import { PLAN_HIGHLIGHTS } from '@expedition/domain-pricing';
import { LOCALES, PSEUDO_LOCALE } from '@expedition/i18n';
import { widgetMessages } from '@expedition/i18n/documents';
import { englishOnly } from './untranslated-text';

/** What the Chromium suite's untranslated-text check looks for (languages.browser.spec.ts runs it on every screen). */
describe('the untranslated-text check', () => {
  it.each(LOCALES.filter((l) => l !== 'en'))('forbids every plan highlight in English on a %s page', (locale) => {
    const { whole } = englishOnly(locale, ['widget', 'catalog']);
    for (const text of Object.values(PLAN_HIGHLIGHTS)) expect(whole).toContain(text);
    expect(whole).toContain(widgetMessages('en').plans.medical());
  });

  it("allows only the messages a language writes as English on purpose (names like 'Galápagos')", () => {
    expect(englishOnly('de', ['catalog']).whole).not.toContain('Galápagos');
    expect(englishOnly('de', ['catalog']).whole).toContain('Svalbard');
    expect(englishOnly('fr', ['catalog']).whole).not.toContain('Svalbard');
  });

  it('cuts placeholders out of a message and looks for its sentences inside longer texts', () => {
    const { part } = englishOnly('fr', ['widget']);
    expect(part).toContain('Test mode: nothing is charged. E-mail');
    expect(englishOnly(PSEUDO_LOCALE, ['widget']).whole).toContain(widgetMessages('en').page.getPrices());
  });
});
