import { ACCOUNT_DEFAULTS } from '../src/lib/accounts/account-context';
import { PASSWORD, useAccountFixture } from './account-fixture';

const f = useAccountFixture();
let counter = 0;

async function newUser() {
  counter += 1;
  const { user } = await f.services.identity.signUp({
    email: `session-${counter}@example.com`,
    password: PASSWORD,
    operatorName: `Session Co ${counter}`,
  });
  return user;
}

describe('sessions', () => {
  it('a session resolves to its user until the idle timeout', async () => {
    const user = await newUser();
    const session = await f.services.sessions.createSession(user.id, { userAgent: 'jest', ip: '203.0.113.9' });
    expect(session.token).toMatch(/^ps_/);
    const row = await f.db.prisma.operatorSession.findUniqueOrThrow({ where: { id: session.sessionId } });
    expect(row.tokenHash).not.toContain(session.token);
    expect(row).toMatchObject({ userAgent: 'jest', ip: '203.0.113.9', csrfToken: session.csrfToken });
    expect(await f.services.sessions.resolveSession(session.token)).toMatchObject({
      sessionId: session.sessionId,
      user: { id: user.id },
    });
    f.clock.advance(ACCOUNT_DEFAULTS.sessionIdleMs);
    expect(await f.services.sessions.resolveSession(session.token)).toBeNull();
    expect(await f.services.sessions.resolveSession('')).toBeNull();
  });

  it('ends at the absolute timeout even when used, and writes lastSeenAt at most once a minute', async () => {
    const user = await newUser();
    const session = await f.services.sessions.createSession(user.id);
    const seen = async () =>
      (await f.db.prisma.operatorSession.findUniqueOrThrow({ where: { id: session.sessionId } })).lastSeenAt;
    const created = await seen();
    f.clock.advance(30_000);
    await f.services.sessions.resolveSession(session.token);
    expect(await seen()).toEqual(created);
    f.clock.advance(ACCOUNT_DEFAULTS.touchEveryMs);
    await f.services.sessions.resolveSession(session.token);
    expect(await seen()).toEqual(f.clock.now());
    for (let at = 0; at < ACCOUNT_DEFAULTS.sessionAbsoluteMs; at += 20 * 60_000) {
      f.clock.advance(20 * 60_000);
      await f.services.sessions.resolveSession(session.token);
    }
    expect(await f.services.sessions.resolveSession(session.token)).toBeNull();
  });

  it('revokeSession ends one session; revokeAllSessions the others too, optionally keeping one; a disabled user has none', async () => {
    const user = await newUser();
    const [a, b, c] = [
      await f.services.sessions.createSession(user.id),
      await f.services.sessions.createSession(user.id),
      await f.services.sessions.createSession(user.id),
    ];
    await f.services.sessions.revokeSession(a.sessionId);
    expect(await f.services.sessions.resolveSession(a.token)).toBeNull();
    expect(await f.services.sessions.revokeAllSessions(user.id, { except: c.sessionId })).toBe(1);
    expect(await f.services.sessions.resolveSession(b.token)).toBeNull();
    expect(await f.services.sessions.resolveSession(c.token)).not.toBeNull();
    await f.db.prisma.operatorUser.update({ where: { id: user.id }, data: { disabledAt: f.clock.now() } });
    expect(await f.services.sessions.resolveSession(c.token)).toBeNull();
  });
});
