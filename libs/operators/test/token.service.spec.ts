import { hashToken } from '@expedition/platform';
import { AccountError } from '../src/lib/accounts/account-error';
import { PASSWORD, useAccountFixture } from './account-fixture';

const f = useAccountFixture();

describe('tokens', () => {
  it('a verification token can be used once, even by two concurrent requests', async () => {
    const { verificationToken } = await f.services.identity.signUp({
      email: 'race@example.com',
      password: PASSWORD,
      operatorName: 'Race Co',
    });
    const results = await Promise.allSettled([
      f.services.tokens.verifyEmail(verificationToken),
      f.services.tokens.verifyEmail(verificationToken),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const rejected = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(rejected.reason).toBeInstanceOf(AccountError);
    expect((rejected.reason as AccountError).code).toBe('invalid_token');
    const stored = await f.db.prisma.userToken.findUniqueOrThrow({
      where: { tokenHash: hashToken(verificationToken) },
    });
    expect(stored.usedAt).not.toBeNull();
  });

  it('a password reset ends every session and voids the other reset and sign-in links', async () => {
    await f.services.identity.signUp({ email: 'reset@example.com', password: PASSWORD, operatorName: 'Reset Co' });
    const user = (await f.services.identity.findUserByEmail('reset@example.com'))!;
    const session = await f.services.sessions.createSession(user.id);
    const first = (await f.services.tokens.requestPasswordReset('reset@example.com'))!;
    const second = (await f.services.tokens.requestPasswordReset('RESET@example.com '))!;
    const signIn = (await f.services.tokens.createSignInLink('reset@example.com'))!;
    await f.services.tokens.confirmPasswordReset(second.token, 'another-long-passphrase');
    await expect(f.services.tokens.signInWithLink(signIn.token)).rejects.toMatchObject({ code: 'invalid_token' });
    expect(await f.services.sessions.resolveSession(session.token)).toBeNull();
    await expect(f.services.tokens.confirmPasswordReset(first.token, 'third-long-passphrase')).rejects.toMatchObject({
      code: 'invalid_token',
    });
    expect(await f.services.tokens.requestPasswordReset('nobody@example.com')).toBeNull();
  });

  it('a sign-in link works once, replaces the pending one, and is refused to a disabled account', async () => {
    const { user } = await f.services.identity.signUp({
      email: 'locked@example.com',
      password: PASSWORD,
      operatorName: 'Locked Co',
    });
    const first = (await f.services.tokens.createSignInLink('LOCKED@example.com'))!;
    const second = (await f.services.tokens.createSignInLink('locked@example.com'))!;
    await expect(f.services.tokens.signInWithLink(first.token)).rejects.toMatchObject({ code: 'invalid_token' });
    expect(await f.services.tokens.signInWithLink(second.token)).toMatchObject({ id: user.id });
    await expect(f.services.tokens.signInWithLink(second.token)).rejects.toMatchObject({ code: 'invalid_token' });
    expect(await f.services.tokens.createSignInLink('nobody@example.com')).toBeNull();

    const third = (await f.services.tokens.createSignInLink('locked@example.com'))!;
    await f.db.prisma.operatorUser.update({ where: { id: user.id }, data: { disabledAt: f.clock.now() } });
    await expect(f.services.tokens.signInWithLink(third.token)).rejects.toMatchObject({ code: 'invalid_token' });
    expect(await f.services.tokens.createSignInLink('locked@example.com')).toBeNull();
  });
});
