/**
 * UTC calendar-day arithmetic on `YYYY-MM-DD` strings: the one day helper of the platform's shared code (servers,
 * pricing, widget iframe). Part of the zod-free `@expedition/contracts/rules` entry, so it imports nothing.
 */

/** Milliseconds in a UTC day. */
export const DAY_MS = 86_400_000;

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

/** `YYYY-MM-DD` of an instant (a Date or epoch milliseconds), in UTC. */
export function isoDay(instant: Date | number): string {
  return new Date(instant).toISOString().slice(0, 10);
}

/** Epoch milliseconds of 00:00 UTC on `value`; undefined unless it is a real calendar day `YYYY-MM-DD` (not 2026-02-30). */
export function parseIsoDay(value: string): number | undefined {
  if (!ISO_DAY.test(value)) return undefined;
  const ms = Date.parse(`${value}T00:00:00Z`);
  return Number.isNaN(ms) || isoDay(ms) !== value ? undefined : ms;
}

/** The UTC calendar day `days` after `day` (negative goes back). */
export function addDays(day: string, days: number): string {
  return isoDay(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS);
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
}

/**
 * Completed years from a date of birth to `day` (a 29 February birthday counts from 1 March in other years).
 * Undefined when either is not a real calendar day or the birth is after `day`.
 */
export function ageOn(dob: string, day: string): number | undefined {
  if (parseIsoDay(dob) === undefined || parseIsoDay(day) === undefined || dob > day) return undefined;
  const [by, bm, bd] = dob.split('-').map(Number) as [number, number, number];
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const hadBirthday = m > bm || (m === bm && d >= bd);
  return y - by - (hadBirthday ? 0 : 1);
}
