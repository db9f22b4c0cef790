import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { createRateLimiter } from './index';
import { describeWithRedis, testRedisUrl } from './testing';

const REDIS_URL = testRedisUrl();

describeWithRedis(REDIS_URL)('createRateLimiter against real Redis (two replicas)', () => {
  const keyPrefix = `rl-test-${process.pid}-${randomUUID()}`;
  const clients: Redis[] = [];

  async function client(): Promise<Redis> {
    const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
    clients.push(redis);
    await redis.connect();
    return redis;
  }

  afterAll(async () => {
    const [first] = clients;
    if (first) {
      const keys = await first.keys(`${keyPrefix}*`);
      if (keys.length > 0) await first.del(...keys);
    }
    await Promise.all(clients.map((c) => c.quit()));
  });

  it('two limiters on two clients together admit exactly 60 per window per key', async () => {
    const [a, b] = [await client(), await client()];
    const replicas = [
      createRateLimiter({ redis: a, keyPrefix, redisTimeoutMs: 5000 }),
      createRateLimiter({ redis: b, keyPrefix, redisTimeoutMs: 5000 }),
    ];
    const results = await Promise.all(Array.from({ length: 100 }, (_, i) => replicas[i % 2]!.consume('key_shared')));
    expect(results.filter((r) => r.allowed)).toHaveLength(60);
    const refused = results.filter((r) => !r.allowed);
    expect(refused).toHaveLength(40);
    for (const r of refused) {
      expect(Number.isInteger(r.retryAfterSec)).toBe(true);
      expect(r.retryAfterSec).toBeGreaterThanOrEqual(1);
      expect(r.retryAfterSec).toBeLessThanOrEqual(60);
    }
    // The window lives in Redis with the limit's duration as its TTL.
    const ttl = await a.pttl(`${keyPrefix}:key_shared`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60_000);
  });

  it('keeps separate budgets per key', async () => {
    const redis = await client();
    const limiter = createRateLimiter({ redis, keyPrefix, points: 2, redisTimeoutMs: 5000 });
    expect((await limiter.consume('key_x')).allowed).toBe(true);
    expect((await limiter.consume('key_x')).allowed).toBe(true);
    expect((await limiter.consume('key_x')).allowed).toBe(false);
    expect(await limiter.consume('key_y')).toMatchObject({ allowed: true, remaining: 1 });
  });

  it('starts a fresh window once the stored window expires', async () => {
    const redis = await client();
    const limiter = createRateLimiter({ redis, keyPrefix, points: 1, redisTimeoutMs: 5000 });
    expect((await limiter.consume('key_reset')).allowed).toBe(true);
    expect((await limiter.consume('key_reset')).allowed).toBe(false);
    // Expiring the key stands in for the minute passing; Redis owns the window's clock.
    await redis.pexpire(`${keyPrefix}:key_reset`, 1);
    while ((await redis.exists(`${keyPrefix}:key_reset`)) === 1) await new Promise((r) => setTimeout(r, 5));
    expect(await limiter.consume('key_reset')).toMatchObject({ allowed: true, remaining: 0 });
  });
});
