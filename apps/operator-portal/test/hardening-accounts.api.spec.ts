import request from 'supertest';
import { createTestDatabase } from '@expedition/db/testing';
import {
  API,
  createPortalHarness,
  GOOD_PASSWORD,
  h,
  PortalClient,
  PORTAL_URL,
  providerAdmin,
  sessionCookieOf,
  signUp,
  uniqueEmail,
  usePortalHarness,
  type PortalHarness,
} from './harness';

/** Accounts under attack (docs/security.md, "Hardening, round two": items 2–6 and 9). */
usePortalHarness();

describe('a suspended operator accepts no new user', () => {
  it('an invitation accepted after the suspension is 403 operator_suspended; no user; the link works once reinstated', async () => {
    const { client, operator } = await signUp(h);
    const email = uniqueEmail('invitee');
    expect((await client.post(`${API}/team/invites`, { email, role: 'owner' })).status).toBe(201);
    const token = h.mailer.lastToken(email, 'accept-invite');
    const admin = await providerAdmin(h);
    expect((await admin.client.patch(`${API}/admin/operators/${operator.id}`, { status: 'suspended' })).status).toBe(
      200,
    );

    const refused = await new PortalClient(h.app).post(`${API}/auth/invites/accept`, {
      token,
      password: GOOD_PASSWORD,
    });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('operator_suspended');
    expect(await h.prisma.operatorUser.count({ where: { email } })).toBe(0);

    expect((await admin.client.patch(`${API}/admin/operators/${operator.id}`, { status: 'active' })).status).toBe(200);
    const accepted = await new PortalClient(h.app).post(`${API}/auth/invites/accept`, {
      token,
      password: GOOD_PASSWORD,
    });
    expect(accepted.status).toBe(201);
  });
});

describe('a body PostgreSQL cannot store is a 400, never a 500', () => {
  it.each([
    ['/auth/signup', { email: uniqueEmail('nul'), password: GOOD_PASSWORD, operatorName: 'Polar\u0000Tours' }],
    ['/auth/login', { email: 'a\u0000@example.com', password: GOOD_PASSWORD }],
    ['/auth/password-reset', { email: 'x@example.com\u0000' }],
    ['/auth/signup', { email: uniqueEmail('lone'), password: GOOD_PASSWORD, operatorName: 'Polar \uD800 Tours' }],
  ])(
    'POST %s with a NUL or lone surrogate → 400 invalid_request naming the field; nothing stored',
    async (path, body) => {
      const operators = await h.prisma.operator.count();
      const res = await new PortalClient(h.app).post(`${API}${path}`, body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'invalid_request', requestId: expect.any(String) });
      expect(res.body.error).toMatch(/cannot be stored/);
      expect(await h.prisma.operator.count()).toBe(operators);
    },
  );

  it('a key label with NUL → 400, no key', async () => {
    const { client, operator } = await signUp(h);
    const keys = await h.prisma.publishableKey.count({ where: { operatorId: operator.id } });
    const res = await client.post(`${API}/operator/keys`, { mode: 'test', label: 'site\u0000key' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_request');
    expect(await h.prisma.publishableKey.count({ where: { operatorId: operator.id } })).toBe(keys);
  });
});

describe('password reset: no timing oracle', () => {
  let recorder: PortalHarness;
  let statements: string[] = [];
  let recording = false;
  beforeAll(async () => {
    const db = await createTestDatabase({ onQuery: (sql) => void (recording && statements.push(sql)) });
    recorder = await createPortalHarness({ db });
  });
  afterAll(() => recorder.db.close());

  it('runs the same SQL statements for a known address as for an unknown one, and mails only the known one', async () => {
    const { email } = await signUp(recorder);
    const run = async (address: string) => {
      statements = [];
      recording = true;
      const res = await new PortalClient(recorder.app).post(`${API}/auth/password-reset`, { email: address });
      recording = false;
      expect(res.status).toBe(202);
      return statements;
    };
    const known = await run(email);
    const unknown = await run(uniqueEmail('ghost'));
    expect(known.length).toBeGreaterThan(0);
    expect(unknown).toEqual(known);
    await new Promise((resolve) => setImmediate(resolve));
    expect(recorder.mailer.sent.filter((m) => /reset-password/.test(m.text)).map((m) => m.to)).toEqual([email]);
  });
});

describe('weak passwords: zxcvbn with the product words and the account names', () => {
  it.each([
    'correcthorsebatterystaple',
    'Summer2023!!',
    'Tr0ub4dor&33',
    'Expedition2026!',
    'Antarctica2027!',
    'Polarhorizons1',
  ])('sign-up with %s → 400 weak_password saying why; no account', async (password) => {
    const email = uniqueEmail('weak');
    const res = await new PortalClient(h.app).post(`${API}/auth/signup`, {
      email,
      password,
      operatorName: 'Polar Horizons Expeditions',
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('weak_password');
    expect(res.body.error).toMatch(/^this password is too common or too easy to guess: .+\. .*Choose another/);
    expect(await h.prisma.operatorUser.count({ where: { email } })).toBe(0);
  });

  it("a password built from the operator's own name is refused, at sign-up and on accepting an invitation", async () => {
    const signup = await new PortalClient(h.app).post(`${API}/auth/signup`, {
      email: uniqueEmail('own'),
      password: 'QuixoticNarwhalTours1',
      operatorName: 'Quixotic Narwhal Tours',
    });
    expect(signup.status).toBe(400);
    expect(signup.body.code).toBe('weak_password');
    // The same password for another operator is fine: the name is what makes it guessable here.
    const other = await new PortalClient(h.app).post(`${API}/auth/signup`, {
      email: uniqueEmail('other'),
      password: 'QuixoticNarwhalTours1',
      operatorName: 'Somewhere Else Ltd',
    });
    expect(other.status).toBe(201);
    const { client } = await signUp(h, { operatorName: 'Zephyrine Icebound Voyages' });
    const email = uniqueEmail('invitee');
    await client.post(`${API}/team/invites`, { email, role: 'member' });
    const token = h.mailer.lastToken(email, 'accept-invite');
    const accept = (password: string) =>
      new PortalClient(h.app).post(`${API}/auth/invites/accept`, { token, password });
    expect((await accept('zephyrineicebound9')).body.code).toBe('weak_password');
    expect((await accept(GOOD_PASSWORD)).status).toBe(201);
  });
});

describe('unknown fields are refused on every portal route', () => {
  it.each([
    ['/team/invites', { role: 'member', isAdmin: true }, 'isAdmin'],
    ['/auth/login', { password: 'x', remember: true }, 'remember'],
    ['/auth/password-reset', { email: 'a@example.com', operatorId: 'x' }, 'operatorId'],
  ])('POST %s with an unknown field → 400 naming it; nothing written', async (path, body, field) => {
    const { client } = await signUp(h);
    const email = uniqueEmail('strict');
    const before = await h.prisma.userToken.count();
    const res = await client.post(`${API}${path}`, { email, ...body });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_request');
    expect(res.body.error).toContain(field);
    expect(await h.prisma.userToken.count()).toBe(before);
  });
});

describe('the session cookie', () => {
  const HTTPS_PORTAL = 'https://portal.test';

  it('behind https is __Host-svc_portal_session: Secure, Path=/, no Domain; and it is the only name read', async () => {
    const secure = await createPortalHarness({
      deps: {
        urls: {
          portal: HTTPS_PORTAL,
          widget: 'https://widget.test',
          embed: 'https://embed.test',
          quoteApi: 'https://quote.test',
        },
      },
    });
    try {
      const res = await request(secure.app)
        .post(`${API}/auth/signup`)
        .set('Origin', HTTPS_PORTAL)
        .send({ email: uniqueEmail('host'), password: GOOD_PASSWORD, operatorName: 'Host Prefix Tours' });
      expect(res.status).toBe(201);
      const cookie = (res.headers['set-cookie'] as unknown as string[]).find((c) => c.startsWith('__Host-'))!;
      expect(cookie).toMatch(/^__Host-svc_portal_session=ps_[^;]+; Path=\/; HttpOnly; Secure; SameSite=Lax$/);
      const token = cookie.split(';')[0]!.split('=')[1]!;
      const session = (name: string) =>
        request(secure.app).get(`${API}/auth/session`).set('Cookie', `${name}=${token}`);
      expect((await session('__Host-svc_portal_session')).status).toBe(200);
      expect((await session('svc_portal_session')).status).toBe(401);
    } finally {
      await secure.close();
    }
  });

  it('two cookies of the name (one tossed in) are no session, in either order, and neither is cleared', async () => {
    const victim = await signUp(h);
    const attacker = await signUp(h);
    const token = async (email: string) =>
      sessionCookieOf(
        await request(h.app)
          .post(`${API}/auth/login`)
          .set('Origin', PORTAL_URL)
          .send({ email, password: GOOD_PASSWORD }),
      );
    const [mine, tossed] = [await token(victim.email), await token(attacker.email)];
    for (const header of [
      `svc_portal_session=${mine}; svc_portal_session=${tossed}`,
      `svc_portal_session=${tossed}; svc_portal_session=${mine}`,
    ]) {
      const res = await request(h.app).get(`${API}/auth/session`).set('Cookie', header);
      expect(res.status).toBe(401);
      expect(res.headers['set-cookie']).toBeUndefined();
    }
    expect(
      (await request(h.app).get(`${API}/auth/session`).set('Cookie', `svc_portal_session=${mine}`)).body.user.email,
    ).toBe(victim.email);
  });
});
