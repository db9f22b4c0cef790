import { API, GOOD_PASSWORD, h, logIn, PortalClient, signUp, uniqueEmail, usePortalHarness } from './harness';

usePortalHarness();

describe('e-mail verification', () => {
  it('POST /auth/verify-email verifies once; the token is then refused (400 invalid_token)', async () => {
    const { client, email } = await signUp(h, { verified: false });
    const token = h.mailer.lastToken(email, 'verify-email');
    const first = await new PortalClient(h.app).post(`${API}/auth/verify-email`, { token });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ ok: true, emailVerified: true });
    expect((await client.get(`${API}/auth/session`)).body.user.emailVerified).toBe(true);
    const again = await new PortalClient(h.app).post(`${API}/auth/verify-email`, { token });
    expect(again.status).toBe(400);
    expect(again.body.code).toBe('invalid_token');
  });

  it('an expired verification token is refused', async () => {
    const { email } = await signUp(h, { verified: false });
    const token = h.mailer.lastToken(email, 'verify-email');
    h.clock.advance(48 * 3600_000 + 1000);
    const res = await new PortalClient(h.app).post(`${API}/auth/verify-email`, { token });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_token');
  });

  it('a reset token is not a verification token', async () => {
    const { email } = await signUp(h, { verified: false });
    await new PortalClient(h.app).post(`${API}/auth/password-reset`, { email });
    await new Promise((r) => setImmediate(r));
    const res = await new PortalClient(h.app).post(`${API}/auth/verify-email`, {
      token: h.mailer.lastToken(email, 'reset-password'),
    });
    expect(res.status).toBe(400);
  });

  it('POST /auth/verify-email/resend: 202 and a new link; 401 without a session', async () => {
    const { client, email } = await signUp(h, { verified: false });
    const count = h.mailer.sent.filter((m) => m.to === email).length;
    const res = await client.post(`${API}/auth/verify-email/resend`);
    expect(res.status).toBe(202);
    expect(res.body.accepted).toBe(true);
    expect(h.mailer.sent.filter((m) => m.to === email)).toHaveLength(count + 1);
    expect((await new PortalClient(h.app).post(`${API}/auth/verify-email/resend`)).status).toBe(401);
  });
});

describe('password reset', () => {
  const flush = () => new Promise((r) => setImmediate(r));

  it('202 with the same body for a known and an unknown address; only the known one gets a mail', async () => {
    const { email } = await signUp(h);
    const before = h.mailer.sent.length;
    const known = await new PortalClient(h.app).post(`${API}/auth/password-reset`, { email });
    const unknown = await new PortalClient(h.app).post(`${API}/auth/password-reset`, { email: uniqueEmail('ghost') });
    await flush();
    expect(known.status).toBe(202);
    expect(unknown.status).toBe(202);
    expect(known.body).toEqual(unknown.body);
    expect(h.mailer.sent.length).toBe(before + 1);
    expect(h.mailer.sent.at(-1)!.to).toBe(email);
  });

  it('confirm sets the password, ends every session, and the token works once', async () => {
    const { client, email } = await signUp(h);
    await new PortalClient(h.app).post(`${API}/auth/password-reset`, { email });
    await flush();
    const token = h.mailer.lastToken(email, 'reset-password');
    const res = await new PortalClient(h.app).post(`${API}/auth/password-reset/confirm`, {
      token,
      password: 'a-brand-new-secret-42',
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
    expect((await client.get(`${API}/auth/session`)).status).toBe(401);
    await logIn(h, email, 'a-brand-new-secret-42');
    const login = await new PortalClient(h.app).post(`${API}/auth/login`, { email, password: GOOD_PASSWORD });
    expect(login.status).toBe(401);
    const again = await new PortalClient(h.app).post(`${API}/auth/password-reset/confirm`, {
      token,
      password: 'another-new-secret-43',
    });
    expect(again.status).toBe(400);
    expect(again.body.code).toBe('invalid_token');
  });

  it('a reset token expires after 1 hour', async () => {
    const { email } = await signUp(h);
    await new PortalClient(h.app).post(`${API}/auth/password-reset`, { email });
    await flush();
    const token = h.mailer.lastToken(email, 'reset-password');
    h.clock.advance(3600_000);
    const res = await new PortalClient(h.app).post(`${API}/auth/password-reset/confirm`, {
      token,
      password: 'a-brand-new-secret-42',
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_token');
  });

  it('a weak new password is refused without burning the token', async () => {
    const { email } = await signUp(h);
    await new PortalClient(h.app).post(`${API}/auth/password-reset`, { email });
    await flush();
    const token = h.mailer.lastToken(email, 'reset-password');
    const weak = await new PortalClient(h.app).post(`${API}/auth/password-reset/confirm`, { token, password: 'short' });
    expect(weak.status).toBe(400);
    expect(weak.body.code).toBe('weak_password');
    const ok = await new PortalClient(h.app).post(`${API}/auth/password-reset/confirm`, {
      token,
      password: 'a-brand-new-secret-42',
    });
    expect(ok.status).toBe(200);
  });

  it('an unknown token is 400 invalid_token', async () => {
    const res = await new PortalClient(h.app).post(`${API}/auth/password-reset/confirm`, {
      token: 'pr_nope',
      password: 'a-brand-new-secret-42',
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_token');
  });
});

describe('a refused password does not spend the link (issue 20 item 6)', () => {
  it('reset: a password containing the address is refused (400) and the same link then works', async () => {
    const { email } = await signUp(h);
    await new PortalClient(h.app).post(`${API}/auth/password-reset`, { email });
    await new Promise((r) => setImmediate(r));
    const token = h.mailer.lastToken(email, 'reset-password');
    const refused = await new PortalClient(h.app).post(`${API}/auth/password-reset/confirm`, {
      token,
      password: `${email}-2026`,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('weak_password');
    const row = await h.prisma.userToken.findFirstOrThrow({
      where: { email, purpose: 'reset_password' },
      orderBy: { createdAt: 'desc' },
    });
    expect(row.usedAt).toBeNull();
    const ok = await new PortalClient(h.app).post(`${API}/auth/password-reset/confirm`, {
      token,
      password: 'a-brand-new-secret-42',
    });
    expect(ok.status).toBe(200);
  });
});
