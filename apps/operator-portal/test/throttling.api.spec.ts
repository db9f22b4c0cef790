import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import { describeWithRedis, testRedisUrl } from '@expedition/platform/testing';
import { createPortalThrottles, PORTAL_THROTTLE_LIMITS } from '../src/accounts/throttles';
import { API, GOOD_PASSWORD, PortalClient, createPortalHarness, signUp, uniqueEmail, type PortalHarness } from './harness';

const flush = () => new Promise((r) => setImmediate(r));

describe('throttling (in-process counters)', () => {
  let h: PortalHarness;
  beforeAll(async () => {
    h = await createPortalHarness({ throttles: createPortalThrottles() });
  });
  afterAll(() => h.close());

  it('log-in per account: the 11th attempt in 15 minutes is 429 with Retry-After, even with the right password', async () => {
    const { email } = await signUp(h);
    const { points } = PORTAL_THROTTLE_LIMITS.loginPerAccount;
    for (let i = 0; i < points; i++) {
      const res = await new PortalClient(h.app).post(`${API}/auth/login`, { email, password: 'wrong-password-000' });
      expect(res.status).toBe(401);
    }
    const blocked = await new PortalClient(h.app).post(`${API}/auth/login`, { email, password: GOOD_PASSWORD });
    expect(blocked.status).toBe(429);
    expect(blocked.body.code).toBe('rate_limited');
    const retryAfter = Number(blocked.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
  });

  it('an unknown address is throttled exactly like a known one (no enumeration)', async () => {
    const ghost = uniqueEmail('ghost');
    const { email } = await signUp(h);
    const statuses = async (address: string) => {
      const out: number[] = [];
      for (let i = 0; i <= PORTAL_THROTTLE_LIMITS.loginPerAccount.points; i++) {
        out.push((await new PortalClient(h.app).post(`${API}/auth/login`, { email: address, password: 'wrong-password-000' })).status);
      }
      return out;
    };
    expect(await statuses(ghost)).toEqual(await statuses(email));
  });

  it('password reset per account: 429 after 5 an hour, same for unknown addresses', async () => {
    for (const email of [(await signUp(h)).email, uniqueEmail('nobody')]) {
      for (let i = 0; i < PORTAL_THROTTLE_LIMITS.resetPerAccount.points; i++) {
        expect((await new PortalClient(h.app).post(`${API}/auth/password-reset`, { email })).status).toBe(202);
      }
      const res = await new PortalClient(h.app).post(`${API}/auth/password-reset`, { email });
      expect(res.status).toBe(429);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    }
    await flush();
  });

  it('password reset per IP: 429 after 20 an hour across addresses', async () => {
    const fresh = await createPortalHarness({ db: h.db, throttles: createPortalThrottles() });
    for (let i = 0; i < PORTAL_THROTTLE_LIMITS.resetPerIp.points; i++) {
      expect((await new PortalClient(fresh.app).post(`${API}/auth/password-reset`, { email: uniqueEmail('ip') })).status).toBe(202);
    }
    const res = await new PortalClient(fresh.app).post(`${API}/auth/password-reset`, { email: uniqueEmail('ip') });
    expect(res.status).toBe(429);
    expect(res.headers['retry-after']).toBeDefined();
    await flush();
  });

  it('log-in per IP: 429 after 50 in 15 minutes across addresses', async () => {
    const fresh = await createPortalHarness({ db: h.db, throttles: createPortalThrottles() });
    for (let i = 0; i < PORTAL_THROTTLE_LIMITS.loginPerIp.points; i++) {
      const res = await new PortalClient(fresh.app).post(`${API}/auth/login`, { email: uniqueEmail('spray'), password: 'wrong-password-000' });
      expect(res.status).toBe(401);
    }
    const res = await new PortalClient(fresh.app).post(`${API}/auth/login`, { email: uniqueEmail('spray'), password: 'wrong-password-000' });
    expect(res.status).toBe(429);
    expect(res.headers['retry-after']).toBeDefined();
  });
});

describeWithRedis()('throttling shared through Redis (two replicas)', () => {
  let h: PortalHarness;
  let redis: Redis;
  beforeAll(async () => {
    redis = new Redis(testRedisUrl(), { maxRetriesPerRequest: 1 });
    h = await createPortalHarness();
  });
  afterAll(async () => {
    redis.disconnect();
    await h.close();
  });

  it('log-in attempts on one replica count on the other', async () => {
    const namespace = `portal-test-${randomBytes(6).toString('hex')}`;
    const a = await createPortalHarness({ db: h.db, throttles: createPortalThrottles({ redis, namespace }) });
    const b = await createPortalHarness({ db: h.db, throttles: createPortalThrottles({ redis, namespace }) });
    const email = uniqueEmail('replicas');
    const { points } = PORTAL_THROTTLE_LIMITS.loginPerAccount;
    for (let i = 0; i < points; i++) {
      const app = i % 2 === 0 ? a.app : b.app;
      expect((await new PortalClient(app).post(`${API}/auth/login`, { email, password: 'wrong-password-000' })).status).toBe(401);
    }
    const res = await new PortalClient(a.app).post(`${API}/auth/login`, { email, password: 'wrong-password-000' });
    expect(res.status).toBe(429);
    expect(await redis.exists(`${namespace}:loginPerAccount:${email}`)).toBe(1);
  });
});
