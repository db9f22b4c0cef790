import {
  localeFromAcceptLanguage,
  matchLocale,
  negotiateLocale,
  negotiateRenderLocale,
  parseAcceptLanguage,
} from './locales';

describe('parseAcceptLanguage', () => {
  it('orders ranges by q-value, keeping the header order for equal values', () => {
    expect(parseAcceptLanguage('fr-CH, fr;q=0.9, en;q=0.8, de;q=0.9, *;q=0.5')).toEqual([
      { tag: 'fr-CH', q: 1 },
      { tag: 'fr', q: 0.9 },
      { tag: 'de', q: 0.9 },
      { tag: 'en', q: 0.8 },
      { tag: '*', q: 0.5 },
    ]);
  });

  it('drops q=0 (not acceptable), malformed tags and malformed q-values', () => {
    expect(parseAcceptLanguage('de;q=0, es;q=1.5, fr;q=abc, <script>, en-GB ; q=0.7')).toEqual([
      { tag: 'en-GB', q: 0.7 },
    ]);
    expect(parseAcceptLanguage('')).toEqual([]);
    expect(parseAcceptLanguage(undefined)).toEqual([]);
  });
});

describe('locale negotiation', () => {
  it('falls back by language, then to English', () => {
    expect(matchLocale('de-AT')).toBe('de');
    expect(matchLocale('ES-mx')).toBe('es');
    expect(matchLocale('pt-BR')).toBeNull();
    expect(negotiateLocale({ explicit: ['pt-BR'] })).toBe('en');
    expect(negotiateLocale({ explicit: ['fr-CA'] })).toBe('fr');
  });

  it('takes the first supported explicit tag, then the Accept-Language header, then English', () => {
    expect(negotiateLocale({ explicit: [undefined, 'it', 'de-CH'], acceptLanguage: 'fr' })).toBe('de');
    expect(negotiateLocale({ explicit: ['it'], acceptLanguage: 'it, es;q=0.8, de;q=0.5' })).toBe('es');
    expect(negotiateLocale({ acceptLanguage: 'ja, *;q=0.1' })).toBe('en');
    expect(negotiateLocale({})).toBe('en');
  });

  it('reads Accept-Language by language and never picks the pseudo-locale from it', () => {
    expect(localeFromAcceptLanguage('en-XA, de;q=0.5')).toBe('en');
    expect(localeFromAcceptLanguage('da, en-GB;q=0.8, en;q=0.7')).toBe('en');
    expect(localeFromAcceptLanguage('nl')).toBeNull();
  });

  it('renders the pseudo-locale only when a page is asked for it by name', () => {
    expect(negotiateRenderLocale({ explicit: ['en-XA'] })).toBe('en-XA');
    expect(negotiateLocale({ explicit: ['en-XA'] })).toBe('en');
    expect(negotiateRenderLocale({ acceptLanguage: 'en-XA' })).toBe('en');
  });

  it('refuses tags that are not BCP 47 shaped or too long', () => {
    expect(matchLocale('de_DE')).toBeNull();
    expect(matchLocale(`de-${'x'.repeat(40)}`)).toBeNull();
  });
});
