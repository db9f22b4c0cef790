/**
 * The date checks of every quote request: each date must lie in TRIP_DATE_WINDOW (rules.ts, README "Decisions").
 * Without it a departure in 9999 priced fine and then made an end date the database driver cannot read back. "Today"
 * always comes from the caller's clock, never from a global one, so these checks are testable with a fixed clock.
 */
import { addDays, isoDay } from './days';
import { TRIP_DATE_WINDOW } from './rules';

/** The dates of a request, all `YYYY-MM-DD` already checked as real calendar days. */
export interface TripDates {
  startDate?: string | null;
  endDate?: string | null;
  depositPaidDate?: string | null;
  travelerDobs?: readonly string[] | null;
}

/** One refused date: `path` names the field (like a zod issue), `message` reads after it ("startDate is in the past"). */
export interface TripDateProblem {
  path: (string | number)[];
  message: string;
}

/**
 * Every date of `dates` outside TRIP_DATE_WINDOW, in field order (empty when all are inside). `now` is the caller's
 * clock. An `endDate` without a `startDate` must lie where some trip in the window could end.
 */
export function tripDateProblems(dates: TripDates, now: Date): TripDateProblem[] {
  const today = isoDay(now);
  const w = TRIP_DATE_WINDOW;
  const problems: TripDateProblem[] = [];
  const refuse = (path: (string | number)[], message: string) => problems.push({ path, message });
  const { startDate, endDate, depositPaidDate } = dates;

  if (startDate) {
    if (startDate < today) refuse(['startDate'], 'is in the past');
    else if (startDate > addDays(today, w.maxDaysAhead))
      refuse(['startDate'], `must be at most ${w.maxDaysAhead} days after today`);
  }
  if (endDate && startDate) {
    if (endDate <= startDate) refuse(['endDate'], 'must be after startDate');
    else if (endDate > addDays(startDate, w.maxTripDays))
      refuse(['endDate'], `must be at most ${w.maxTripDays} days after startDate`);
  } else if (endDate) {
    const latest = w.maxDaysAhead + w.maxTripDays;
    if (endDate <= today || endDate > addDays(today, latest))
      refuse(['endDate'], `must be 1 to ${latest} days after today`);
  }
  if (depositPaidDate) {
    if (depositPaidDate > today) refuse(['depositPaidDate'], 'is in the future');
    else if (depositPaidDate < addDays(today, -w.maxDepositDaysBack)) {
      refuse(['depositPaidDate'], `must be at most ${w.maxDepositDaysBack} days before today`);
    }
  }
  (dates.travelerDobs ?? []).forEach((dob, i) => {
    if (dob > today) refuse(['travelerDobs', i], 'is in the future');
    else if (dob <= yearsBefore(today, w.maxAgeYears + 1))
      refuse(['travelerDobs', i], `gives an age over ${w.maxAgeYears} today`);
  });
  return problems;
}

/** `YYYY-MM-DD` the same month and day `years` earlier (compared as text, so 29 February needs no special case). */
function yearsBefore(day: string, years: number): string {
  const year = Number(day.slice(0, 4)) - years;
  return `${String(year).padStart(4, '0')}${day.slice(4)}`;
}
