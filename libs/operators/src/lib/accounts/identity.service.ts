import { mintPublishableKey } from '@expedition/auth-publishable-key';
import { isUniqueViolation } from '@expedition/db';
import {
  type AccountServiceDeps,
  type AccountUser,
  clockOf,
  emailTaken,
  endSessions,
  namesOfUser,
  normalizeEmail,
  optionalName,
  requireName,
  requireNewPassword,
  requireUser,
  toAccountUser,
} from './account-context';
import { AccountError } from './account-error';
import { hashPassword, normalizePassword, verifyDummyPassword, verifyPassword } from './passwords';
import { createUserTokens } from './user-tokens';

/** The result of checking a log-in: the user, or why not (with the account it concerned, for the audit log). */
export type CredentialCheck =
  | { ok: true; user: AccountUser }
  | { ok: false; reason: 'unknown_account' | 'wrong_password' | 'disabled'; account: AccountUser | null };

/**
 * Who a portal user is: sign-up (a new operator and its owner), look-ups, the password check of a log-in, and a
 * password change. Passwords are argon2id hashes (passwords.ts); the sessions a log-in opens are session.service.ts.
 */
export function createIdentityService(deps: AccountServiceDeps) {
  const { prisma } = deps;
  const clock = clockOf(deps);
  const tokens = createUserTokens(deps);

  async function getUser(userId: string): Promise<AccountUser> {
    return requireUser(prisma, userId);
  }

  async function findUserByEmail(email: string): Promise<AccountUser | null> {
    const row = await prisma.operatorUser.findUnique({ where: { email: normalizeEmail(email) } });
    return row ? toAccountUser(row) : null;
  }

  /**
   * A new operator (active, embedding off, tier 3, a first test publishable key) and its owner, in one transaction.
   * Returns the e-mail verification token to send.
   */
  async function signUp(input: { email: unknown; password: unknown; operatorName: unknown; name?: unknown }) {
    const email = normalizeEmail(input.email);
    const operatorName = requireName(input.operatorName, 'operatorName');
    const name = optionalName(input.name);
    const password = requireNewPassword(input.password, { email, names: [operatorName, name] });
    const passwordHash = await hashPassword(password);
    const now = clock.now();
    let created;
    try {
      created = await prisma.$transaction(async (tx) => {
        const operator = await tx.operator.create({
          data: {
            name: operatorName,
            status: 'active',
            embeddingEnabled: false,
            integrationTier: 3,
            contactEmail: email,
            createdAt: now,
          },
        });
        const key = await tx.publishableKey.create({
          data: {
            operatorId: operator.id,
            key: mintPublishableKey('test'),
            mode: 'test',
            label: 'first test key',
            createdAt: now,
          },
        });
        const user = await tx.operatorUser.create({
          data: { email, name, passwordHash, role: 'owner', operatorId: operator.id, createdAt: now },
        });
        return { operator, key, user };
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw emailTaken();
      throw error;
    }
    const verification = await tokens.issueToken('verify_email', { email, userId: created.user.id });
    return {
      user: toAccountUser(created.user),
      operator: { id: created.operator.id, name: created.operator.name },
      publishableKey: created.key.key,
      verificationToken: verification.token,
    };
  }

  /**
   * The user whose e-mail and password match, else `invalid_credentials`, the same way and in about the same time for
   * an unknown address, a disabled user and a wrong password.
   */
  async function authenticate(emailInput: unknown, password: unknown): Promise<AccountUser> {
    const check = await checkCredentials(emailInput, password);
    if (!check.ok) throw new AccountError('invalid_credentials', 'E-mail or password is incorrect');
    return check.user;
  }

  /** `authenticate` that says why not (for the audit log; callers answer every failure the same way). */
  async function checkCredentials(emailInput: unknown, password: unknown): Promise<CredentialCheck> {
    let email: string;
    try {
      email = normalizeEmail(emailInput);
    } catch {
      await verifyDummyPassword(String(password ?? ''));
      return { ok: false, reason: 'unknown_account', account: null };
    }
    const row = await prisma.operatorUser.findUnique({ where: { email } });
    if (!row || typeof password !== 'string') {
      await verifyDummyPassword(typeof password === 'string' ? password : '');
      return { ok: false, reason: 'unknown_account', account: row ? toAccountUser(row) : null };
    }
    const ok = await verifyPassword(row.passwordHash, password);
    if (!ok) return { ok: false, reason: 'wrong_password', account: toAccountUser(row) };
    if (row.disabledAt) return { ok: false, reason: 'disabled', account: toAccountUser(row) };
    return { ok: true, user: toAccountUser(row) };
  }

  /** Requires the current password; ends every other session of the user. */
  async function changePassword(
    userId: string,
    currentPassword: unknown,
    newPassword: unknown,
    keepSessionId?: string,
  ) {
    const row = await prisma.operatorUser.findUnique({ where: { id: userId } });
    if (!row) throw new AccountError('not_found', 'user not found');
    if (typeof currentPassword !== 'string' || !(await verifyPassword(row.passwordHash, currentPassword))) {
      throw new AccountError('wrong_password', 'The current password is incorrect');
    }
    const password = requireNewPassword(newPassword, { email: row.email, names: await namesOfUser(prisma, row) });
    if (normalizePassword(password) === normalizePassword(currentPassword))
      throw new AccountError('weak_password', 'the new password must differ from the current one');
    await prisma.operatorUser.update({ where: { id: userId }, data: { passwordHash: await hashPassword(password) } });
    // A reset link mailed before the change must not undo it.
    await prisma.userToken.updateMany({
      where: { userId, purpose: 'reset_password', usedAt: null },
      data: { usedAt: clock.now() },
    });
    await endSessions(prisma, userId, clock.now(), { except: keepSessionId });
    return toAccountUser(row);
  }

  return { getUser, findUserByEmail, signUp, authenticate, checkCredentials, changePassword };
}
