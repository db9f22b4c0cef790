/**
 * Hand-written MountConfig validation (no zod in a 2.8 KB script). `MountConfigSchema` in @expedition/contracts is the
 * same rules in zod; test/validate.spec.ts proves both accept and refuse the same samples.
 *
 * Written for the loader's size budget (README, "Build and budget"), but every message below is public (thrown at the
 * operator's page, or logged) and stays word for word.
 */
import { MOUNT_CONFIG_LIMITS as L, type MountConfig } from '@expedition/contracts/widget-protocol';

/**
 * Called with any value: each check types its parameter as what it tests for, and tests that first (hence `never`
 * here, and `as never` where one is called).
 */
type Check = (value: never) => unknown;
type Rule = [Check, string];

/** Every TypeError the loader throws at the page: `SvcWidget: <message>`. */
export const raise = (message: string): never => {
  throw new TypeError(`SvcWidget: ${message}`);
};

export const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
/** A string (trimmed first with `trim`) of min..max characters, matching `re` when given. */
const str =
  (re: RegExp | 0, min = 0, max = 1 / 0, trim?: 1 | 0): Check =>
  (v: string) =>
    typeof v === 'string' && (v = trim ? v.trim() : v).length >= min && v.length <= max && (!re || re.test(v));
/** A number in min..max (NaN and ±Infinity fall outside), an integer unless `fraction`. */
const num =
  (min: number, max: number, fraction?: 1): Check =>
  (v: number) =>
    typeof v === 'number' && v >= min && v <= max && (fraction || v % 1 === 0);
const list =
  (item: Check): Check =>
  (v: unknown) =>
    Array.isArray(v) && v.length <= L.maxTravelers && v.every(item as (value: unknown) => unknown);
const oneOf =
  (...values: unknown[]): Check =>
  (v: unknown) =>
    values.includes(v);
const date = str(L.isoDate);

const KEY: Rule = [str(L.publishableKey), 'a publishable key pk_…'];
const DATE: Rule = [date, 'YYYY-MM-DD'];
const CSS: Rule = [str(L.cssValue, 1, L.maxCssValue), 'a CSS value'];
/** Trimmed first, unless `trim` is 0. */
const TEXT = (min: number, max: number, trim: 1 | 0 = 1): Rule => [str(0, min, max, trim), `${min}-${max} characters`];
const INT = (min: number, max: number): Rule => [num(min, max), `an integer ${min}-${max}`];

/**
 * Order matters to the loader (loader.ts slices the names): the two key names, then the fields the hosted quote page
 * takes as query parameters (locale first), then the rest of the prefill, then the others. test/loader-fields.spec.ts
 * checks the slices.
 */
const FIELDS: Record<string, Rule> = {
  publishableKey: KEY,
  pk: KEY,
  locale: [str(L.locale), 'a language tag (en-GB)'],
  destination: TEXT(1, L.maxDestination),
  startDate: DATE,
  endDate: DATE,
  tripCost: [num(0, L.maxTripCost, 1), `whole dollars 0-${L.maxTripCost}`],
  travelers: INT(1, L.maxTravelers),
  residence: TEXT(2, L.maxResidence),
  state: TEXT(0, L.maxResidence),
  currency: [str(L.currency), 'ISO 4217 (USD)'],
  travelerAges: [list(num(0, L.maxAge)), `integers 0-${L.maxAge}`],
  travelerDobs: [list(date), 'YYYY-MM-DD dates'],
  email: [str(L.email, 0, L.maxEmail), 'an email'],
  name: TEXT(0, L.maxName, 0),
  tier: [oneOf(1, 2, 3), '1, 2 or 3'],
  appearance: [isObject, 'an object'],
  autoResize: [oneOf(true, false), 'a boolean'],
  title: TEXT(1, L.maxTitle),
  loadTimeoutMs: INT(L.minLoadTimeoutMs, L.maxLoadTimeoutMs),
};
const APPEARANCE: Record<string, Rule> = {
  accentColor: CSS,
  backgroundColor: CSS,
  textColor: CSS,
  borderRadius: CSS,
  fontFamily: CSS,
  theme: [oneOf('light', 'dark', 'auto'), 'light, dark or auto'],
};
/** MountConfig's field names, in the order above. */
export const FIELD_NAMES = Object.keys(FIELDS);

/** `path`: '' for the config itself, else `.field` or `.appearance.field`. */
const fail: (path: string, expected: string) => never = (path, expected) => raise(`config${path} must be ${expected}`);

function checkFields(config: Record<string, unknown>, rules: Record<string, Rule>, prefix: string): void {
  for (const field in config) {
    const value = config[field];
    const rule = rules[field];
    if (!rule) console.warn(`SvcWidget: unknown config${prefix}${field} ignored`);
    else if (value !== undefined && !rule[0](value as never)) fail(prefix + field, rule[1]);
  }
}

/**
 * Throws a TypeError naming the first bad field. `requireKey`: mount needs publishableKey (or pk), update does not.
 * Returns a copy of the config with `publishableKey` filled from `pk`.
 */
export function validateMountConfig(c: unknown, requireKey: boolean): MountConfig {
  if (!isObject(c)) fail('', 'an object');
  checkFields(c, FIELDS, '.');
  if (c['appearance']) checkFields(c['appearance'] as Record<string, unknown>, APPEARANCE, '.appearance.');
  const pk = c['publishableKey'] ?? c['pk'];
  if ((c['pk'] ?? pk) !== pk) fail('.pk', 'equal to publishableKey');
  if (requireKey && pk === undefined) fail('.publishableKey', 'set (required)');
  return { ...c, publishableKey: pk as string | undefined };
}
