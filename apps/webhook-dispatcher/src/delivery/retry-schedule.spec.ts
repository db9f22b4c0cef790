import { nextAttemptAt } from './retry-schedule';

const t0 = new Date('2026-11-21T10:00:00Z');
const at = (ms: number) => new Date(t0.getTime() + ms);

describe('nextAttemptAt', () => {
  it('waits 30 s after the first failure and 5 min after the second by default schedule', () => {
    expect(nextAttemptAt(1, t0, [30_000, 300_000])).toEqual(at(30_000));
    expect(nextAttemptAt(2, t0, [30_000, 300_000])).toEqual(at(300_000));
  });

  it('gives up after the third attempt (3 in total)', () => {
    expect(nextAttemptAt(3, t0, [30_000, 300_000])).toBeNull();
    expect(nextAttemptAt(4, t0, [30_000, 300_000])).toBeNull();
  });

  it('repeats the last delay when the list is short', () => {
    expect(nextAttemptAt(2, t0, [50])).toEqual(at(50));
  });
});
