/**
 * The traveler's languages and how one is chosen. Pure: no Node API, no DOM (the widget, the hosted page and the
 * servers negotiate alike).
 */

/** The languages travelers read our pages, documents and e-mails in. English is the fallback. */
export const LOCALES = ['en', 'de', 'fr', 'es'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en';

/**
 * The pseudo-locale: English accented and ~40 % longer, in brackets, for layout checks (a text cut off loses its
 * closing bracket; an unaccented text was never translated). Pages render it when asked by name (`?locale=en-XA`);
 * a quote never records it and no Accept-Language picks it.
 */
export const PSEUDO_LOCALE = 'en-XA';
export type RenderLocale = Locale | typeof PSEUDO_LOCALE;

/** Each language's own name, for a language switch. */
export const LANGUAGE_NAMES: Readonly<Record<Locale, string>> = {
  en: 'English',
  de: 'Deutsch',
  fr: 'Français',
  es: 'Español',
};

export const isLocale = (value: unknown): value is Locale =>
  typeof value === 'string' && (LOCALES as readonly string[]).includes(value);

/** A stored language (a quote's `locale` column) as a Locale: English when it is not one we write. */
export const asLocale = (value: unknown): Locale => (isLocale(value) ? value : DEFAULT_LOCALE);

/** A BCP 47 tag as accepted anywhere we take one: letters, digits and hyphens, at most 35 characters. */
const TAG = /^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$/;

/**
 * The supported language of one tag, or null: `de`, `de-AT`, `DE-ch` → `de`; `pt-BR` → null. The pseudo-locale is
 * only matched when `pseudo` is allowed.
 */
export function matchLocale(tag: string, opts: { pseudo?: boolean } = {}): RenderLocale | null {
  const t = tag.trim();
  if (t.length > 35 || !TAG.test(t)) return null;
  if (opts.pseudo && t.toLowerCase() === PSEUDO_LOCALE.toLowerCase()) return PSEUDO_LOCALE;
  const [language = ''] = t.toLowerCase().split('-');
  return isLocale(language) ? language : null;
}

/** One entry of an Accept-Language header. */
export interface LanguageRange {
  readonly tag: string;
  readonly q: number;
}

/**
 * The ranges of an `Accept-Language` header (RFC 9110 §12.5.4), best first: `fr-CH, fr;q=0.9, en;q=0.8, *;q=0.5`.
 * Entries with q=0, malformed entries and malformed q-values are dropped; equal q-values keep their order. At most 50
 * entries are read (a header is bounded, our work is too).
 */
export function parseAcceptLanguage(header: string | null | undefined): LanguageRange[] {
  if (!header) return [];
  const ranges: (LanguageRange & { i: number })[] = [];
  header
    .split(',')
    .slice(0, 50)
    .forEach((part, i) => {
      const [rawTag = '', ...params] = part.split(';');
      const tag = rawTag.trim();
      if (tag !== '*' && !TAG.test(tag)) return;
      let q = 1;
      for (const param of params) {
        const m = /^\s*q\s*=\s*(0(\.\d{0,3})?|1(\.0{0,3})?)\s*$/i.exec(param);
        if (!m) return;
        q = Number(m[1]);
      }
      if (q > 0) ranges.push({ tag, q, i });
    });
  return ranges.sort((a, b) => b.q - a.q || a.i - b.i).map(({ tag, q }) => ({ tag, q }));
}

/** The best supported language of an Accept-Language header, by language (`de-AT` → `de`), or null. */
export function localeFromAcceptLanguage(header: string | null | undefined): Locale | null {
  for (const { tag } of parseAcceptLanguage(header)) {
    if (tag === '*') return null;
    const match = matchLocale(tag);
    if (match && match !== PSEUDO_LOCALE) return match;
  }
  return null;
}

/**
 * The language to use: the first of `explicit` tags that we support (a `?locale=`, a MountConfig.locale, an API
 * field: by language, `de-AT` → `de`), else the Accept-Language header's, else English.
 */
export function negotiateLocale(input: {
  explicit?: readonly (string | null | undefined)[];
  acceptLanguage?: string | null;
}): Locale {
  for (const tag of input.explicit ?? []) {
    const match = tag ? matchLocale(tag) : null;
    if (match && match !== PSEUDO_LOCALE) return match;
  }
  return localeFromAcceptLanguage(input.acceptLanguage) ?? DEFAULT_LOCALE;
}

/** As {@link negotiateLocale}, for a page that may also be asked for the pseudo-locale by name. */
export function negotiateRenderLocale(input: {
  explicit?: readonly (string | null | undefined)[];
  acceptLanguage?: string | null;
}): RenderLocale {
  const first = input.explicit?.find((t) => t);
  if (first && matchLocale(first, { pseudo: true }) === PSEUDO_LOCALE) return PSEUDO_LOCALE;
  return negotiateLocale(input);
}

/** The locale `Intl` formats with (the pseudo-locale formats as English). */
export const intlLocale = (locale: RenderLocale): Locale => (locale === PSEUDO_LOCALE ? 'en' : locale);
