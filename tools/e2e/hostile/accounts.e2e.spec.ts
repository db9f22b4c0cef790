import { PORTAL_THROTTLE_LIMITS } from '@expedition/app-operator-portal';
import { OPERATOR_LIMITS } from '@expedition/operators';
import { launch, type Launched } from '../launcher-harness';
import { embedQuoteStatus, until } from '../portal-journey.helpers';
import {
  auditOf,
  mailTo,
  outbox,
  PortalCaller,
  providerAdmin,
  strongPassword,
  tokenIn,
  unique,
  verifiedOwner,
  stopLaunched,
} from './hostile.helpers';

/**
 * Issue 20, items 1–8, replayed as an attacker would against the running platform (`npm start`'s launcher, every app
 * in one process, PGlite): real HTTP to the operator portal, the dev outbox read for mails, the provider admin's API
 * for the audit log and suspension. The launcher runs with TRUST_PROXY=loopback so that each attacker can be a
 * distinct client (X-Forwarded-For from loopback is honoured); without it every caller here would be 127.0.0.1.
 */
let platform: Launched;
let admin: PortalCaller;
const portal = () => platform.urls.portal;

beforeAll(async () => {
  platform = await launch({ env: { TRUST_PROXY: 'loopback' } });
  admin = await providerAdmin(portal(), platform.providerAdmin);
}, 120_000);
afterAll(async () => {
  if (platform) await stopLaunched(platform);
});

/** Each attacker or victim of a test is its own client (an address of TEST-NET-3, or of 2001:db8::/32). */
let clientSeq = 0;
const nextClient = () => `203.0.113.${++clientSeq}`;
const address = (who: string) => `${who}-${unique()}@hostile.example`;

async function operatorsNamed(email: string) {
  const res = await admin.get<{ operators: unknown[] }>(`/admin/operators?q=${encodeURIComponent(email)}`);
  expect(res.status).toBe(200);
  return res.body.operators;
}

describe('item 1: invitations cannot be used for phishing', () => {
  const PHISHING = 'ACTION REQUIRED: your account is locked, unlock at https://evil.example/unlock';

  it('an unverified self-signed-up owner is refused (403 email_unverified); no invitation, no mail', async () => {
    const attacker = new PortalCaller(portal(), nextClient());
    expect((await attacker.signUp(address('phisher'), strongPassword(), PHISHING)).status).toBe(201);
    const victim = address('victim');

    const res = await attacker.post('/team/invites', { email: victim, role: 'member' });

    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'email_unverified', requestId: expect.any(String) });
    expect((await attacker.get<{ invites: unknown[] }>('/team')).body.invites).toEqual([]);
    expect(await outbox(portal(), victim)).toEqual([]);
  });

  it("a verified owner's invitation mail carries no operator-chosen text in its subject or body, and only our link", async () => {
    const owner = new PortalCaller(portal(), nextClient());
    const ownerEmail = address('owner');
    await verifiedOwner(portal(), owner, ownerEmail, strongPassword(), PHISHING);
    const victim = address('victim');

    const res = await owner.post('/team/invites', { email: victim, role: 'member' });

    expect(res.status).toBe(201);
    const mail = await mailTo(portal(), victim, /invited/);
    for (const text of [mail.subject, mail.text]) {
      for (const chosen of [PHISHING, 'ACTION REQUIRED', 'your account is locked', 'evil.example', ownerEmail])
        expect(text).not.toContain(chosen);
    }
    expect(mail.links.length).toBeGreaterThan(0);
    for (const link of mail.links) expect(new URL(link).origin).toBe(portal());
    expect(new URL(mail.links.find((l) => l.includes('token='))!).pathname).toBe('/accept-invite');
  });
});

describe('item 2: breached and common passwords are refused at sign-up', () => {
  it.each(['passwordpassword', '1qaz2wsx3edc4rfv', 'qwertyuiopasdfghjkl', '123123123123', 'iloveyou123456'])(
    '%s → 400 weak_password, no account, no operator, no mail',
    async (password) => {
      const caller = new PortalCaller(portal(), nextClient());
      const email = address('weak');

      const res = await caller.signUp(email, password, `Weak ${unique()}`);

      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'weak_password' });
      expect(JSON.stringify(res.body)).not.toContain(password);
      expect(res.headers.get('set-cookie')).toBeNull();
      expect((await caller.logIn(email, password)).status).toBe(401);
      expect(await operatorsNamed(email)).toEqual([]);
      expect(await outbox(portal(), email)).toEqual([]);
    },
  );
});

describe('item 3: authentication events are in the audit log with the client IP, never the password', () => {
  it('log-in failure and success, log-out, password reset requested and completed', async () => {
    const ip = nextClient();
    const caller = new PortalCaller(portal(), ip);
    const email = address('audited');
    const password = strongPassword();
    const wrong = `${password}-wrong`;
    const { operator } = await verifiedOwner(portal(), caller, email, password, `Audited ${unique()}`);

    expect((await caller.logIn(email, wrong)).status).toBe(401);
    expect((await caller.logIn(email, password)).status).toBe(200);
    expect((await caller.post('/auth/logout')).status).toBe(204);
    expect((await caller.post('/auth/password-reset', { email })).status).toBe(202);
    const resetToken = tokenIn(await mailTo(portal(), email, /^Reset your password$/), '/reset-password');
    const newPassword = strongPassword();
    expect(
      (await caller.post('/auth/password-reset/confirm', { token: resetToken, password: newPassword })).status,
    ).toBe(200);

    const entries = await auditOf(admin, operator.id);
    const actions = entries.map((e) => e.action);
    for (const action of [
      'auth.signup',
      'auth.email.verified',
      'auth.login.failed',
      'auth.login.succeeded',
      'auth.logout',
      'auth.password_reset.requested',
      'auth.password_reset.completed',
    ]) {
      expect(actions).toContain(action);
      for (const entry of entries.filter((e) => e.action === action)) expect(entry.ip).toBe(ip);
    }
    expect(entries.find((e) => e.action === 'auth.login.failed')).toMatchObject({
      targetType: 'user',
      actor: { userId: null },
    });
    const everything = JSON.stringify(entries);
    for (const secret of [password, wrong, newPassword, resetToken]) expect(everything).not.toContain(secret);
  });
});

describe('item 4: wrong passwords from other clients do not lock the owner out', () => {
  it(`${PORTAL_THROTTLE_LIMITS.loginFailuresPerAccountAndClient.points} failures each from two other clients are throttled there; the owner still logs in, and successes never count`, async () => {
    const email = address('target');
    const password = strongPassword();
    const owner = new PortalCaller(portal(), nextClient());
    expect((await owner.signUp(email, password, `Target ${unique()}`)).status).toBe(201);
    const perClient = PORTAL_THROTTLE_LIMITS.loginFailuresPerAccountAndClient.points;

    for (const ip of [nextClient(), nextClient()]) {
      const attacker = new PortalCaller(portal(), ip);
      for (let i = 0; i < perClient; i++)
        expect((await attacker.logIn(email, `guess-${i}-${password}`)).status).toBe(401);
      const throttled = await attacker.logIn(email, password);
      expect(throttled.status).toBe(429);
      expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(throttled.headers.get('set-cookie')).toBeNull();
    }

    // More successful log-ins than the per-client budget, from the owner's own client: none counts.
    for (let i = 0; i <= perClient + 1; i++) expect((await owner.logIn(email, password)).status).toBe(200);
    expect((await owner.get('/auth/session')).status).toBe(200);
  });
});

describe('item 5: IPv6 clients are counted by /64', () => {
  it(`55 addresses of one /64 share the per-client log-in budget (${PORTAL_THROTTLE_LIMITS.loginFailuresPerClient.points}); another /64 is its own client`, async () => {
    const budget = PORTAL_THROTTLE_LIMITS.loginFailuresPerClient.points;
    const statuses: number[] = [];
    for (let i = 1; i <= 55; i++) {
      // Another address of 2001:db8:5:64::/64 every time, and another (unknown) account every time.
      const caller = new PortalCaller(portal(), `2001:db8:5:64::${i.toString(16)}`);
      statuses.push((await caller.logIn(address('spray'), 'not-the-password-at-all')).status);
    }
    expect(statuses.slice(0, budget)).toEqual(Array(budget).fill(401));
    expect(statuses.slice(budget)).toEqual(Array(55 - budget).fill(429));

    const neighbour = new PortalCaller(portal(), '2001:db8:5:65::1');
    expect((await neighbour.logIn(address('spray'), 'not-the-password-at-all')).status).toBe(401);
  });
});

describe('item 6: a refused password does not spend a reset link', () => {
  it('the link refused with a weak password (400) then sets a strong one, which logs in', async () => {
    const caller = new PortalCaller(portal(), nextClient());
    const email = address('reset');
    const original = strongPassword();
    expect((await caller.signUp(email, original, `Reset ${unique()}`)).status).toBe(201);
    expect((await caller.post('/auth/password-reset', { email })).status).toBe(202);
    const token = tokenIn(await mailTo(portal(), email, /^Reset your password$/), '/reset-password');

    const refused = await caller.post('/auth/password-reset/confirm', { token, password: 'passwordpassword' });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'weak_password' });
    expect((await caller.logIn(email, original)).status).toBe(200);

    const chosen = strongPassword();
    expect((await caller.post('/auth/password-reset/confirm', { token, password: chosen })).status).toBe(200);
    expect((await caller.logIn(email, original)).status).toBe(401);
    expect((await caller.logIn(email, chosen)).status).toBe(200);
  });
});

describe('item 7: a suspended operator is read-only and mints no keys', () => {
  it('after the provider suspends it, every write is 403 operator_suspended and changes nothing; reads work; its key is refused', async () => {
    const owner = new PortalCaller(portal(), nextClient());
    const { operator } = await verifiedOwner(
      portal(),
      owner,
      address('suspended'),
      strongPassword(),
      `Suspended ${unique()}`,
    );
    const keys = await owner.get<{ keys: { id: string; key: string }[] }>('/operator/keys');
    expect(keys.body.keys).toHaveLength(1);
    const testKey = keys.body.keys[0]!;
    expect((await owner.post('/operator/origins', { origin: platform.urls.demo })).status).toBe(201);
    expect(await embedQuoteStatus(platform.urls.embed, testKey.key, platform.urls.demo)).toBe(200);

    expect((await admin.send('PATCH', `/admin/operators/${operator.id}`, { status: 'suspended' })).status).toBe(200);

    const writes: [string, string, unknown?][] = [
      ['POST', '/operator/keys', { mode: 'test' }],
      ['POST', '/operator/keys', { mode: 'live' }],
      ['POST', '/operator/secret-keys', { mode: 'test' }],
      ['POST', `/operator/keys/${testKey.id}/rotate`, { grace: 'now' }],
      ['POST', '/operator/origins', { origin: 'https://shop.example' }],
      ['DELETE', `/operator/origins?origin=${encodeURIComponent(platform.urls.demo)}`],
      ['POST', '/team/invites', { email: address('late'), role: 'member' }],
    ];
    for (const [method, path, body] of writes) {
      const res = await owner.send(method, path, body);
      expect({ method, path, status: res.status, code: res.body['code'] }).toEqual({
        method,
        path,
        status: 403,
        code: 'operator_suspended',
      });
    }

    const after = await owner.get<{ keys: { id: string }[] }>('/operator/keys');
    expect(after.status).toBe(200);
    expect(after.body.keys.map((k) => k.id)).toEqual([testKey.id]);
    expect((await owner.get<{ secretKeys: unknown[] }>('/operator/secret-keys')).body.secretKeys).toEqual([]);
    expect(
      (await owner.get<{ origins: { origin: string }[] }>('/operator/origins')).body.origins.map((o) => o.origin),
    ).toEqual([platform.urls.demo]);
    expect((await owner.get<{ operator: { status: string } }>('/operator')).body.operator.status).toBe('suspended');
    // The embed gate caches keys for 5 s (EMBED_KEY_CACHE_TTL_MS, the documented revocation bound): then 401.
    await until(
      'the embed gate to refuse the suspended operator’s key',
      async () => (await embedQuoteStatus(platform.urls.embed, testKey.key, platform.urls.demo)) === 401,
      20_000,
    );
  });
});

describe('item 8: caps and per-minute budgets on writes', () => {
  it(`publishable key ${OPERATOR_LIMITS.publishableKeys + 1} is 409 limit_reached; writes past ${PORTAL_THROTTLE_LIMITS.writesPerOperator.points} a minute are 429 with Retry-After`, async () => {
    const owner = new PortalCaller(portal(), nextClient());
    await owner.signUp(address('keys'), strongPassword(), `Keys ${unique()}`); // sign-up made the first test key
    let writes = 0;
    for (let i = 1; i < OPERATOR_LIMITS.publishableKeys; i++, writes++)
      expect((await owner.post('/operator/keys', { mode: 'test' })).status).toBe(201);

    const over = await owner.post('/operator/keys', { mode: 'test' });
    writes++;
    expect(over.status).toBe(409);
    expect(over.body).toMatchObject({ code: 'limit_reached' });
    expect((await owner.get<{ keys: unknown[] }>('/operator/keys')).body.keys).toHaveLength(
      OPERATOR_LIMITS.publishableKeys,
    );

    // The same minute: the operator's remaining write budget goes on origins, then the next write is refused.
    let origins = 0;
    for (; writes < PORTAL_THROTTLE_LIMITS.writesPerOperator.points; writes++, origins++) {
      expect((await owner.post('/operator/origins', { origin: `https://shop-${origins}.example` })).status).toBe(201);
    }
    const burst = await owner.post('/operator/origins', { origin: 'https://one-too-many.example' });
    expect(burst.status).toBe(429);
    expect(burst.body).toMatchObject({ code: 'rate_limited' });
    expect(Number(burst.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await owner.get<{ origins: unknown[] }>('/operator/origins')).body.origins).toHaveLength(origins);
  });

  it(`allowed origin ${OPERATOR_LIMITS.allowedOrigins + 1} is 409 limit_reached and not stored`, async () => {
    const owner = new PortalCaller(portal(), nextClient());
    await owner.signUp(address('origins'), strongPassword(), `Origins ${unique()}`);
    for (let i = 0; i < OPERATOR_LIMITS.allowedOrigins; i++) {
      expect((await owner.post('/operator/origins', { origin: `https://site-${i}.example` })).status).toBe(201);
    }

    const over = await owner.post('/operator/origins', { origin: 'https://site-over.example' });

    expect(over.status).toBe(409);
    expect(over.body).toMatchObject({ code: 'limit_reached' });
    const listed = (await owner.get<{ origins: { origin: string }[] }>('/operator/origins')).body.origins;
    expect(listed).toHaveLength(OPERATOR_LIMITS.allowedOrigins);
    expect(listed.map((o) => o.origin)).not.toContain('https://site-over.example');
  });
});
