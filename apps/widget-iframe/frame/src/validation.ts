/**
 * The quote form's values (strings, as the inputs hold them), its prefill, its validation and the request body. The
 * numbers are the embed API's own, read from `@expedition/contracts/rules` (date window, priced currencies, travelers,
 * ages, trip cost, text lengths), so a traveler sees the problem next to the field instead of a refusal after the
 * round trip. The messages are the widget's (libs/i18n `widget.validation`), in the traveler's language.
 */
import {
  ageOn,
  DAY_MS,
  EMAIL_MAX_LENGTH,
  EMAIL_SHAPE,
  parseIsoDay,
  PRICED_CURRENCIES,
  QUOTE_LIMITS,
  TRIP_DATE_WINDOW,
} from '@expedition/contracts/rules';
import type { EmbedQuoteRequest } from '@expedition/contracts';
import { PSEUDO_LOCALE, type RenderLocale } from '@expedition/i18n';
import type { WidgetMessages } from '@expedition/i18n/widget';
import type { WidgetPrefill } from '@expedition/contracts/widget-protocol';
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

const { maxTravelers, maxTravelerAge, maxTripCost, maxName } = QUOTE_LIMITS;

export function emptyValues(): FormValues {
  return {
    destination: '',
    startDate: '',
    endDate: '',
    travelers: '1',
    ages: [''],
    tripCost: '',
    currency: 'USD',
    residence: '',
    state: '',
    email: '',
    name: '',
  };
}

/** Resizes the ages list to the number of travelers, keeping what was typed. */
export function resizeAges(ages: string[], travelers: string): string[] {
  const n = Number(travelers);
  if (!Number.isInteger(n) || n < 1 || n > maxTravelers) return ages;
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
  const ages =
    prefill.travelerAges ??
    prefill.travelerDobs?.map((dob) => ageOn(dob, prefill.startDate ?? next.startDate ?? today) ?? NaN);
  const count = prefill.travelers ?? ages?.length;
  if (count !== undefined && Number.isInteger(count) && count >= 1 && count <= maxTravelers) {
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

type Messages = WidgetMessages['validation'];

/** `today` is the visitor's calendar day (YYYY-MM-DD); `m` the messages in the traveler's language. */
export function validate(values: FormValues, today: string, m: Messages): FormErrors {
  const errors: FormErrors = {};
  if (!destinationSlug(values.destination)) errors.destination = m.chooseDestination();

  const todayMs = parseIsoDay(today) ?? Date.now();
  const start = parseIsoDay(values.startDate);
  if (!values.startDate) errors.startDate = m.enterDeparture();
  else if (start === undefined) errors.startDate = m.dateLike({ example: '2027-01-15' });
  else if (start < todayMs) errors.startDate = m.departurePast();
  else if (start > todayMs + TRIP_DATE_WINDOW.maxDaysAhead * DAY_MS)
    errors.startDate = m.departureTooFar({ days: TRIP_DATE_WINDOW.maxDaysAhead });

  const end = parseIsoDay(values.endDate);
  if (!values.endDate) errors.endDate = m.enterReturn();
  else if (end === undefined) errors.endDate = m.dateLike({ example: '2027-01-29' });
  else if (start !== undefined && end <= start) errors.endDate = m.returnAfterDeparture();
  else if (start !== undefined && end > start + TRIP_DATE_WINDOW.maxTripDays * DAY_MS)
    errors.endDate = m.tripTooLong({ days: TRIP_DATE_WINDOW.maxTripDays });

  const travelers = Number(values.travelers);
  if (!Number.isInteger(travelers) || travelers < 1 || travelers > maxTravelers) {
    errors.travelers = m.travelersRange({ max: maxTravelers });
  } else {
    values.ages.slice(0, travelers).forEach((raw, i) => {
      const age = Number(raw);
      if (raw.trim() === '') errors[`age-${i}`] = m.enterAge({ number: i + 1 });
      else if (!Number.isInteger(age) || age < 0 || age > maxTravelerAge)
        errors[`age-${i}`] = m.ageRange({ max: maxTravelerAge });
    });
  }

  const cost = Number(values.tripCost);
  if (values.tripCost.trim() === '') errors.tripCost = m.enterTripCost();
  else if (!Number.isFinite(cost) || cost <= 0) errors.tripCost = m.amountAboveZero();
  else if (cost > maxTripCost) errors.tripCost = m.amountUpTo({ max: maxTripCost });
  else if (!/^\d+(\.\d{1,2})?$/.test(values.tripCost.trim())) errors.tripCost = m.wholeDollars();

  if (!(PRICED_CURRENCIES as readonly string[]).includes(values.currency)) errors.currency = m.usdOnly();

  if (!isCountryCode(values.residence)) errors.residence = m.chooseResidence();
  else if (values.residence === 'US' && !US_STATES.includes(values.state)) errors.state = m.chooseState();

  if (!values.email.trim()) errors.email = m.enterEmail();
  else if (!EMAIL_SHAPE.test(values.email.trim()) || values.email.trim().length > EMAIL_MAX_LENGTH)
    errors.email = m.emailLike();

  if (values.name.length > maxName) errors.name = m.nameTooLong({ max: maxName });
  return errors;
}

/**
 * The POST /api/embed/quote body of valid values, with the widget's language: the quote records it, so the checkout,
 * the e-mail and the documents follow (never the pseudo-locale, which is for layout checks).
 */
export function toQuoteBody(values: FormValues, lang?: RenderLocale): EmbedQuoteRequest {
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
    ...(lang && lang !== PSEUDO_LOCALE ? { locale: lang } : {}),
  };
}

/** The visitor's calendar day, YYYY-MM-DD (local time: what the date inputs show). */
export function localToday(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}
