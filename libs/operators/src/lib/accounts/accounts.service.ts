import { mintPublishableKey } from '@expedition/auth-publishable-key';
import { type PrismaClient, isUniqueViolation } from '@expedition/db';
import { addMs, hashToken, isUuid, randomToken, systemClock, type Clock } from '@expedition/platform';
import { AccountError } from './account-error';
import {
  generatePassword,
  hashPassword,
  normalizePassword,
  passwordProblem,
  verifyDummyPassword,
  verifyPassword,
} from './passwords';

export type AccountRole = 'owner' | 'member' | 'provider_admin';
export type TokenPurpose = 'verify_email' | 'reset_password' | 'invite' | 'sign_in';

export interface AccountUser {
  id: string;
  email: string;
  name: string | null;
  role: AccountRole;
  operatorId: string | null;
  emailVerified: boolean;
}

export interface TeamMember extends AccountUser {
  createdAt: Date;
  lastLoginAt: Date | null;
}

export interface PendingInvite {
  id: string;
  email: string;
  role: 'owner' | 'member';
  createdAt: Date;
  expiresAt: Date;
}

export interface ResolvedSession {
  sessionId: string;
  csrfToken: string;
  /** Absolute expiry; the idle expiry moves with every request. */
  expiresAt: Date;
  user: AccountUser;
}

export interface NewSession {
  /** The cookie value: shown once, only its sha256 is stored. */
  token: string;
  sessionId: string;
  csrfToken: string;
  expiresAt: Date;
}

export interface AccountServiceDeps {
  prisma: PrismaClient;
  clock?: Clock;
  /** Idle timeout: a session unused for this long is over. Default 30 min. */
  sessionIdleMs?: number;
  /** Absolute timeout from log-in. Default 12 h. */
  sessionAbsoluteMs?: number;
}

export const ACCOUNT_DEFAULTS = {
  sessionIdleMs: 30 * 60_000,
  sessionAbsoluteMs: 12 * 60 * 60_000,
  /** lastSeenAt is written at most this often per session (one write a minute, not one per request). */
  touchEveryMs: 60_000,
  verifyEmailTtlMs: 48 * 60 * 60_000,
  resetPasswordTtlMs: 60 * 60_000,
  inviteTtlMs: 7 * 24 * 60 * 60_000,
  /** The sign-in link mailed to a locked-out account: as long as the lock lasts at most. */
  signInTtlMs: 60 * 60_000,
} as const;

const TOKEN_PREFIX: Record<TokenPurpose, string> = {
  verify_email: 'ev',
  reset_password: 'pr',
  invite: 'inv',
  sign_in: 'si',
};
const TOKEN_TTL: Record<TokenPurpose, number> = {
  verify_email: ACCOUNT_DEFAULTS.verifyEmailTtlMs,
  reset_password: ACCOUNT_DEFAULTS.resetPasswordTtlMs,
  invite: ACCOUNT_DEFAULTS.inviteTtlMs,
  sign_in: ACCOUNT_DEFAULTS.signInTtlMs,
};

/** The result of checking a log-in: the user, or why not (with the account it concerned, for the audit log). */
export type CredentialCheck =
  | { ok: true; user: AccountUser }
  | { ok: false; reason: 'unknown_account' | 'wrong_password' | 'disabled'; account: AccountUser | null };

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const MAX_EMAIL = 254;
const MAX_NAME = 120;

export function normalizeEmail(input: unknown): string {
  if (typeof input !== 'string') throw new AccountError('invalid_input', 'email is required');
  const email = input.trim().toLowerCase();
  if (email.length > MAX_EMAIL || !EMAIL.test(email))
    throw new AccountError('invalid_input', 'email is not a valid e-mail address');
  return email;
}

function optionalName(input: unknown, what = 'name'): string | null {
  if (input === undefined || input === null) return null;
  if (typeof input !== 'string') throw new AccountError('invalid_input', `${what} must be a string`);
  const name = input.trim().replace(/\s+/g, ' ');
  if (name.length > MAX_NAME) throw new AccountError('invalid_input', `${what} must be at most ${MAX_NAME} characters`);
  return name === '' ? null : name;
}

function requireName(input: unknown, what: string): string {
  const name = optionalName(input, what);
  if (!name) throw new AccountError('invalid_input', `${what} is required`);
  return name;
}

function requireNewPassword(password: unknown, email?: string): string {
  const problem = passwordProblem(password, { email });
  if (problem) throw new AccountError('weak_password', problem);
  return password as string;
}

type UserRow = {
  id: string;
  email: string;
  name: string | null;
  role: AccountRole;
  operatorId: string | null;
  emailVerifiedAt: Date | null;
  createdAt: Date;
  lastLoginAt: Date | null;
};

export function toAccountUser(row: UserRow): AccountUser {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role,
    operatorId: row.operatorId,
    emailVerified: row.emailVerifiedAt !== null,
  };
}

/**
 * Operator-portal accounts: users, argon2id passwords, server-side sessions, single-use e-mail tokens (verification,
 * password reset, invitations) and teams. Shared by the portal and the admin CLI. Secrets leave this service once
 * (session tokens, e-mail tokens, generated passwords) and are stored only as hashes.
 */
export function createAccountService(deps: AccountServiceDeps) {
  const { prisma } = deps;
  const clock = deps.clock ?? systemClock;
  const idleMs = deps.sessionIdleMs ?? ACCOUNT_DEFAULTS.sessionIdleMs;
  const absoluteMs = deps.sessionAbsoluteMs ?? ACCOUNT_DEFAULTS.sessionAbsoluteMs;

  async function issueToken(
    purpose: TokenPurpose,
    target: { email: string; userId?: string | null; operatorId?: string | null; role?: AccountRole | null },
  ): Promise<{ token: string; id: string; expiresAt: Date }> {
    const token = randomToken(TOKEN_PREFIX[purpose]);
    const now = clock.now();
    const row = await prisma.userToken.create({
      data: {
        purpose,
        tokenHash: hashToken(token),
        email: target.email,
        userId: target.userId ?? null,
        operatorId: target.operatorId ?? null,
        role: target.role ?? null,
        createdAt: now,
        expiresAt: addMs(now, TOKEN_TTL[purpose]),
      },
    });
    return { token, id: row.id, expiresAt: row.expiresAt };
  }

  const invalidToken = () => new AccountError('invalid_token', 'This link is invalid or has expired');

  /** The unused, unexpired token of this purpose, without spending it (check the rest of the request first). */
  async function findUsableToken(purpose: TokenPurpose, token: unknown) {
    if (typeof token !== 'string' || token.length === 0 || token.length > 200) throw invalidToken();
    const row = await prisma.userToken.findUnique({ where: { tokenHash: hashToken(token) } });
    if (!row || row.purpose !== purpose || row.usedAt !== null || row.expiresAt.getTime() <= clock.now().getTime()) {
      throw invalidToken();
    }
    return row;
  }

  /** Marks the token used, atomically: a token works once (of two concurrent uses one wins), and not after expiry. */
  async function claimToken(tx: Pick<PrismaClient, 'userToken'>, row: { id: string }, now: Date): Promise<void> {
    const claimed = await tx.userToken.updateMany({
      where: { id: row.id, usedAt: null, expiresAt: { gt: now } },
      data: { usedAt: now },
    });
    if (claimed.count !== 1) throw invalidToken();
  }

  async function consumeToken(purpose: TokenPurpose, token: unknown) {
    const row = await findUsableToken(purpose, token);
    await claimToken(prisma, row, clock.now());
    return row;
  }

  async function getUser(userId: string): Promise<AccountUser> {
    const row = isUuid(userId) ? await prisma.operatorUser.findUnique({ where: { id: userId } }) : null;
    if (!row) throw new AccountError('not_found', 'user not found');
    return toAccountUser(row);
  }

  async function findUserByEmail(email: string): Promise<AccountUser | null> {
    const row = await prisma.operatorUser.findUnique({ where: { email: normalizeEmail(email) } });
    return row ? toAccountUser(row) : null;
  }

  // ---- sign-up, log-in ----

  /**
   * A new operator (active, embedding off, tier 3, a first test publishable key) and its owner, in one transaction.
   * Returns the e-mail verification token to send.
   */
  async function signUp(input: { email: unknown; password: unknown; operatorName: unknown; name?: unknown }) {
    const email = normalizeEmail(input.email);
    const password = requireNewPassword(input.password, email);
    const operatorName = requireName(input.operatorName, 'operatorName');
    const name = optionalName(input.name);
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
      if (isUniqueViolation(error))
        throw new AccountError('email_taken', 'An account with this e-mail address already exists');
      throw error;
    }
    const verification = await issueToken('verify_email', { email, userId: created.user.id });
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

  // ---- sessions ----

  /** A fresh session (new random token: never a pre-login one). */
  async function createSession(
    userId: string,
    meta: { userAgent?: string | null; ip?: string | null } = {},
  ): Promise<NewSession> {
    const token = randomToken('ps');
    const csrfToken = randomToken('csrf');
    const now = clock.now();
    const expiresAt = addMs(now, absoluteMs);
    const session = await prisma.operatorSession.create({
      data: {
        userId,
        tokenHash: hashToken(token),
        csrfToken,
        expiresAt,
        lastSeenAt: now,
        createdAt: now,
        userAgent: meta.userAgent?.slice(0, 300) ?? null,
        ip: meta.ip?.slice(0, 64) ?? null,
      },
    });
    await prisma.operatorUser.update({ where: { id: userId }, data: { lastLoginAt: now } });
    return { token, sessionId: session.id, csrfToken, expiresAt };
  }

  /** The live session of a cookie value, or null (unknown, revoked, past its absolute or idle timeout, user disabled). */
  async function resolveSession(token: string): Promise<ResolvedSession | null> {
    if (!token || token.length > 200) return null;
    const row = await prisma.operatorSession.findUnique({
      where: { tokenHash: hashToken(token) },
      include: { user: true },
    });
    if (!row || row.revokedAt || row.user.disabledAt) return null;
    const now = clock.now();
    if (row.expiresAt.getTime() <= now.getTime()) return null;
    if (row.lastSeenAt.getTime() + idleMs <= now.getTime()) return null;
    if (now.getTime() - row.lastSeenAt.getTime() >= ACCOUNT_DEFAULTS.touchEveryMs) {
      await prisma.operatorSession.update({ where: { id: row.id }, data: { lastSeenAt: now } });
    }
    return { sessionId: row.id, csrfToken: row.csrfToken, expiresAt: row.expiresAt, user: toAccountUser(row.user) };
  }

  async function revokeSession(sessionId: string): Promise<void> {
    await prisma.operatorSession.updateMany({
      where: { id: sessionId, revokedAt: null },
      data: { revokedAt: clock.now() },
    });
  }

  /** Log-out everywhere (optionally keeping the caller's own session). Returns how many sessions ended. */
  async function revokeAllSessions(userId: string, options: { except?: string } = {}): Promise<number> {
    const result = await prisma.operatorSession.updateMany({
      where: { userId, revokedAt: null, ...(options.except ? { id: { not: options.except } } : {}) },
      data: { revokedAt: clock.now() },
    });
    return result.count;
  }

  // ---- e-mail verification, passwords ----

  async function createEmailVerification(userId: string): Promise<{ user: AccountUser; token: string } | null> {
    const user = await getUser(userId);
    if (user.emailVerified) return null;
    const { token } = await issueToken('verify_email', { email: user.email, userId: user.id });
    return { user, token };
  }

  async function verifyEmail(token: unknown): Promise<AccountUser> {
    const row = await consumeToken('verify_email', token);
    const user = row.userId ? await prisma.operatorUser.findUnique({ where: { id: row.userId } }) : null;
    if (!user || user.email !== row.email)
      throw new AccountError('invalid_token', 'This link is invalid or has expired');
    const updated = user.emailVerifiedAt
      ? user
      : await prisma.operatorUser.update({ where: { id: user.id }, data: { emailVerifiedAt: clock.now() } });
    return toAccountUser(updated);
  }

  /** A reset token for a known, enabled user; null otherwise (the caller answers the same either way). */
  async function requestPasswordReset(emailInput: unknown): Promise<{ user: AccountUser; token: string } | null> {
    let email: string;
    try {
      email = normalizeEmail(emailInput);
    } catch {
      return null;
    }
    const row = await prisma.operatorUser.findUnique({ where: { email } });
    if (!row || row.disabledAt) return null;
    const { token } = await issueToken('reset_password', { email, userId: row.id });
    return { user: toAccountUser(row), token };
  }

  /** Sets the new password, ends every session of the user and marks the address verified (the link proved it). */
  /**
   * A one-time sign-in link for a known, enabled user (mailed when the account is locked by failed log-ins); null
   * otherwise. A newer link replaces the pending one.
   */
  async function createSignInLink(emailInput: unknown): Promise<{ user: AccountUser; token: string } | null> {
    let email: string;
    try {
      email = normalizeEmail(emailInput);
    } catch {
      return null;
    }
    const row = await prisma.operatorUser.findUnique({ where: { email } });
    if (!row || row.disabledAt) return null;
    await prisma.userToken.updateMany({
      where: { userId: row.id, purpose: 'sign_in', usedAt: null },
      data: { usedAt: clock.now() },
    });
    const { token } = await issueToken('sign_in', { email, userId: row.id });
    return { user: toAccountUser(row), token };
  }

  /** The user of a sign-in link (spent here). The caller creates the session. */
  async function signInWithLink(token: unknown): Promise<AccountUser> {
    const row = await consumeToken('sign_in', token);
    const user = row.userId ? await prisma.operatorUser.findUnique({ where: { id: row.userId } }) : null;
    if (!user || user.email !== row.email || user.disabledAt) throw invalidToken();
    return toAccountUser(user);
  }

  /**
   * Sets the new password, ends every session of the user and marks the address verified (the link proved it). The
   * password is judged in full (with the user's address) before the token is spent: a refused password leaves the
   * link working.
   */
  async function confirmPasswordReset(token: unknown, password: unknown): Promise<AccountUser> {
    if (typeof password !== 'string') throw new AccountError('weak_password', 'password is required');
    const row = await findUsableToken('reset_password', token);
    const user = row.userId ? await prisma.operatorUser.findUnique({ where: { id: row.userId } }) : null;
    if (!user || user.email !== row.email || user.disabledAt) throw invalidToken();
    const passwordHash = await hashPassword(requireNewPassword(password, user.email));
    const now = clock.now();
    const updated = await prisma.$transaction(async (tx) => {
      await claimToken(tx, row, now);
      const changed = await tx.operatorUser.update({
        where: { id: user.id },
        data: { passwordHash, emailVerifiedAt: user.emailVerifiedAt ?? now },
      });
      await tx.operatorSession.updateMany({ where: { userId: user.id, revokedAt: null }, data: { revokedAt: now } });
      // Other outstanding reset and sign-in links of this user die with this one.
      await tx.userToken.updateMany({
        where: { userId: user.id, purpose: { in: ['reset_password', 'sign_in'] }, usedAt: null },
        data: { usedAt: now },
      });
      return changed;
    });
    return toAccountUser(updated);
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
    const password = requireNewPassword(newPassword, row.email);
    if (normalizePassword(password) === normalizePassword(currentPassword))
      throw new AccountError('weak_password', 'the new password must differ from the current one');
    await prisma.operatorUser.update({ where: { id: userId }, data: { passwordHash: await hashPassword(password) } });
    // A reset link mailed before the change must not undo it.
    await prisma.userToken.updateMany({
      where: { userId, purpose: 'reset_password', usedAt: null },
      data: { usedAt: clock.now() },
    });
    await revokeAllSessions(userId, { except: keepSessionId });
    return toAccountUser(row);
  }

  // ---- team ----

  async function listTeam(operatorId: string): Promise<{ members: TeamMember[]; invites: PendingInvite[] }> {
    const [users, invites] = await Promise.all([
      prisma.operatorUser.findMany({ where: { operatorId }, orderBy: [{ createdAt: 'asc' }, { email: 'asc' }] }),
      prisma.userToken.findMany({
        where: { operatorId, purpose: 'invite', usedAt: null, expiresAt: { gt: clock.now() } },
        orderBy: { createdAt: 'asc' },
      }),
    ]);
    return {
      members: users.map((u) => ({ ...toAccountUser(u), createdAt: u.createdAt, lastLoginAt: u.lastLoginAt })),
      invites: invites.map((i) => ({
        id: i.id,
        email: i.email,
        role: i.role === 'owner' ? 'owner' : 'member',
        createdAt: i.createdAt,
        expiresAt: i.expiresAt,
      })),
    };
  }

  /**
   * Invites an address to the operator. Only a verified owner of that operator may invite (an unverified sign-up must
   * not make us mail anyone). A newer invitation to the same address replaces the pending one.
   */
  async function createInvite(operatorId: string, emailInput: unknown, roleInput: unknown, inviterUserId: string) {
    const inviter = await getUser(inviterUserId);
    if (inviter.operatorId !== operatorId || inviter.role !== 'owner')
      throw new AccountError('not_found', 'user not found');
    if (!inviter.emailVerified) {
      throw new AccountError(
        'email_unverified',
        'Confirm your e-mail address before inviting anyone (we sent you a link; you can ask for a new one)',
      );
    }
    const email = normalizeEmail(emailInput);
    if (roleInput !== 'owner' && roleInput !== 'member')
      throw new AccountError('invalid_input', 'role must be owner or member');
    const existing = await prisma.operatorUser.findUnique({ where: { email } });
    if (existing?.operatorId === operatorId)
      throw new AccountError('already_member', `${email} is already a member of this team`);
    if (existing) throw new AccountError('email_taken', `${email} already has an account with another operator`);
    await prisma.userToken.updateMany({
      where: { operatorId, email, purpose: 'invite', usedAt: null },
      data: { usedAt: clock.now() },
    });
    const issued = await issueToken('invite', { email, operatorId, role: roleInput });
    const invite: PendingInvite = {
      id: issued.id,
      email,
      role: roleInput,
      createdAt: clock.now(),
      expiresAt: issued.expiresAt,
    };
    return { invite, token: issued.token };
  }

  async function revokeInvite(operatorId: string, inviteId: string): Promise<void> {
    if (!isUuid(inviteId)) throw new AccountError('not_found', 'invitation not found');
    const result = await prisma.userToken.updateMany({
      where: { id: inviteId, operatorId, purpose: 'invite', usedAt: null },
      data: { usedAt: clock.now() },
    });
    if (result.count !== 1) throw new AccountError('not_found', 'invitation not found');
  }

  /** Creates the invited user (verified: the link proved the address). */
  /**
   * Creates the invited user (verified: the link proved the address). Everything is checked before the token is spent,
   * and the claim and the new user land together: a refused password or a taken address leaves the link working.
   */
  async function acceptInvite(token: unknown, password: unknown, name?: unknown): Promise<AccountUser> {
    const displayName = optionalName(name);
    const row = await findUsableToken('invite', token);
    const operatorId = row.operatorId;
    const role = row.role;
    if (!operatorId || (role !== 'owner' && role !== 'member')) throw invalidToken();
    const passwordHash = await hashPassword(requireNewPassword(password, row.email));
    const now = clock.now();
    try {
      const user = await prisma.$transaction(async (tx) => {
        await claimToken(tx, row, now);
        return tx.operatorUser.create({
          data: {
            email: row.email,
            name: displayName,
            passwordHash,
            role,
            operatorId,
            emailVerifiedAt: now,
            createdAt: now,
          },
        });
      });
      return toAccountUser(user);
    } catch (error) {
      if (isUniqueViolation(error))
        throw new AccountError('email_taken', 'An account with this e-mail address already exists');
      throw error;
    }
  }

  /** Removes a user from the operator (their sessions end with them). The last owner cannot be removed. */
  async function removeMember(operatorId: string, userId: string): Promise<AccountUser> {
    const row = isUuid(userId) ? await prisma.operatorUser.findUnique({ where: { id: userId } }) : null;
    if (!row || row.operatorId !== operatorId) throw new AccountError('not_found', 'member not found');
    if (row.role === 'owner') {
      const owners = await prisma.operatorUser.count({ where: { operatorId, role: 'owner' } });
      if (owners <= 1)
        throw new AccountError('last_owner', 'The last owner cannot be removed; make someone else owner first');
    }
    await prisma.operatorUser.delete({ where: { id: row.id } });
    return toAccountUser(row);
  }

  // ---- provisioning (admin CLI, launcher) ----

  /** A provider admin with a generated password (returned once) unless one is given. */
  async function createProviderAdmin(emailInput: unknown, passwordInput?: string) {
    const email = normalizeEmail(emailInput);
    const password = passwordInput === undefined ? generatePassword() : requireNewPassword(passwordInput, email);
    const now = clock.now();
    try {
      const row = await prisma.operatorUser.create({
        data: {
          email,
          passwordHash: await hashPassword(password),
          role: 'provider_admin',
          operatorId: null,
          emailVerifiedAt: now,
          createdAt: now,
        },
      });
      return { user: toAccountUser(row), password };
    } catch (error) {
      if (isUniqueViolation(error))
        throw new AccountError('email_taken', 'An account with this e-mail address already exists');
      throw error;
    }
  }

  /** Whether `password` is the user's current password (the launcher checks the file it printed). */
  async function checkPassword(userId: string, password: string): Promise<boolean> {
    const row = isUuid(userId) ? await prisma.operatorUser.findUnique({ where: { id: userId } }) : null;
    return row ? verifyPassword(row.passwordHash, password) : false;
  }

  async function listProviderAdmins(): Promise<AccountUser[]> {
    const rows = await prisma.operatorUser.findMany({
      where: { role: 'provider_admin' },
      orderBy: { createdAt: 'asc' },
    });
    return rows.map(toAccountUser);
  }

  /**
   * Makes sure `email` is a verified owner of `operatorId` with `password` (the launcher's demo log-in). Creates the
   * user when missing; an existing user of that operator gets the password back; a user of another operator is
   * refused.
   */
  async function ensureOwner(
    operatorId: string,
    emailInput: unknown,
    password: string,
    name?: string,
  ): Promise<AccountUser> {
    const email = normalizeEmail(emailInput);
    const existing = await prisma.operatorUser.findUnique({ where: { email } });
    const now = clock.now();
    if (existing && existing.operatorId !== operatorId) {
      throw new AccountError('email_taken', `${email} belongs to another operator`);
    }
    if (existing) {
      if (await verifyPassword(existing.passwordHash, password)) return toAccountUser(existing);
      const row = await prisma.operatorUser.update({
        where: { id: existing.id },
        data: { passwordHash: await hashPassword(password) },
      });
      return toAccountUser(row);
    }
    const row = await prisma.operatorUser.create({
      data: {
        email,
        name: name ?? null,
        passwordHash: await hashPassword(password),
        role: 'owner',
        operatorId,
        emailVerifiedAt: now,
        createdAt: now,
      },
    });
    return toAccountUser(row);
  }

  return {
    getUser,
    findUserByEmail,
    signUp,
    authenticate,
    checkCredentials,
    createSession,
    resolveSession,
    revokeSession,
    revokeAllSessions,
    createEmailVerification,
    verifyEmail,
    requestPasswordReset,
    confirmPasswordReset,
    createSignInLink,
    signInWithLink,
    changePassword,
    listTeam,
    createInvite,
    revokeInvite,
    acceptInvite,
    removeMember,
    createProviderAdmin,
    listProviderAdmins,
    checkPassword,
    ensureOwner,
  };
}

export type AccountService = ReturnType<typeof createAccountService>;
