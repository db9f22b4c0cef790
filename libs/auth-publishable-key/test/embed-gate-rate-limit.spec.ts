import { mintPublishableKey } from '../src';
import { createRateLimiter, type RateLimiter } from '@expedition/platform';
import { SHOP, START, setup, expectCors } from './gate-harness';

describe('embed gate: rate limit (429)', () => {
  it('refuses the 61st request in a window with Retry-After and CORS headers', async () => {
    const { quote, addKey } = setup();
    const key = addKey('test');
    for (let i = 0; i < 60; i++) expect((await quote(key)).status).toBe(200);
    const res = await quote(key);
    expect(res.status).toBe(429);
    expect(res.text).toBe('Too Many Requests');
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.headers['retry-after']).toMatch(/^\d+$/);
    const retryAfter = Number(res.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expectCors(res, SHOP);
  });

  it('shares one budget per key across both routes', async () => {
    const { quote, options, addKey } = setup();
    const key = addKey('test');
    for (let i = 0; i < 30; i++) expect((await quote(key)).status).toBe(200);
    for (let i = 0; i < 30; i++) expect((await options(key)).status).toBe(200);
    expect((await options(key)).status).toBe(429);
    expect((await quote(key)).status).toBe(429);
  });

  it('keeps separate budgets for separate keys', async () => {
    const { quote, addKey } = setup({ rateLimiter: createRateLimiter({ points: 1, keyPrefix: 'sep' }) });
    const [a, b] = [addKey('test'), addKey('test')];
    expect((await quote(a)).status).toBe(200);
    expect((await quote(a)).status).toBe(429);
    expect((await quote(b)).status).toBe(200);
  });

  it('does not count 401s against any budget', async () => {
    const { quote, addKey } = setup({ rateLimiter: createRateLimiter({ points: 1, keyPrefix: 'auth' }) });
    for (let i = 0; i < 3; i++) expect((await quote(mintPublishableKey('test'))).status).toBe(401);
    expect((await quote(addKey('test'))).status).toBe(200);
  });

  describe('window reset', () => {
    // Only Date is faked: the in-memory limiter reads Date.now, while HTTP keeps its real timers.
    beforeEach(() => {
      jest.useFakeTimers({
        now: START,
        doNotFake: [
          'hrtime',
          'nextTick',
          'performance',
          'queueMicrotask',
          'requestAnimationFrame',
          'cancelAnimationFrame',
          'requestIdleCallback',
          'cancelIdleCallback',
          'setImmediate',
          'clearImmediate',
          'setInterval',
          'clearInterval',
          'setTimeout',
          'clearTimeout',
        ],
      });
    });
    afterEach(() => jest.useRealTimers());

    it('admits a fresh 60 after the window has passed and gives Retry-After as the seconds left', async () => {
      const { quote, addKey } = setup();
      const key = addKey('test');
      for (let i = 0; i < 60; i++) expect((await quote(key)).status).toBe(200);
      jest.setSystemTime(START + 15_200);
      const refused = await quote(key);
      expect(refused.status).toBe(429);
      expect(refused.headers['retry-after']).toBe('45');
      jest.setSystemTime(START + 60_000);
      for (let i = 0; i < 60; i++) expect((await quote(key)).status).toBe(200);
      expect((await quote(key)).status).toBe(429);
    });
  });

  it('lets requests through (fail open) and warns if the limiter itself throws', async () => {
    const warn = jest.fn();
    const broken: RateLimiter = { consume: async () => Promise.reject(new Error('limiter down')) };
    const { quote, addKey } = setup({ rateLimiter: broken, logger: { warn, debug: jest.fn() } });
    const res = await quote(addKey('test'));
    expect(res.status).toBe(200);
    expectCors(res, SHOP);
    expect(warn).toHaveBeenCalledTimes(1);
  });

  it('fails open the same way when the limiter throws instead of rejecting', async () => {
    const warn = jest.fn();
    const broken: RateLimiter = {
      consume: () => {
        throw new Error('limiter bug');
      },
    };
    const { quote, addKey } = setup({ rateLimiter: broken, logger: { warn, debug: jest.fn() } });
    const res = await quote(addKey('test'));
    expect(res.status).toBe(200);
    expectCors(res, SHOP);
    expect(warn).toHaveBeenCalledTimes(1);
  });
});
