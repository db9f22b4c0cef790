import { Redis } from 'ioredis';
import { createRateLimiter, toRetryAfterSec } from './rate-limiter';

describe('toRetryAfterSec', () => {
  it.each([
    [59_001, 60],
    [60_000, 60],
    [1000, 1],
    [1, 1],
    [0, 1],
    [-1, 1],
    [Number.NaN, 1],
  ])('%d ms -> %d s', (ms, sec) => {
    expect(toRetryAfterSec(ms)).toBe(sec);
  });
});

describe('createRateLimiter (in memory)', () => {
  beforeEach(() => {
    jest.useFakeTimers({
      now: Date.parse('2027-03-01T12:00:00Z'),
      doNotFake: ['nextTick', 'queueMicrotask', 'setImmediate'],
    });
  });
  afterEach(() => jest.useRealTimers());

  it('admits 60 per window, refuses the 61st with the whole seconds left in the window', async () => {
    const limiter = createRateLimiter({ keyPrefix: 'unit' });
    for (let i = 1; i <= 60; i++) {
      const res = await limiter.consume('key_a');
      expect(res).toMatchObject({ allowed: true, remaining: 60 - i });
    }
    jest.advanceTimersByTime(20_500);
    expect(await limiter.consume('key_a')).toEqual({ allowed: false, retryAfterSec: 40, remaining: 0 });
  });

  it('refund gives one point back: attempts that were refunded do not count against the budget', async () => {
    const limiter = createRateLimiter({ points: 2, durationSec: 60 });
    for (let i = 0; i < 5; i++) {
      expect((await limiter.consume('r')).allowed).toBe(true);
      await limiter.refund('r');
    }
    await limiter.consume('r');
    await limiter.consume('r');
    expect((await limiter.consume('r')).allowed).toBe(false);
  });

  it('resets lazily: the first request after the window starts a fresh count', async () => {
    const limiter = createRateLimiter({ points: 2, durationSec: 60 });
    await limiter.consume('k');
    await limiter.consume('k');
    expect((await limiter.consume('k')).allowed).toBe(false);
    jest.advanceTimersByTime(59_999);
    expect((await limiter.consume('k')).allowed).toBe(false);
    jest.advanceTimersByTime(1);
    expect(await limiter.consume('k')).toMatchObject({ allowed: true, remaining: 1 });
  });

  it('starts the window at the first hit, not on a clock boundary', async () => {
    const limiter = createRateLimiter({ points: 1, durationSec: 60 });
    jest.advanceTimersByTime(30_000);
    await limiter.consume('k');
    jest.advanceTimersByTime(45_000);
    expect(await limiter.consume('k')).toEqual({ allowed: false, retryAfterSec: 15, remaining: 0 });
  });

  it('counts ids separately', async () => {
    const limiter = createRateLimiter({ points: 1 });
    expect((await limiter.consume('a')).allowed).toBe(true);
    expect((await limiter.consume('a')).allowed).toBe(false);
    expect((await limiter.consume('b')).allowed).toBe(true);
  });

  it('rejects nonsense limits', () => {
    expect(() => createRateLimiter({ points: 0 })).toThrow();
    expect(() => createRateLimiter({ durationSec: 0.5 })).toThrow();
  });
});

describe('createRateLimiter with an unavailable Redis', () => {
  it('falls back to an in-memory count with the same budget and warns (throttled)', async () => {
    // lazyConnect and no offline queue: the client is never ready and never touches the network.
    const redis = new Redis({ port: 1, lazyConnect: true, enableOfflineQueue: false, retryStrategy: () => null });
    const warn = jest.fn();
    try {
      const limiter = createRateLimiter({ redis, points: 3, keyPrefix: 'down', logger: { warn } });
      const results = [];
      for (let i = 0; i < 4; i++) results.push(await limiter.consume('k'));
      expect(results.map((r) => r.allowed)).toEqual([true, true, true, false]);
      expect(results[3]!.retryAfterSec).toBeGreaterThanOrEqual(1);
      expect(warn).toHaveBeenCalledTimes(1);
      expect(warn.mock.calls[0]![1]).toMatch(/Redis unavailable/);
    } finally {
      redis.disconnect();
    }
  });
});
