// Test helpers of @expedition/platform (import from '@expedition/platform/testing', never from production code).
import { epochSeconds, type Clock } from './clock';

export interface TestClock extends Clock {
  /** `now()` in whole epoch seconds (signature timestamps). */
  nowSec(): number;
  /** Moves time forward (or back, with a negative value). */
  advance(ms: number): void;
}

/** A clock tests can move (every service takes time as a dependency). */
export function createTestClock(start = '2026-11-21T10:00:00Z'): TestClock {
  let now = new Date(start).getTime();
  return {
    now: () => new Date(now),
    nowSec: () => epochSeconds(new Date(now)),
    advance(ms: number) {
      now += ms;
    },
  };
}
