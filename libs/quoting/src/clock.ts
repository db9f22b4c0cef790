/** Time comes in as a dependency so tests are deterministic (STYLE.md). */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** `YYYY-MM-DD` of an instant, in UTC (quotes are dated in UTC). */
export function isoDay(d: Date): string {
  return d.toISOString().slice(0, 10);
}
