/** How the policyholder's documents write dates and money: for people, one way everywhere. */

const LONG_DAY = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

/** `2027-01-10` (or an RFC 3339 instant) → `10 January 2027`. A calendar day is read as UTC, so it never shifts. */
export function formatDay(isoDay: string): string {
  const date = new Date(isoDay.length === 10 ? `${isoDay}T00:00:00Z` : isoDay);
  return Number.isNaN(date.getTime()) ? isoDay : LONG_DAY.format(date);
}

/** Whole US dollars of a catalog limit: `USD 250,000`. */
export function formatUsd(dollars: number): string {
  return `USD ${dollars.toLocaleString('en-US', { maximumFractionDigits: 0 })}`;
}

/** Integer minor units with their currency: `USD 1,234.50`. */
export function formatMinor(cents: number, currency: string): string {
  return `${currency} ${(cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}

