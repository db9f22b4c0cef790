/**
 * Hand-written MountConfig validation (no zod in a 3 KB script). `MountConfigSchema` in @expedition/contracts is the
 * same rules in zod; test/validate.spec.ts proves both accept and refuse the same samples.
 */
import { MOUNT_CONFIG_LIMITS as L, type MountConfig } from '@expedition/contracts/widget-protocol';

type Check = (value: unknown) => boolean;

export const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const isString = (v: unknown): v is string => typeof v === 'string';
const isNumber = (v: unknown): v is number => typeof v === 'number' && isFinite(v);
const isInt = (v: unknown): v is number => isNumber(v) && Math.floor(v) === v;
const str =
  (min: number, max: number, re?: RegExp, trim?: boolean): Check =>
  (v) => {
    if (!isString(v)) return false;
    const s = trim ? v.trim() : v;
    return s.length >= min && s.length <= max && (!re || re.test(s));
  };
const int =
  (min: number, max: number): Check =>
  (v) =>
    isInt(v) && v >= min && v <= max;
const list =
  (item: Check): Check =>
  (v) =>
    Array.isArray(v) && v.length <= L.maxTravelers && v.every(item);
const matches =
  (re: RegExp): Check =>
  (v) =>
    isString(v) && re.test(v);
const key = matches(L.publishableKey);
const date = matches(L.isoDate);
const css = str(1, L.maxCssValue, L.cssValue);

const KEY: [Check, string] = [key, 'a publishable key pk_…'];
const DATE: [Check, string] = [date, 'YYYY-MM-DD'];
const CSS: [Check, string] = [css, 'a CSS value'];
const TEXT = (min: number, max: number): [Check, string] => [
  str(min, max, undefined, true),
  `${min}-${max} characters`,
];

const FIELDS: Record<string, [Check, string]> = {
  publishableKey: KEY,
  pk: KEY,
  destination: TEXT(1, L.maxDestination),
  startDate: DATE,
  endDate: DATE,
  tripCost: [(v) => isNumber(v) && v >= 0 && v <= L.maxTripCost, `whole dollars 0-${L.maxTripCost}`],
  travelers: [int(1, L.maxTravelers), `an integer 1-${L.maxTravelers}`],
  travelerAges: [list(int(0, L.maxAge)), `integers 0-${L.maxAge}`],
  travelerDobs: [list(date), 'YYYY-MM-DD dates'],
  residence: TEXT(2, L.maxResidence),
  state: TEXT(0, L.maxResidence),
  email: [str(0, L.maxEmail, L.email), 'an email'],
  name: [str(0, L.maxName), `0-${L.maxName} characters`],
  currency: [matches(L.currency), 'ISO 4217 (USD)'],
  tier: [(v) => v === 1 || v === 2 || v === 3, '1, 2 or 3'],
  locale: [matches(L.locale), 'a language tag (en-GB)'],
  appearance: [isObject, 'an object'],
  autoResize: [(v) => typeof v === 'boolean', 'a boolean'],
  title: TEXT(1, L.maxTitle),
  loadTimeoutMs: [
    int(L.minLoadTimeoutMs, L.maxLoadTimeoutMs),
    `an integer ${L.minLoadTimeoutMs}-${L.maxLoadTimeoutMs}`,
  ],
};
const APPEARANCE: Record<string, [Check, string]> = {
  accentColor: CSS,
  backgroundColor: CSS,
  textColor: CSS,
  borderRadius: CSS,
  fontFamily: CSS,
  theme: [(v) => v === 'light' || v === 'dark' || v === 'auto', 'light, dark or auto'],
};

const fail = (field: string, expected: string): never => {
  throw new TypeError(`SvcWidget: config${field && '.'}${field} must be ${expected}`);
};

function checkFields(config: Record<string, unknown>, rules: Record<string, [Check, string]>, prefix: string): void {
  for (const field in config) {
    const value = config[field];
    const rule = rules[field];
    if (!rule) console.warn(`SvcWidget: unknown config.${prefix}${field} ignored`);
    else if (value !== undefined && !rule[0](value)) fail(prefix + field, rule[1]);
  }
}

/**
 * Throws a TypeError naming the first bad field. `requireKey`: mount needs publishableKey (or pk), update does not.
 * Returns the config with `publishableKey` filled from `pk`.
 */
export function validateMountConfig(config: unknown, requireKey: boolean): MountConfig {
  if (!isObject(config)) fail('', 'an object');
  const c = config as Record<string, unknown>;
  checkFields(c, FIELDS, '');
  if (c['appearance']) checkFields(c['appearance'] as Record<string, unknown>, APPEARANCE, 'appearance.');
  const pk = c['publishableKey'] ?? c['pk'];
  if (c['publishableKey'] !== undefined && c['pk'] !== undefined && c['publishableKey'] !== c['pk'])
    fail('pk', 'equal to publishableKey');
  if (requireKey && pk === undefined) fail('publishableKey', 'set (required)');
  return (pk === undefined ? { ...c } : { ...c, publishableKey: pk }) as MountConfig;
}
