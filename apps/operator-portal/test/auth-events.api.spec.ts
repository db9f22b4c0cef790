import pino from 'pino';
import { createPortalThrottles, PORTAL_THROTTLE_LIMITS } from '../src/accounts/throttles';
import { emailHash } from '../src/accounts/auth-events';
import { API, GOOD_PASSWORD, PortalClient, h, logIn, signUp, uniqueEmail, usePortalHarness } from './harness';

const flush = () => new Promise((r) => setImmediate(r));

describe('authentication events are recorded in the audit log and the process log (issue 20 item 3)', () => {
  const lines: Record<string, unknown>[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  usePortalHarness({ throttles: createPortalThrottles(), deps: { logger, trustProxy: 'loopback' } });

  const IP = '203.0.113.77';
  const from = (client: PortalClient, method: 'post', url: string, body?: unknown) =>
    client[method](url, body).set('X-Forwarded-For', IP);

  it('sign-up, verification, log-in failure and success, throttling, log-out, log-out everywhere, password change and reset, invitations', async () => {
    const email = uniqueEmail('events');
    const owner = new PortalClient(h.app);
    const signup = await from(owner, 'post', `${API}/auth/signup`, {
      email,
      password: GOOD_PASSWORD,
      operatorName: 'Events Co',
    });
    expect(signup.status).toBe(201);
    owner.csrfToken = signup.body.csrfToken;
    const userId: string = signup.body.user.id;
    const operatorId: string = signup.body.operator.id;
    expect(
      (await from(owner, 'post', `${API}/auth/verify-email`, { token: h.mailer.lastToken(email, 'verify-email') }))
        .status,
    ).toBe(200);

    expect(
      (await from(new PortalClient(h.app), 'post', `${API}/auth/login`, { email, password: 'wrong-password-000' }))
        .status,
    ).toBe(401);
    const ghost = uniqueEmail('ghost-events');
    expect(
      (
        await from(new PortalClient(h.app), 'post', `${API}/auth/login`, {
          email: ghost,
          password: 'wrong-password-000',
        })
      ).status,
    ).toBe(401);
    for (let i = 1; i < PORTAL_THROTTLE_LIMITS.loginFailuresPerAccountAndClient.points; i++) {
      await from(new PortalClient(h.app), 'post', `${API}/auth/login`, {
        email: ghost,
        password: 'wrong-password-000',
      });
    }
    expect(
      (
        await from(new PortalClient(h.app), 'post', `${API}/auth/login`, {
          email: ghost,
          password: 'wrong-password-000',
        })
      ).status,
    ).toBe(429);

    const second = new PortalClient(h.app);
    const login = await from(second, 'post', `${API}/auth/login`, { email, password: GOOD_PASSWORD });
    expect(login.status).toBe(200);
    second.csrfToken = login.body.csrfToken;
    expect((await from(second, 'post', `${API}/auth/logout`)).status).toBe(204);

    const changed = await from(owner, 'post', `${API}/auth/password`, {
      currentPassword: GOOD_PASSWORD,
      newPassword: 'changed-secret-2026',
    });
    expect(changed.status).toBe(200);
    expect(
      (
        await from(owner, 'post', `${API}/auth/password`, {
          currentPassword: 'not-my-password-1',
          newPassword: 'changed-again-2027',
        })
      ).status,
    ).toBe(400);

    const invitee = uniqueEmail('events-invitee');
    expect((await from(owner, 'post', `${API}/team/invites`, { email: invitee, role: 'member' })).status).toBe(201);
    const accepted = await from(new PortalClient(h.app), 'post', `${API}/auth/invites/accept`, {
      token: h.mailer.lastToken(invitee, 'accept-invite'),
      password: GOOD_PASSWORD,
    });
    expect(accepted.status).toBe(201);

    expect((await from(owner, 'post', `${API}/auth/logout-all`)).status).toBe(204);
    expect((await from(new PortalClient(h.app), 'post', `${API}/auth/password-reset`, { email })).status).toBe(202);
    await flush();
    const resetToken = h.mailer.lastToken(email, 'reset-password');
    expect(
      (
        await from(new PortalClient(h.app), 'post', `${API}/auth/password-reset/confirm`, {
          token: resetToken,
          password: 'reset-secret-2026-x',
        })
      ).status,
    ).toBe(200);

    // The audit log: one entry per event, with the client IP; the account's operator sees those about its users.
    const entries = await h.prisma.auditEntry.findMany({
      where: { OR: [{ targetId: userId }, { targetId: emailHash(ghost) }, { targetId: accepted.body.user.id }] },
      orderBy: { at: 'asc' },
    });
    const actions = entries.map((e) => e.action);
    expect(actions).toEqual(
      expect.arrayContaining([
        'auth.signup',
        'auth.email.verified',
        'auth.login.failed',
        'auth.login.throttled',
        'auth.login.succeeded',
        'auth.logout',
        'auth.password.changed',
        'auth.password.change_failed',
        'auth.invite.accepted',
        'auth.logout_all',
        'auth.password_reset.requested',
        'auth.password_reset.completed',
      ]),
    );
    for (const entry of entries) expect(entry.ip).toBe(IP);
    const failed = entries.find((e) => e.action === 'auth.login.failed' && e.targetId === userId)!;
    expect(failed).toMatchObject({
      operatorId,
      targetType: 'user',
      actorUserId: null,
      after: { reason: 'wrong_password' },
    });
    const unknown = entries.find((e) => e.action === 'auth.login.failed' && e.targetType === 'email_hash')!;
    expect(unknown).toMatchObject({
      operatorId: null,
      targetId: emailHash(ghost),
      after: { reason: 'unknown_account', emailHash: emailHash(ghost) },
    });
    expect(JSON.stringify(entries)).not.toContain(ghost);
    expect(await h.prisma.auditEntry.count({ where: { operatorId, action: 'team.invite.create' } })).toBe(1);

    // The process log: the same events, with account id or e-mail hash, the client IP and the request id.
    const events = lines.filter((l) => l['msg'] === 'auth event');
    const names = events.map((l) => l['event']);
    expect(names).toEqual(expect.arrayContaining([...new Set(actions), 'auth.invite.sent']));
    for (const line of events) {
      expect(line['ip']).toBe(IP);
      expect(line['reqId']).toEqual(expect.any(String));
      expect(line['userId'] ?? line['emailHash']).toEqual(expect.any(String));
    }
    const logText = JSON.stringify(lines);
    for (const secret of [
      email,
      ghost,
      invitee,
      GOOD_PASSWORD,
      'changed-secret-2026',
      'reset-secret-2026-x',
      resetToken,
    ]) {
      expect(logText).not.toContain(secret);
    }
  });

  it('log-in events of a known account name it by user id in the process log', async () => {
    const { email, user } = await signUp(h);
    await logIn(h, email);
    const line = lines.filter((l) => l['event'] === 'auth.login.succeeded').at(-1)!;
    expect(line).toMatchObject({ userId: user.id, operatorId: user.operatorId });
    expect(line['emailHash']).toBeUndefined();
  });
});
