import request from 'supertest';
import {
  API,
  GOOD_PASSWORD,
  h,
  logIn,
  PORTAL_URL,
  PortalClient,
  sessionCookieOf,
  signUp,
  uniqueEmail,
  usePortalHarness,
} from './harness';

usePortalHarness();

describe('POST /auth/signup', () => {
  it('creates an active operator (embedding off, tier 3, a test key) and its owner, logs in and mails a link', async () => {
    const client = new PortalClient(h.app);
    const email = uniqueEmail('Signup');
    const res = await client.post(`${API}/auth/signup`, {
      email: `  ${email.toUpperCase()} `,
      password: GOOD_PASSWORD,
      operatorName: 'Arctic Ventures',
      name: 'Ana',
    });
    expect(res.status).toBe(201);
    expect(res.body.user).toEqual({
      id: expect.any(String),
      email: email.toLowerCase(),
      name: 'Ana',
      role: 'owner',
      operatorId: res.body.operator.id,
      emailVerified: false,
    });
    expect(res.body.operator).toEqual({ id: expect.any(String), name: 'Arctic Ventures' });
    expect(res.body.csrfToken).toEqual(expect.any(String));
    const cookie = (res.headers['set-cookie'] as unknown as string[]).find((c) => c.startsWith('svc_portal_session='))!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toMatch(/Path=\//);
    expect(cookie).not.toMatch(/Secure/);

    const operator = await h.prisma.operator.findUniqueOrThrow({
      where: { id: res.body.operator.id },
      include: { publishableKeys: true },
    });
    expect(operator).toMatchObject({ status: 'active', embeddingEnabled: false, integrationTier: 3 });
    expect(operator.publishableKeys).toHaveLength(1);
    expect(operator.publishableKeys[0]!.mode).toBe('test');

    const mail = h.mailer.sent.at(-1)!;
    expect(mail.to).toBe(email.toLowerCase());
    expect(mail.text).toContain(`${PORTAL_URL}/verify-email?token=`);

    const session = await client.get(`${API}/auth/session`);
    expect(session.status).toBe(200);
    expect(session.body.user.email).toBe(email.toLowerCase());
  });

  it('stores only an argon2id hash of the password and sha256 hashes of tokens', async () => {
    const { email } = await signUp(h);
    const user = await h.prisma.operatorUser.findUniqueOrThrow({ where: { email } });
    expect(user.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(user.passwordHash).not.toContain(GOOD_PASSWORD);
    const token = h.mailer.lastToken(email, 'verify-email');
    const rows = await h.prisma.userToken.findMany({ where: { userId: user.id } });
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.tokenHash).toMatch(/^[0-9a-f]{64}$/);
      expect(row.tokenHash).not.toBe(token);
    }
    const sessions = await h.prisma.operatorSession.findMany({ where: { userId: user.id } });
    for (const s of sessions) expect(s.tokenHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it.each([
    ['short', 'short-pass1', /at least 12/],
    ['common', 'password1234', /too common/],
    ['repeated', 'aaaaaaaaaaaaaaa', /too (common|easy)/],
  ])('refuses a %s password with 400 weak_password', async (_what, password, reason) => {
    const res = await new PortalClient(h.app).post(`${API}/auth/signup`, {
      email: uniqueEmail(),
      password,
      operatorName: 'X',
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('weak_password');
    expect(res.body.error).toMatch(reason);
  });

  it('400 invalid_request names the missing fields', async () => {
    const res = await new PortalClient(h.app).post(`${API}/auth/signup`, { email: 'not-an-email' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_request');
    expect(res.body.details.map((d: { path: string }) => d.path).sort()).toEqual(['email', 'operatorName', 'password']);
  });

  it('409 email_taken for an address that has an account', async () => {
    const { email } = await signUp(h);
    const res = await new PortalClient(h.app).post(`${API}/auth/signup`, {
      email,
      password: GOOD_PASSWORD,
      operatorName: 'Y',
    });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('email_taken');
  });

  it('400 invalid_json for a malformed body, 413 beyond 64 KiB', async () => {
    const bad = await request(h.app)
      .post(`${API}/auth/signup`)
      .set('Origin', PORTAL_URL)
      .set('Content-Type', 'application/json')
      .send('{');
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('invalid_json');
    const big = await new PortalClient(h.app).post(`${API}/auth/signup`, {
      email: 'a@b.co',
      password: 'x'.repeat(70_000),
      operatorName: 'Z',
    });
    expect(big.status).toBe(413);
    expect(big.body.code).toBe('payload_too_large');
  });
});

describe('POST /auth/login', () => {
  it('200 with the user and a CSRF token; a new session cookie', async () => {
    const { email } = await signUp(h);
    const res = await new PortalClient(h.app).post(`${API}/auth/login`, {
      email: email.toUpperCase(),
      password: GOOD_PASSWORD,
    });
    expect(res.status).toBe(200);
    expect(res.body.user.email).toBe(email);
    expect(res.body.csrfToken).toEqual(expect.any(String));
    expect(sessionCookieOf(res)).toEqual(expect.any(String));
    const user = await h.prisma.operatorUser.findUniqueOrThrow({ where: { email } });
    expect(user.lastLoginAt).not.toBeNull();
  });

  it('401 invalid_credentials, same body for a wrong password and an unknown address (no enumeration)', async () => {
    const { email } = await signUp(h);
    const wrong = await new PortalClient(h.app).post(`${API}/auth/login`, { email, password: 'wrong-password-123' });
    const unknown = await new PortalClient(h.app).post(`${API}/auth/login`, {
      email: uniqueEmail('nobody'),
      password: 'wrong-password-123',
    });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    const strip = (b: Record<string, unknown>) => ({ ...b, requestId: undefined });
    expect(strip(wrong.body)).toEqual(strip(unknown.body));
    expect(wrong.body.code).toBe('invalid_credentials');
    expect(sessionCookieOf(wrong)).toBeUndefined();
  });

  it('401 for a disabled user even with the right password', async () => {
    const { email } = await signUp(h);
    await h.prisma.operatorUser.update({ where: { email }, data: { disabledAt: h.clock.now() } });
    const res = await new PortalClient(h.app).post(`${API}/auth/login`, { email, password: GOOD_PASSWORD });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('invalid_credentials');
  });

  it('400 for a body without password', async () => {
    const res = await new PortalClient(h.app).post(`${API}/auth/login`, { email: 'a@b.co' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_request');
  });

  it('session fixation: the pre-login cookie is not the post-login one, and it stops working', async () => {
    const { email } = await signUp(h);
    const client = await logIn(h, email);
    const before = sessionCookieOf(await client.post(`${API}/auth/login`, { email, password: GOOD_PASSWORD }))!;
    // A cookie that names a live session is a logged-in browser: its log-in POST needs that session's CSRF token …
    const fixed = await new PortalClient(h.app).agent
      .post(`${API}/auth/login`)
      .set('Origin', PORTAL_URL)
      .set('Cookie', `svc_portal_session=${before}`)
      .send({ email, password: GOOD_PASSWORD });
    expect(fixed.status).toBe(403);
    // … and with it, the log-in replaces the session: new token, and the old one is revoked.
    const withToken = await request(h.app)
      .post(`${API}/auth/login`)
      .set('Origin', PORTAL_URL)
      .set('Cookie', `svc_portal_session=${before}`)
      .set(
        'X-CSRF-Token',
        (await request(h.app).get(`${API}/auth/session`).set('Cookie', `svc_portal_session=${before}`)).body.csrfToken,
      )
      .send({ email, password: GOOD_PASSWORD });
    expect(withToken.status).toBe(200);
    const after = sessionCookieOf(withToken)!;
    expect(after).toBeDefined();
    expect(after).not.toBe(before);
    const old = await request(h.app).get(`${API}/auth/session`).set('Cookie', `svc_portal_session=${before}`);
    expect(old.status).toBe(401);
    const fresh = await request(h.app).get(`${API}/auth/session`).set('Cookie', `svc_portal_session=${after}`);
    expect(fresh.status).toBe(200);
  });

  it('an unknown cookie value is ignored and cleared; log-in issues a server-generated token', async () => {
    const { email } = await signUp(h);
    const res = await request(h.app)
      .post(`${API}/auth/login`)
      .set('Origin', PORTAL_URL)
      .set('Cookie', 'svc_portal_session=attacker-chosen-value')
      .send({ email, password: GOOD_PASSWORD });
    expect(res.status).toBe(200);
    const cookie = sessionCookieOf(res);
    expect(cookie).toBeDefined();
    expect(cookie).not.toBe('attacker-chosen-value');
    expect(cookie).toMatch(/^ps_[A-Za-z0-9_-]{43}$/);
  });
});

describe('GET /auth/session', () => {
  it('401 without a cookie', async () => {
    const res = await request(h.app).get(`${API}/auth/session`);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('unauthorized');
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('200 with user, operator, csrfToken and expiresAt', async () => {
    const { client, operator } = await signUp(h, { operatorName: 'Tundra Trips' });
    const res = await client.get(`${API}/auth/session`);
    expect(res.status).toBe(200);
    expect(res.body.operator).toEqual({ id: operator.id, name: 'Tundra Trips' });
    expect(res.body.csrfToken).toBe(client.csrfToken);
    expect(Date.parse(res.body.expiresAt)).toBe(h.clock.now().getTime() + 12 * 3600_000);
  });
});

describe('POST /auth/logout and /auth/logout-all', () => {
  it('logout ends this session only (204, cookie cleared)', async () => {
    const { client, email } = await signUp(h);
    const other = await logIn(h, email);
    const res = await client.post(`${API}/auth/logout`);
    expect(res.status).toBe(204);
    expect((res.headers['set-cookie'] as unknown as string[]).join()).toMatch(/svc_portal_session=;/);
    expect((await client.get(`${API}/auth/session`)).status).toBe(401);
    expect((await other.get(`${API}/auth/session`)).status).toBe(200);
  });

  it('logout without a session is 204', async () => {
    expect((await new PortalClient(h.app).post(`${API}/auth/logout`)).status).toBe(204);
  });

  it('logout-all ends every session of the user (204); 401 without a session', async () => {
    const { client, email } = await signUp(h);
    const other = await logIn(h, email);
    expect((await client.post(`${API}/auth/logout-all`)).status).toBe(204);
    expect((await client.get(`${API}/auth/session`)).status).toBe(401);
    expect((await other.get(`${API}/auth/session`)).status).toBe(401);
    expect((await new PortalClient(h.app).post(`${API}/auth/logout-all`)).status).toBe(401);
  });
});

describe('session timeouts (test clock)', () => {
  it('idle: a session unused for 30 minutes is over; activity keeps it alive', async () => {
    const { client } = await signUp(h);
    h.clock.advance(29 * 60_000);
    expect((await client.get(`${API}/auth/session`)).status).toBe(200);
    h.clock.advance(29 * 60_000);
    expect((await client.get(`${API}/auth/session`)).status).toBe(200);
    h.clock.advance(30 * 60_000);
    const res = await client.get(`${API}/auth/session`);
    expect(res.status).toBe(401);
  });

  it('absolute: a session ends 12 hours after log-in, however active', async () => {
    const { client } = await signUp(h);
    for (let i = 0; i < 24; i++) {
      h.clock.advance(29 * 60_000);
      expect((await client.get(`${API}/auth/session`)).status).toBe(200);
    }
    h.clock.advance(12 * 3600_000 - 24 * 29 * 60_000);
    expect((await client.get(`${API}/auth/session`)).status).toBe(401);
  });
});
