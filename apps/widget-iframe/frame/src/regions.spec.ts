import { builtCountryOptions, COUNTRY_CODES, countryName, countryOptions, isCountryCode } from './regions';

describe('residence choices', () => {
  it('names every country in the locale, sorted in its order, the list built once per locale', () => {
    expect(builtCountryOptions('fr')).toBeUndefined();
    const french = countryOptions('fr');
    expect(builtCountryOptions('fr')).toBe(french);
    expect(countryOptions('fr')).toBe(french);
    expect(french.map((c) => c.code).sort()).toEqual([...COUNTRY_CODES].sort());
    const collator = new Intl.Collator('fr');
    expect(french.map((c) => c.name)).toEqual(french.map((c) => c.name).sort(collator.compare));
    expect(french.find((c) => c.code === 'DE')?.name).toBe(countryName('DE', 'fr'));
    expect(countryName('DE', 'fr')).toBe(new Intl.DisplayNames(['fr', 'en'], { type: 'region' }).of('DE'));
    expect(builtCountryOptions('de')).toBeUndefined();
  });

  it('knows only ISO 3166-1 alpha-2 codes of its list', () => {
    expect(isCountryCode('GB')).toBe(true);
    expect(isCountryCode('XX')).toBe(false);
    expect(isCountryCode('')).toBe(false);
  });
});
