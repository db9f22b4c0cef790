import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import request from 'supertest';
import { createRateLimiter } from '@expedition/platform';
import { EMBED_RATE_LIMIT } from '../src/limits';
import {
  createHarness,
  describeWithRedis,
  expectCors,
  fullQuote,
  REDIS_URL,
  seedTenant,
  SITE_ORIGIN,
  type Harness,
} from './harness';

describeWithRedis()('rate limit shared through real Redis by two app instances', () => {
  const keyPrefix = `embed-rl-test-${process.pid}-${randomUUID()}`;
  const clients: Redis[] = [];
  let a: Harness;
  let b: Harness;

  async function redisClient(): Promise<Redis> {
    const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
    clients.push(redis);
    await redis.connect();
    return redis;
  }

  beforeAll(async () => {
    // Two replicas: separate apps, separate Redis connections and key caches, one database, one Redis.
    const limiter = async () =>
      createRateLimiter({ ...EMBED_RATE_LIMIT, keyPrefix, redis: await redisClient(), redisTimeoutMs: 5_000 });
    a = await createHarness({ rateLimiter: await limiter() });
    b = await createHarness({ rateLimiter: await limiter(), db: a.db });
  });

  afterAll(async () => {
    const [first] = clients;
    if (first) {
      const keys = await first.keys(`${keyPrefix}*`);
      if (keys.length > 0) await first.del(...keys);
    }
    await Promise.all(clients.map((c) => c.quit()));
    await b?.close();
    await a?.close();
  });

  async function tenantWithQuote() {
    const tenant = await seedTenant(a.prisma);
    const res = await request(a.app)
      .post('/api/embed/quote')
      .set('X-SVC-Publishable-Key', tenant.testKey)
      .set('Origin', SITE_ORIGIN)
      .send(fullQuote);
    expect(res.status).toBe(200);
    const keyId = (await a.prisma.publishableKey.findUniqueOrThrow({ where: { key: tenant.testKey } })).id;
    return { ...tenant, keyId, quoteId: res.body.quoteId as string };
  }

  it('admits exactly 60 per window per key across both instances and both routes', async () => {
    const t = await tenantWithQuote(); // 1 request on instance A
    const calls = Array.from({ length: 99 }, (_, i) => {
      const app = (i % 2 === 0 ? b : a).app;
      const req =
        i % 3 === 0
          ? request(app).post('/api/embed/quote').send({ destination: 'Antarctica' })
          : request(app).get(`/api/embed/options?quoteId=${t.quoteId}`);
      return req.set('X-SVC-Publishable-Key', t.testKey).set('Origin', SITE_ORIGIN);
    });
    const responses = await Promise.all(calls);
    const admitted = responses.filter((r) => r.status !== 429);
    const refused = responses.filter((r) => r.status === 429);
    expect(admitted).toHaveLength(59);
    expect(refused).toHaveLength(40);
    const ttlSec = (await clients[0]!.pttl(`${keyPrefix}:${t.keyId}`)) / 1000;
    expect(ttlSec).toBeGreaterThan(0);
    for (const res of refused) {
      expect(res.text).toBe('Too Many Requests');
      expect(res.headers['retry-after']).toMatch(/^\d+$/);
      const retryAfter = Number(res.headers['retry-after']);
      expect(retryAfter).toBeGreaterThanOrEqual(Math.floor(ttlSec));
      expect(retryAfter).toBeLessThanOrEqual(60);
      expectCors(res, SITE_ORIGIN);
    }
  });

  it('starts a fresh window on every instance once the shared window is gone', async () => {
    const t = await tenantWithQuote();
    const poll = (h: Harness) =>
      request(h.app)
        .get(`/api/embed/options?quoteId=${t.quoteId}`)
        .set('X-SVC-Publishable-Key', t.testKey)
        .set('Origin', SITE_ORIGIN);
    for (let i = 0; i < 59; i++) expect((await poll(i % 2 ? a : b)).status).toBe(200);
    expect((await poll(a)).status).toBe(429);
    expect((await poll(b)).status).toBe(429);
    // The window lives in Redis with the limit's duration as its TTL; ending it early stands in for 60 s passing.
    expect(await clients[0]!.del(`${keyPrefix}:${t.keyId}`)).toBe(1);
    for (let i = 0; i < 60; i++) expect((await poll(i % 2 ? a : b)).status).toBe(200);
    expect((await poll(b)).status).toBe(429);
  });
});
