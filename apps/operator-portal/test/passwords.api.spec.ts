import { API, GOOD_PASSWORD, h, logIn, PortalClient, signUp, uniqueEmail, usePortalHarness } from './harness';

usePortalHarness();

describe('POST /auth/password', () => {
  it('changes the password with the current one, keeps this session and ends the others', async () => {
    const { client, email } = await signUp(h);
    const other = await logIn(h, email);
    const res = await client.post(`${API}/auth/password`, {
      currentPassword: GOOD_PASSWORD,
      newPassword: 'changed-secret-2026',
    });
    expect(res.status).toBe(200);
    expect((await client.get(`${API}/auth/session`)).status).toBe(200);
    expect((await other.get(`${API}/auth/session`)).status).toBe(401);
    await logIn(h, email, 'changed-secret-2026');
    expect(h.mailer.sent.at(-1)!.subject).toMatch(/password was changed/);
  });

  it('a reset link mailed before the change no longer works after it', async () => {
    const { client, email } = await signUp(h);
    await new PortalClient(h.app).post(`${API}/auth/password-reset`, { email });
    await new Promise((r) => setImmediate(r)); // the reset mail is sent after the answer
    const token = h.mailer.lastToken(email, 'reset-password');
    expect(
      (
        await client.post(`${API}/auth/password`, {
          currentPassword: GOOD_PASSWORD,
          newPassword: 'changed-secret-2026',
        })
      ).status,
    ).toBe(200);
    const res = await new PortalClient(h.app).post(`${API}/auth/password-reset/confirm`, {
      token,
      password: 'attacker-secret-2026',
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_token');
    await logIn(h, email, 'changed-secret-2026');
  });

  it('400 wrong_password, 400 weak_password, 401 without a session', async () => {
    const { client } = await signUp(h);
    const wrong = await client.post(`${API}/auth/password`, {
      currentPassword: 'not-my-password',
      newPassword: 'changed-secret-2026',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.code).toBe('wrong_password');
    const weak = await client.post(`${API}/auth/password`, {
      currentPassword: GOOD_PASSWORD,
      newPassword: 'qwerty123456',
    });
    expect(weak.status).toBe(400);
    expect(weak.body.code).toBe('weak_password');
    const anon = await new PortalClient(h.app).post(`${API}/auth/password`, { currentPassword: 'a', newPassword: 'b' });
    expect(anon.status).toBe(401);
  });
});

describe('breached and common passwords are refused, Unicode is normalized (issue 20 item 2)', () => {
  const BREACHED = ['passwordpassword', '1qaz2wsx3edc4rfv', 'qwertyuiopasdfghjkl', '123123123123', 'iloveyou123456'];

  it.each(BREACHED)('sign-up with %s: 400 weak_password with the reason, nothing created', async (password) => {
    const email = uniqueEmail('breached');
    const res = await new PortalClient(h.app).post(`${API}/auth/signup`, {
      email,
      password,
      operatorName: 'Breach Co',
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('weak_password');
    expect(res.body.error).toMatch(/too common or too easy to guess/);
    expect(await h.prisma.operatorUser.count({ where: { email } })).toBe(0);
  });

  it('a password change and a reset refuse them too', async () => {
    const { client, email } = await signUp(h);
    const change = await client.post(`${API}/auth/password`, {
      currentPassword: GOOD_PASSWORD,
      newPassword: 'iloveyou123456',
    });
    expect(change.status).toBe(400);
    expect(change.body.code).toBe('weak_password');
    await new PortalClient(h.app).post(`${API}/auth/password-reset`, { email });
    await new Promise((r) => setImmediate(r));
    const reset = await new PortalClient(h.app).post(`${API}/auth/password-reset/confirm`, {
      token: h.mailer.lastToken(email, 'reset-password'),
      password: '1qaz2wsx3edc4rfv',
    });
    expect(reset.status).toBe(400);
    expect(reset.body.code).toBe('weak_password');
    await logIn(h, email);
  });

  it('a password is compared in NFKC form: signed up with full-width letters, logs in with ASCII (and as typed)', async () => {
    const typed = 'ﬁnal-Ｃｈａｐｔｅｒ-of-92';
    const { email } = await signUp(h, { password: typed });
    await logIn(h, email, 'final-Chapter-of-92');
    await logIn(h, email, typed);
  });
});
