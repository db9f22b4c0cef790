import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import { describeWithRedis, testRedisUrl } from '@expedition/platform/testing';
import { createPortalThrottles, PORTAL_THROTTLE_LIMITS } from '../src/accounts/throttles';
import {
  API,
  GOOD_PASSWORD,
  PortalClient,
  createPortalHarness,
  signUp,
  uniqueEmail,
  type PortalHarness,
} from './harness';

const flush = () => new Promise((r) => setImmediate(r));
const WRONG = 'wrong-password-000';

/** A harness whose client IP comes from X-Forwarded-For (as behind a proxy), with the real budgets. */
const behindProxy = (h: PortalHarness) =>
  createPortalHarness({ db: h.db, throttles: createPortalThrottles(), deps: { trustProxy: 'loopback' } });

const logInFrom = (h: PortalHarness, ip: string, email: string, password: string) =>
  new PortalClient(h.app).post(`${API}/auth/login`, { email, password }).set('X-Forwarded-For', ip);

describe('throttling (in-process counters)', () => {
  let h: PortalHarness;
  beforeAll(async () => {
    h = await createPortalHarness({ throttles: createPortalThrottles() });
  });
  afterAll(() => h.close());

  it('log-in per account and client: the 11th failure in 15 minutes is 429 with Retry-After, even with the right password', async () => {
    const { email } = await signUp(h);
    const { points } = PORTAL_THROTTLE_LIMITS.loginFailuresPerAccountAndClient;
    for (let i = 0; i < points; i++) {
      const res = await new PortalClient(h.app).post(`${API}/auth/login`, { email, password: WRONG });
      expect(res.status).toBe(401);
    }
    const blocked = await new PortalClient(h.app).post(`${API}/auth/login`, { email, password: GOOD_PASSWORD });
    expect(blocked.status).toBe(429);
    expect(blocked.body.code).toBe('rate_limited');
    const retryAfter = Number(blocked.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
  });

  it('successful log-ins never count: 30 in a row, then 10 failures are still allowed', async () => {
    const { email } = await signUp(h);
    for (let i = 0; i < 30; i++) {
      expect((await new PortalClient(h.app).post(`${API}/auth/login`, { email, password: GOOD_PASSWORD })).status).toBe(
        200,
      );
    }
    for (let i = 0; i < PORTAL_THROTTLE_LIMITS.loginFailuresPerAccountAndClient.points; i++) {
      expect((await new PortalClient(h.app).post(`${API}/auth/login`, { email, password: WRONG })).status).toBe(401);
    }
  });

  it('an unknown address is throttled exactly like a known one (no enumeration)', async () => {
    const ghost = uniqueEmail('ghost');
    const { email } = await signUp(h);
    const statuses = async (address: string) => {
      const out: number[] = [];
      for (let i = 0; i <= PORTAL_THROTTLE_LIMITS.loginFailuresPerAccountAndClient.points; i++) {
        out.push((await new PortalClient(h.app).post(`${API}/auth/login`, { email: address, password: WRONG })).status);
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

  it('password reset per client: 429 after 20 an hour across addresses', async () => {
    const fresh = await createPortalHarness({ db: h.db, throttles: createPortalThrottles() });
    for (let i = 0; i < PORTAL_THROTTLE_LIMITS.resetPerClient.points; i++) {
      expect(
        (await new PortalClient(fresh.app).post(`${API}/auth/password-reset`, { email: uniqueEmail('ip') })).status,
      ).toBe(202);
    }
    const res = await new PortalClient(fresh.app).post(`${API}/auth/password-reset`, { email: uniqueEmail('ip') });
    expect(res.status).toBe(429);
    expect(res.headers['retry-after']).toBeDefined();
    await flush();
  });

  it('log-in per client: 429 after 50 failures in 15 minutes across addresses', async () => {
    const fresh = await createPortalHarness({ db: h.db, throttles: createPortalThrottles() });
    for (let i = 0; i < PORTAL_THROTTLE_LIMITS.loginFailuresPerClient.points; i++) {
      const res = await new PortalClient(fresh.app).post(`${API}/auth/login`, {
        email: uniqueEmail('spray'),
        password: WRONG,
      });
      expect(res.status).toBe(401);
    }
    const res = await new PortalClient(fresh.app).post(`${API}/auth/login`, {
      email: uniqueEmail('spray'),
      password: WRONG,
    });
    expect(res.status).toBe(429);
    expect(res.headers['retry-after']).toBeDefined();
  });
});

describe('account lock-out (issue 20 item 4)', () => {
  let h: PortalHarness;
  beforeAll(async () => {
    h = await createPortalHarness();
  });
  afterAll(() => h.close());

  it('failures from other clients do not lock the owner out: 10 wrong passwords from each of 5 IPs, the owner still logs in', async () => {
    const proxied = await behindProxy(h);
    const { email } = await signUp(h);
    for (let ip = 1; ip <= 5; ip++) {
      for (let i = 0; i < PORTAL_THROTTLE_LIMITS.loginFailuresPerAccountAndClient.points; i++) {
        expect((await logInFrom(proxied, `198.51.100.${ip}`, email, WRONG)).status).toBe(401);
      }
      expect((await logInFrom(proxied, `198.51.100.${ip}`, email, WRONG)).status).toBe(429);
    }
    expect((await logInFrom(proxied, '203.0.113.9', email, GOOD_PASSWORD)).status).toBe(200);
  });

  it('past 100 failures an hour from anywhere the account is locked, and its owner gets a one-time sign-in link that logs in', async () => {
    const proxied = await behindProxy(h);
    const { email, user } = await signUp(h);
    const { points } = PORTAL_THROTTLE_LIMITS.loginFailuresPerAccount;
    for (let i = 0; i < points; i++) {
      expect((await logInFrom(proxied, `10.1.${Math.floor(i / 10)}.${i % 10}`, email, WRONG)).status).toBe(401);
    }
    const locked = await logInFrom(proxied, '203.0.113.10', email, GOOD_PASSWORD);
    expect(locked.status).toBe(429);
    expect(locked.body.code).toBe('rate_limited');
    expect(locked.body.error).toMatch(/one-time sign-in link/);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    // An unknown address gets the same answer (no enumeration), and no mail.
    const ghost = uniqueEmail('ghost-lock');
    for (let i = 0; i < points; i++) await logInFrom(proxied, `10.2.${Math.floor(i / 10)}.${i % 10}`, ghost, WRONG);
    const ghostLocked = await logInFrom(proxied, '203.0.113.10', ghost, WRONG);
    expect(ghostLocked.status).toBe(429);
    expect(ghostLocked.body.error).toBe(locked.body.error);
    await flush();
    expect(proxied.mailer.sent.filter((m) => m.to === ghost)).toHaveLength(0);

    // One link per lock, however many refused attempts.
    await logInFrom(proxied, '203.0.113.10', email, GOOD_PASSWORD);
    await flush();
    const links = proxied.mailer.sent.filter((m) => m.to === email && m.text.includes('/sign-in-link?token='));
    expect(links).toHaveLength(1);
    expect(links[0]!.subject).toBe('Sign in to the operator portal');
    const token = /\/sign-in-link\?token=([A-Za-z0-9_-]+)/.exec(links[0]!.text)![1]!;

    const client = new PortalClient(proxied.app);
    const signedIn = await client.post(`${API}/auth/login-link`, { token });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.user.id).toBe(user.id);
    client.csrfToken = signedIn.body.csrfToken;
    expect((await client.get(`${API}/auth/session`)).status).toBe(200);
    const again = await new PortalClient(proxied.app).post(`${API}/auth/login-link`, { token });
    expect(again.status).toBe(400);
    expect(again.body.code).toBe('invalid_token');
    const audit = await h.prisma.auditEntry.findMany({ where: { targetId: user.id }, select: { action: true } });
    expect(audit.map((a) => a.action)).toEqual(
      expect.arrayContaining(['auth.account.locked', 'auth.sign_in_link.used']),
    );
  });
});

describe('IPv6 clients are counted by /64 (issue 20 item 5)', () => {
  let h: PortalHarness;
  beforeAll(async () => {
    h = await createPortalHarness();
  });
  afterAll(() => h.close());

  it('55 addresses of one /64 share the per-client log-in budget; another /64 has its own', async () => {
    const proxied = await behindProxy(h);
    const statuses: number[] = [];
    for (let i = 1; i <= 55; i++) {
      const res = await logInFrom(proxied, `2001:db8:aa:bb::${i.toString(16)}`, uniqueEmail('v6'), WRONG);
      statuses.push(res.status);
    }
    expect(statuses.filter((s) => s === 401)).toHaveLength(PORTAL_THROTTLE_LIMITS.loginFailuresPerClient.points);
    expect(statuses.filter((s) => s === 429)).toHaveLength(55 - PORTAL_THROTTLE_LIMITS.loginFailuresPerClient.points);
    expect((await logInFrom(proxied, '2001:db8:aa:bc::1', uniqueEmail('v6'), WRONG)).status).toBe(401);
  });

  it('the per-client reset budget is per /64 too', async () => {
    const proxied = await behindProxy(h);
    const statuses: number[] = [];
    for (let i = 1; i <= PORTAL_THROTTLE_LIMITS.resetPerClient.points + 1; i++) {
      const res = await new PortalClient(proxied.app)
        .post(`${API}/auth/password-reset`, { email: uniqueEmail('v6reset') })
        .set('X-Forwarded-For', `2001:db8:cc:dd:${i.toString(16)}::1`);
      statuses.push(res.status);
    }
    expect(statuses.at(-1)).toBe(429);
    await flush();
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

  it('failed log-ins on one replica count on the other', async () => {
    const namespace = `portal-test-${randomBytes(6).toString('hex')}`;
    const a = await createPortalHarness({ db: h.db, throttles: createPortalThrottles({ redis, namespace }) });
    const b = await createPortalHarness({ db: h.db, throttles: createPortalThrottles({ redis, namespace }) });
    const email = uniqueEmail('replicas');
    const { points } = PORTAL_THROTTLE_LIMITS.loginFailuresPerAccountAndClient;
    for (let i = 0; i < points; i++) {
      const app = i % 2 === 0 ? a.app : b.app;
      expect((await new PortalClient(app).post(`${API}/auth/login`, { email, password: WRONG })).status).toBe(401);
    }
    const res = await new PortalClient(a.app).post(`${API}/auth/login`, { email, password: WRONG });
    expect(res.status).toBe(429);
    expect(await redis.exists(`${namespace}:loginFailuresPerAccount:${email}`)).toBe(1);
  });
});
