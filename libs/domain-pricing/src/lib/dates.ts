import { DAY_MS, isoDay } from '@expedition/contracts/rules';
import { invalidInput } from './errors';

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * Parses a calendar date `YYYY-MM-DD` into a day number (days since 1970-01-01, UTC). Only calendar
 * arithmetic: no clock is read, no time zone applies.
 */
export function parseIsoDate(field: string, value: string): number {
  const match = ISO_DATE.exec(value);
  if (!match) throw invalidInput(field, `${field} must be a date in YYYY-MM-DD format`);
  const [, y, m, d] = match;
  const year = Number(y);
  const month = Number(m);
  const day = Number(d);
  const ms = Date.UTC(year, month - 1, day);
  const back = new Date(ms);
  // Date.UTC silently rolls 2026-02-30 into March; a real date survives the round trip.
  if (back.getUTCFullYear() !== year || back.getUTCMonth() !== month - 1 || back.getUTCDate() !== day) {
    throw invalidInput(field, `${field} is not a real calendar date`);
  }
  return Math.floor(ms / DAY_MS);
}

export function formatDayNumber(dayNumber: number): string {
  return isoDay(dayNumber * DAY_MS);
}
