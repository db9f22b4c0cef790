/** Destinations of the catalog (domain-pricing's slugs and names) and the residence choices of the form. */
export const DESTINATIONS = [
  { slug: 'antarctica', name: 'Antarctica' },
  { slug: 'arctic', name: 'Arctic' },
  { slug: 'svalbard', name: 'Svalbard' },
  { slug: 'galapagos', name: 'Galápagos' },
  { slug: 'african-safari', name: 'African Safari' },
] as const;

/** A prefill may name a destination by slug or by name, in any case, with or without accents. */
export function destinationSlug(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const fold = (s: string) =>
    s
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[\s_]+/g, '-');
  const wanted = fold(value.trim());
  return DESTINATIONS.find((d) => d.slug === wanted || fold(d.name) === wanted)?.slug;
}

/** USPS codes of the 50 states and DC (domain-pricing's US_STATE_CODES). */
export const US_STATES =
  'AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY'.split(
    ' ',
  );

/** ISO 3166-1 alpha-2 codes; names come from Intl.DisplayNames in the visitor's locale. */
export const COUNTRY_CODES: readonly string[] =
  'AD AE AF AG AI AL AM AO AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GT GU GW GY HK HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW'.split(
    ' ',
  );

export interface Country {
  code: string;
  name: string;
}

/** One Intl.DisplayNames per locale: the first Intl object of a document costs tens of ms (ICU's data). */
const displayNames = new Map<string, Intl.DisplayNames | null>();
function regionNames(locale: string | undefined): Intl.DisplayNames | null {
  const key = locale ?? '';
  let names = displayNames.get(key);
  if (names === undefined) {
    try {
      names = new Intl.DisplayNames(locale ? [locale, 'en'] : undefined, { type: 'region' });
    } catch {
      names = null;
    }
    displayNames.set(key, names);
  }
  return names;
}

/** A country's name in `locale` (its code where Intl has none), as in `countryOptions`. */
export function countryName(code: string, locale?: string): string {
  return regionNames(locale)?.of(code) ?? code;
}

/** Every locale's sorted list is built once per document (the form renders it again on each keystroke). */
const countryLists = new Map<string, readonly Country[]>();

/** Every country, named in `locale` and sorted in its collation order. */
export function countryOptions(locale?: string): readonly Country[] {
  const key = locale ?? '';
  let list = countryLists.get(key);
  if (!list) {
    const collator = new Intl.Collator(locale);
    list = COUNTRY_CODES.map((code) => ({ code, name: countryName(code, locale) })).sort((a, b) =>
      collator.compare(a.name, b.name),
    );
    countryLists.set(key, list);
  }
  return list;
}

/** The list of `locale` if it has been built already (countryOptions), else undefined. */
export function builtCountryOptions(locale?: string): readonly Country[] | undefined {
  return countryLists.get(locale ?? '');
}

export const isCountryCode = (code: string): boolean => COUNTRY_CODES.includes(code);
