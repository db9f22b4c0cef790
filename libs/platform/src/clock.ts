/**
 * Time comes in as a dependency so tests are deterministic (docs/decisions.md, The code). The one clock of every
 * service and lib.
 */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** Whole seconds since the epoch (signature timestamps, Stripe's `created`). */
export function epochSeconds(instant: Date): number {
  return Math.floor(instant.getTime() / 1000);
}

/** The instant `ms` milliseconds after `instant` (negative for before). */
export function addMs(instant: Date, ms: number): Date {
  return new Date(instant.getTime() + ms);
}
