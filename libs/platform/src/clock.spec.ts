import { addMs, epochSeconds, systemClock } from './clock';
import { createTestClock } from './testing';

describe('clock', () => {
  it('dates instants in UTC and converts to epoch seconds', () => {
    const instant = new Date('2026-11-21T23:59:59.999Z');
    expect(epochSeconds(instant)).toBe(Math.floor(instant.getTime() / 1000));
    expect(addMs(instant, 1).toISOString()).toBe('2026-11-22T00:00:00.000Z');
    expect(systemClock.now()).toBeInstanceOf(Date);
  });

  it('a test clock moves only when told', () => {
    const clock = createTestClock('2026-11-21T10:00:00Z');
    expect(clock.now().toISOString()).toBe('2026-11-21T10:00:00.000Z');
    clock.advance(1_500);
    expect(clock.now().toISOString()).toBe('2026-11-21T10:00:01.500Z');
    expect(clock.nowSec()).toBe(Date.parse('2026-11-21T10:00:01Z') / 1000);
  });
});
