/**
 * The quote form's values (strings, as the inputs hold them), its prefill, its validation and the request body. The
 * rules mirror the embed API's (apps/embed-api README: dates window, USD only, 1–20 travelers, ages 0–120) so a
 * traveler sees the problem next to the field instead of a refusal after the round trip.
 */
import type { WidgetPrefill } from '@expedition/contracts/widget-protocol';
import type { EmbedQuoteBody } from './api';
import { destinationSlug, isCountryCode, US_STATES } from './regions';

export interface FormValues {
  destination: string;
  startDate: string;
  endDate: string;
  travelers: string;
  ages: string[];
  tripCost: string;
  currency: string;
  residence: string;
  state: string;
  email: string;
  name: string;
}
export type FieldName = Exclude<keyof FormValues, 'ages'> | `age-${number}`;
export type FormErrors = Partial<Record<FieldName, string>>;

export const MAX_TRAVELERS = 20;
export const PRICED_CURRENCIES = ['USD'] as const;

export function emptyValues(): FormValues {
  return { destination: '', startDate: '', endDate: '', travelers: '1', ages: [''], tripCost: '', currency: 'USD', residence: '', state: '', email: '', name: '' };
}

const DAY = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const parseDay = (value: string): number | undefined => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return undefined;
  const ms = Date.parse(`${value}T00:00:00Z`);
  return Number.isNaN(ms) || isoDay(ms) !== value ? undefined : ms;
};

/** Whole years between a date of birth and a day (both YYYY-MM-DD); undefined when unreadable. */
export function ageOn(dob: string, on: string): number | undefined {
  if (parseDay(dob) === undefined || parseDay(on) === undefined) return undefined;
  const [by, bm, bd] = dob.split('-').map(Number) as [number, number, number];
  const [y, m, d] = on.split('-').map(Number) as [number, number, number];
  const age = y - by - (m < bm || (m === bm && d < bd) ? 1 : 0);
  return age >= 0 ? age : undefined;
}

/** Resizes the ages list to the number of travelers, keeping what was typed. */
export function resizeAges(ages: string[], travelers: string): string[] {
  const n = Number(travelers);
  if (!Number.isInteger(n) || n < 1 || n > MAX_TRAVELERS) return ages;
  return Array.from({ length: n }, (_, i) => ages[i] ?? '');
}

/** Applies a prefill over the current values (only the fields it carries), e.g. on `svc:frame.update`. */
export function applyPrefill(values: FormValues, prefill: WidgetPrefill | undefined, today: string): FormValues {
  if (!prefill) return values;
  const next: FormValues = { ...values, ages: [...values.ages] };
  const slug = destinationSlug(prefill.destination);
  if (slug) next.destination = slug;
  if (prefill.startDate) next.startDate = prefill.startDate;
  if (prefill.endDate) next.endDate = prefill.endDate;
  if (prefill.tripCost !== undefined && prefill.tripCost >= 0) next.tripCost = String(prefill.tripCost);
  if (prefill.currency) next.currency = prefill.currency.toUpperCase();
  if (prefill.residence) next.residence = prefill.residence.toUpperCase();
  if (prefill.state) next.state = prefill.state.toUpperCase();
  if (prefill.email) next.email = prefill.email;
  if (prefill.name) next.name = prefill.name;
  const ages = prefill.travelerAges ?? prefill.travelerDobs?.map((dob) => ageOn(dob, prefill.startDate ?? next.startDate ?? today) ?? NaN);
  const count = prefill.travelers ?? ages?.length;
  if (count !== undefined && Number.isInteger(count) && count >= 1 && count <= MAX_TRAVELERS) {
    next.travelers = String(count);
    next.ages = resizeAges(next.ages, next.travelers);
  }
  if (ages) {
    next.ages = resizeAges(
      ages.map((a) => (Number.isInteger(a) && a > 0 ? String(a) : '')),
      next.travelers,
    );
  }
  return next;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** `today` is the visitor's calendar day (YYYY-MM-DD). */
export function validate(values: FormValues, today: string): FormErrors {
  const errors: FormErrors = {};
  if (!destinationSlug(values.destination)) errors.destination = 'Choose a destination.';

  const todayMs = parseDay(today) ?? Date.now();
  const start = parseDay(values.startDate);
  if (!values.startDate) errors.startDate = 'Enter your departure date.';
  else if (start === undefined) errors.startDate = 'Enter a date like 2027-01-15.';
  else if (start < todayMs) errors.startDate = 'The departure date is in the past.';
  else if (start > todayMs + 730 * DAY) errors.startDate = 'We can insure trips departing within the next two years.';

  const end = parseDay(values.endDate);
  if (!values.endDate) errors.endDate = 'Enter your return date.';
  else if (end === undefined) errors.endDate = 'Enter a date like 2027-01-29.';
  else if (start !== undefined && end <= start) errors.endDate = 'The return date must be after the departure date.';
  else if (start !== undefined && end > start + 365 * DAY) errors.endDate = 'Trips can last at most 365 days.';

  const travelers = Number(values.travelers);
  if (!Number.isInteger(travelers) || travelers < 1 || travelers > MAX_TRAVELERS) {
    errors.travelers = `Enter 1 to ${MAX_TRAVELERS} travelers.`;
  } else {
    values.ages.slice(0, travelers).forEach((raw, i) => {
      const age = Number(raw);
      if (raw.trim() === '') errors[`age-${i}`] = `Enter the age of traveler ${i + 1}.`;
      else if (!Number.isInteger(age) || age < 0 || age > 120) errors[`age-${i}`] = 'Enter an age from 0 to 120.';
    });
  }

  const cost = Number(values.tripCost);
  if (values.tripCost.trim() === '') errors.tripCost = 'Enter the total trip cost for all travelers.';
  else if (!Number.isFinite(cost) || cost <= 0) errors.tripCost = 'Enter an amount above zero.';
  else if (cost > 10_000_000) errors.tripCost = 'Enter an amount up to 10,000,000.';
  else if (!/^\d+(\.\d{1,2})?$/.test(values.tripCost.trim())) errors.tripCost = 'Enter the amount in whole dollars (cents optional), without separators.';

  if (!(PRICED_CURRENCIES as readonly string[]).includes(values.currency)) errors.currency = 'Trip costs can be priced in US dollars only for now.';

  if (!isCountryCode(values.residence)) errors.residence = 'Choose your country of residence.';
  else if (values.residence === 'US' && !US_STATES.includes(values.state)) errors.state = 'Choose your state of residence.';

  if (!values.email.trim()) errors.email = 'Enter your e-mail address: we send the quote there.';
  else if (!EMAIL.test(values.email.trim()) || values.email.trim().length > 254) errors.email = 'Enter an e-mail address like name@example.com.';

  if (values.name.length > 200) errors.name = 'Use at most 200 characters.';
  return errors;
}

/** The POST /api/embed/quote body of valid values. */
export function toQuoteBody(values: FormValues): EmbedQuoteBody {
  const travelers = Number(values.travelers);
  const name = values.name.trim();
  return {
    destination: destinationSlug(values.destination) ?? values.destination,
    startDate: values.startDate,
    endDate: values.endDate,
    travelers,
    travelerAges: values.ages.slice(0, travelers).map(Number),
    tripCost: Number(values.tripCost),
    currency: values.currency,
    residence: values.residence,
    ...(values.residence === 'US' ? { state: values.state } : {}),
    email: values.email.trim(),
    ...(name ? { name } : {}),
  };
}

/** The visitor's calendar day, YYYY-MM-DD (local time: what the date inputs show). */
export function localToday(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}
