import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { createRateLimiter } from './index';

const REDIS_URL = process.env['TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379';
const required = process.env['REQUIRE_SERVICES'] === '1';

/** Synchronous reachability probe, so the suite can be skipped (not silently passed) at definition time. */
function redisReachable(url: string): boolean {
  const { hostname, port } = new URL(url);
  const script = `
    const s = require('node:net').connect(${Number(port) || 6379}, ${JSON.stringify(hostname || '127.0.0.1')});
    s.setTimeout(1000, () => process.exit(1));
    s.on('error', () => process.exit(1));
    s.on('connect', () => s.write('PING\\r\\n'));
    s.on('data', (d) => process.exit(String(d).startsWith('+PONG') ? 0 : 1));`;
  return spawnSync(process.execPath, ['-e', script], { timeout: 3000 }).status === 0;
}

const reachable = redisReachable(REDIS_URL);
if (!reachable && required) {
  throw new Error(`REQUIRE_SERVICES=1 but Redis is unreachable at ${REDIS_URL}`);
}

(reachable ? describe : describe.skip)('createRateLimiter against real Redis (two replicas)', () => {
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
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) => replicas[i % 2]!.consume('key_shared')),
    );
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
