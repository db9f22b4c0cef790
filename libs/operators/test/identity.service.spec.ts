import { parsePublishableKey } from '@expedition/auth-publishable-key';
import { PASSWORD, useAccountFixture } from './account-fixture';

const f = useAccountFixture();

describe('identity', () => {
  it('signUp makes an active operator (embedding off, tier 3, a first test key) and its unverified owner', async () => {
    const created = await f.services.identity.signUp({
      email: ' Founder@Example.com ',
      password: PASSWORD,
      operatorName: '  Glacier   Trips ',
      name: 'Fay',
    });
    expect(created.user).toMatchObject({
      email: 'founder@example.com',
      name: 'Fay',
      role: 'owner',
      emailVerified: false,
    });
    expect(parsePublishableKey(created.publishableKey)?.mode).toBe('test');
    const operator = await f.db.prisma.operator.findUniqueOrThrow({ where: { id: created.operator.id } });
    expect(operator).toMatchObject({
      name: 'Glacier Trips',
      status: 'active',
      embeddingEnabled: false,
      integrationTier: 3,
    });
    expect(await f.services.identity.getUser(created.user.id)).toEqual(created.user);
    expect(await f.services.identity.findUserByEmail('FOUNDER@example.com')).toEqual(created.user);

    await expect(
      f.services.identity.signUp({ email: 'founder@example.com', password: PASSWORD, operatorName: 'Again' }),
    ).rejects.toMatchObject({ code: 'email_taken' });
    await expect(
      f.services.identity.signUp({ email: 'weak@example.com', password: 'short', operatorName: 'Weak' }),
    ).rejects.toMatchObject({ code: 'weak_password' });
    await expect(f.services.identity.getUser('not-a-uuid')).rejects.toMatchObject({ code: 'not_found' });
  });

  it('checkCredentials says why not; authenticate answers every refusal the same way', async () => {
    const { user } = await f.services.identity.signUp({
      email: 'login@example.com',
      password: PASSWORD,
      operatorName: 'Login Co',
    });
    expect(await f.services.identity.checkCredentials('login@example.com', PASSWORD)).toEqual({ ok: true, user });
    expect(await f.services.identity.checkCredentials('nobody@example.com', PASSWORD)).toMatchObject({
      ok: false,
      reason: 'unknown_account',
      account: null,
    });
    expect(await f.services.identity.checkCredentials('login@example.com', 'wrong-passphrase-1')).toMatchObject({
      ok: false,
      reason: 'wrong_password',
      account: { id: user.id },
    });
    await f.db.prisma.operatorUser.update({ where: { id: user.id }, data: { disabledAt: f.clock.now() } });
    expect(await f.services.identity.checkCredentials('login@example.com', PASSWORD)).toMatchObject({
      ok: false,
      reason: 'disabled',
    });
    for (const [email, password] of [
      ['login@example.com', PASSWORD],
      ['nobody@example.com', PASSWORD],
      ['not an address', PASSWORD],
    ]) {
      await expect(f.services.identity.authenticate(email, password)).rejects.toMatchObject({
        code: 'invalid_credentials',
        message: 'E-mail or password is incorrect',
      });
    }
  });

  it('changePassword needs the current password and a new one; it voids reset links and ends the other sessions', async () => {
    const { user } = await f.services.identity.signUp({
      email: 'change@example.com',
      password: PASSWORD,
      operatorName: 'Change Co',
    });
    const kept = await f.services.sessions.createSession(user.id);
    const other = await f.services.sessions.createSession(user.id);
    const reset = (await f.services.tokens.requestPasswordReset('change@example.com'))!;
    const { identity } = f.services;
    await expect(identity.changePassword(user.id, 'wrong-passphrase-1', 'next-long-passphrase')).rejects.toMatchObject({
      code: 'wrong_password',
    });
    await expect(identity.changePassword(user.id, PASSWORD, PASSWORD)).rejects.toMatchObject({ code: 'weak_password' });

    await identity.changePassword(user.id, PASSWORD, 'next-long-passphrase', kept.sessionId);
    expect(await identity.authenticate('change@example.com', 'next-long-passphrase')).toMatchObject({ id: user.id });
    expect(await f.services.sessions.resolveSession(kept.token)).not.toBeNull();
    expect(await f.services.sessions.resolveSession(other.token)).toBeNull();
    await expect(f.services.tokens.confirmPasswordReset(reset.token, 'third-long-passphrase')).rejects.toMatchObject({
      code: 'invalid_token',
    });
  });
});
