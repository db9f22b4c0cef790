import {
  ageOn,
  daysBetween,
  EMBED_DEFAULT_QUOTE_NAME,
  isoDay,
  tripDateProblems,
  type EmbedQuoteRequest,
} from '@expedition/contracts';
import type { Mode } from '@expedition/contracts';
import { dollarsToCents } from '@expedition/domain-pricing';
import { negotiateLocale } from '@expedition/i18n';
import type { NewQuote } from '@expedition/quoting';

/** The reason given when an explicit durationDays contradicts both dates (README "Decisions", embed). */
export const DURATION_MISMATCH_ERROR = 'durationDays does not match startDate and endDate';

/** An input the spec's rules cannot turn into a quote; answered 400 `{ error: message }` like a pricing error. */
export class EmbedInputError extends Error {
  override readonly name = 'EmbedInputError';
}

export interface Attribution {
  operatorId: string;
  mode: Mode;
  /** The request's Accept-Language (the traveler's browser sends it from the iframe): the fallback for `locale`. */
  acceptLanguage?: string;
}

/**
 * The spec's field rules for POST /api/embed/quote (docs/contract.md), applied to an already type-checked body.
 * `now` is the server's clock: every date must lie in TRIP_DATE_WINDOW as of its UTC day, which is also the
 * reference for ages from dates of birth when there is no departure date. A date outside the window is a downstream
 * refusal (§7: 400 `{ error: "<field> <reason>" }`), not a wrong-typed field: the value is a well-formed date.
 */
export function toNewQuote(body: EmbedQuoteRequest, who: Attribution, now: Date): NewQuote {
  const [problem] = tripDateProblems(body, now);
  if (problem) throw new EmbedInputError(`${problem.path.join('.')} ${problem.message}`);
  return {
    source: 'embed',
    operatorId: who.operatorId,
    mode: who.mode,
    destination: body.destination,
    startDate: body.startDate ?? null,
    endDate: body.endDate ?? null,
    durationDays: resolveDurationDays(body),
    tripCostCents: dollarsToCents(body.tripCost),
    // Pricing (domain-pricing) refuses a currency it cannot price, with the reason the route returns.
    currency: body.currency,
    travelers: body.travelers,
    travelerAges: resolveTravelerAges(body, body.startDate ?? isoDay(now)),
    residence: body.residence.trim().toUpperCase(),
    state: blankToNull(body.state)?.toUpperCase() ?? null,
    email: body.email,
    name: blankToNull(body.name) ?? EMBED_DEFAULT_QUOTE_NAME,
    phone: blankToNull(body.phone),
    otherCountries: body.otherCountries ?? [],
    locale: negotiateLocale({ explicit: [body.locale], acceptLanguage: who.acceptLanguage }),
  };
}

/**
 * When both dates are present they define the trip: the whole days between them, and an explicit positive
 * `durationDays` that says otherwise is refused (priced as one length, insured for another). An end date not after
 * the start date is refused too. Without both dates, `durationDays` as given when positive, else 0: "not given" to
 * the pricing engine, which prices the destination's default length (`defaultDurationDays` of the catalog), stores
 * it with `durationDefaulted = true` and lowers the confidence one step. The quote service
 * stores `endDate` = `startDate` + the priced length when no end date is given, so a policy carries the priced dates.
 */
export function resolveDurationDays(body: Pick<EmbedQuoteRequest, 'durationDays' | 'startDate' | 'endDate'>): number {
  const given = body.durationDays !== undefined && body.durationDays > 0 ? body.durationDays : undefined;
  if (!body.startDate || !body.endDate) return given ?? 0;
  const days = daysBetween(body.startDate, body.endDate);
  if (days < 1) throw new EmbedInputError('endDate must be after startDate');
  if (given !== undefined && given !== days) throw new EmbedInputError(DURATION_MISMATCH_ERROR);
  return days;
}

/**
 * One age per traveler. An explicit non-zero `travelerAges[i]` wins; otherwise `travelerDobs[i]` resolved to the age
 * at departure (`referenceDay`: the start date, else today); otherwise 0, which the engine reads as "unknown" (it
 * prices an assumed age and lowers the confidence, so the quote is not instant-eligible). When `travelerAges` is
 * given with the wrong length it is passed through unchanged and the engine refuses it with its own message.
 * Caveat: an infant under one year resolves to 0, i.e. "unknown", because 0 is the spec's unknown marker. A date of
 * birth after `referenceDay` is refused.
 */
export function resolveTravelerAges(
  body: Pick<EmbedQuoteRequest, 'travelers' | 'travelerAges' | 'travelerDobs'>,
  referenceDay: string,
): number[] {
  const dobs = body.travelerDobs ?? [];
  if (dobs.length > body.travelers) {
    throw new EmbedInputError(`travelerDobs has ${dobs.length} entries for ${body.travelers} travelers`);
  }
  if (body.travelerAges && body.travelerAges.length !== body.travelers) return [...body.travelerAges];
  return Array.from({ length: body.travelers }, (_, i) => {
    const given = body.travelerAges?.[i] ?? 0;
    if (given > 0) return given;
    const dob = dobs[i];
    if (!dob) return 0;
    const age = ageOn(dob, referenceDay);
    if (age === undefined)
      throw new EmbedInputError(`travelerDobs: traveler ${i + 1}'s date of birth is after departure`);
    return age;
  });
}

function blankToNull(value: string | undefined): string | null {
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
}
