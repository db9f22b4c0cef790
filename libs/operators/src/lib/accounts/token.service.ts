import {
  type AccountServiceDeps,
  type AccountUser,
  clockOf,
  endSessions,
  namesOfUser,
  normalizeEmail,
  requireNewPassword,
  requireUser,
  toAccountUser,
} from './account-context';
import { AccountError } from './account-error';
import { hashPassword } from './passwords';
import { createUserTokens, invalidToken } from './user-tokens';

/**
 * The e-mailed links of an account (docs/portal.md, "Accounts API"): address verification, password reset and the
 * one-time sign-in link of a locked-out account. Each link works once; a refused request leaves it working.
 */
export function createTokenService(deps: AccountServiceDeps) {
  const { prisma } = deps;
  const clock = clockOf(deps);
  const tokens = createUserTokens(deps);

  /** The enabled user of an address; null for a malformed, unknown or disabled one (callers answer alike). */
  async function enabledUserByEmail(emailInput: unknown) {
    let email: string;
    try {
      email = normalizeEmail(emailInput);
    } catch {
      return null;
    }
    const row = await prisma.operatorUser.findUnique({ where: { email } });
    return row && !row.disabledAt ? row : null;
  }

  async function createEmailVerification(userId: string): Promise<{ user: AccountUser; token: string } | null> {
    const user = await requireUser(prisma, userId);
    if (user.emailVerified) return null;
    const { token } = await tokens.issueToken('verify_email', { email: user.email, userId: user.id });
    return { user, token };
  }

  async function verifyEmail(token: unknown): Promise<AccountUser> {
    const row = await tokens.consumeToken('verify_email', token);
    const user = row.userId ? await prisma.operatorUser.findUnique({ where: { id: row.userId } }) : null;
    if (!user || user.email !== row.email)
      throw new AccountError('invalid_token', 'This link is invalid or has expired');
    const updated = user.emailVerifiedAt
      ? user
      : await prisma.operatorUser.update({ where: { id: user.id }, data: { emailVerifiedAt: clock.now() } });
    return toAccountUser(updated);
  }

  /**
   * A reset token for a known, enabled user; null otherwise (the caller answers the same either way). Any well-formed
   * address gets the same statements, so the time of the answer does not tell a known address from an unknown one
   * (docs/security.md, "Password-reset timing"): an unknown or disabled one gets a token row for no user, which no
   * link can use (confirmPasswordReset refuses a token without its user) and which is never mailed.
   */
  async function requestPasswordReset(emailInput: unknown): Promise<{ user: AccountUser; token: string } | null> {
    let email: string;
    try {
      email = normalizeEmail(emailInput);
    } catch {
      return null;
    }
    const found = await prisma.operatorUser.findUnique({ where: { email } });
    const row = found && !found.disabledAt ? found : null;
    const { token } = await tokens.issueToken('reset_password', { email, userId: row?.id ?? null });
    return row ? { user: toAccountUser(row), token } : null;
  }

  /**
   * Sets the new password, ends every session of the user and marks the address verified (the link proved it). The
   * password is judged in full (with the user's address) before the token is spent: a refused password leaves the
   * link working.
   */
  async function confirmPasswordReset(token: unknown, password: unknown): Promise<AccountUser> {
    if (typeof password !== 'string') throw new AccountError('weak_password', 'password is required');
    const row = await tokens.findUsableToken('reset_password', token);
    const user = row.userId ? await prisma.operatorUser.findUnique({ where: { id: row.userId } }) : null;
    if (!user || user.email !== row.email || user.disabledAt) throw invalidToken();
    const names = await namesOfUser(prisma, user);
    const passwordHash = await hashPassword(requireNewPassword(password, { email: user.email, names }));
    const now = clock.now();
    const updated = await prisma.$transaction(async (tx) => {
      await tokens.claimToken(tx, row, now);
      const changed = await tx.operatorUser.update({
        where: { id: user.id },
        data: { passwordHash, emailVerifiedAt: user.emailVerifiedAt ?? now },
      });
      await endSessions(tx, user.id, now);
      // Other outstanding reset and sign-in links of this user die with this one.
      await tx.userToken.updateMany({
        where: { userId: user.id, purpose: { in: ['reset_password', 'sign_in'] }, usedAt: null },
        data: { usedAt: now },
      });
      return changed;
    });
    return toAccountUser(updated);
  }

  /**
   * A one-time sign-in link for a known, enabled user (mailed when the account is locked by failed log-ins); null
   * otherwise. A newer link replaces the pending one.
   */
  async function createSignInLink(emailInput: unknown): Promise<{ user: AccountUser; token: string } | null> {
    const row = await enabledUserByEmail(emailInput);
    if (!row) return null;
    await prisma.userToken.updateMany({
      where: { userId: row.id, purpose: 'sign_in', usedAt: null },
      data: { usedAt: clock.now() },
    });
    const { token } = await tokens.issueToken('sign_in', { email: row.email, userId: row.id });
    return { user: toAccountUser(row), token };
  }

  /** The user of a sign-in link (spent here). The caller creates the session. */
  async function signInWithLink(token: unknown): Promise<AccountUser> {
    const row = await tokens.consumeToken('sign_in', token);
    const user = row.userId ? await prisma.operatorUser.findUnique({ where: { id: row.userId } }) : null;
    if (!user || user.email !== row.email || user.disabledAt) throw invalidToken();
    return toAccountUser(user);
  }

  return {
    createEmailVerification,
    verifyEmail,
    requestPasswordReset,
    confirmPasswordReset,
    createSignInLink,
    signInWithLink,
  };
}
