import { deceptiveTextMessage, findDeceptiveCharacter } from '@expedition/contracts';
import type { PrismaClient } from '@expedition/db';
import { isUuid, systemClock, type Clock } from '@expedition/platform';
import { AccountError } from './account-error';
import { type PasswordContext, passwordProblem } from './passwords';

/**
 * What every account service is built from, the user as they return it, and the input checks they share. This module
 * imports no service, so services never import one another (the composition is accounts.service.ts).
 */
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

export type AccountRole = 'owner' | 'member' | 'provider_admin';

export interface AccountUser {
  id: string;
  email: string;
  name: string | null;
  role: AccountRole;
  operatorId: string | null;
  emailVerified: boolean;
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

export const clockOf = (deps: AccountServiceDeps): Clock => deps.clock ?? systemClock;

/** The user, or `not_found` for an unknown or malformed id. */
export async function requireUser(prisma: PrismaClient, userId: string): Promise<AccountUser> {
  const row = isUuid(userId) ? await prisma.operatorUser.findUnique({ where: { id: userId } }) : null;
  if (!row) throw new AccountError('not_found', 'user not found');
  return toAccountUser(row);
}

/** Ends the user's live sessions (optionally all but one); returns how many ended. */
export async function endSessions(
  db: Pick<PrismaClient, 'operatorSession'>,
  userId: string,
  now: Date,
  options: { except?: string } = {},
): Promise<number> {
  const result = await db.operatorSession.updateMany({
    where: { userId, revokedAt: null, ...(options.except ? { id: { not: options.except } } : {}) },
    data: { revokedAt: now },
  });
  return result.count;
}

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

export function optionalName(input: unknown, what = 'name'): string | null {
  if (input === undefined || input === null) return null;
  if (typeof input !== 'string') throw new AccountError('invalid_input', `${what} must be a string`);
  // Names are read by people (the team list, "Offered by …" on checkout pages): docs/security.md, Names that deceive.
  const deceptive = findDeceptiveCharacter(input.trim());
  if (deceptive) throw new AccountError('invalid_input', `${what} ${deceptiveTextMessage(deceptive)}`);
  const name = input.trim().replace(/\s+/g, ' ');
  if (name.length > MAX_NAME) throw new AccountError('invalid_input', `${what} must be at most ${MAX_NAME} characters`);
  return name === '' ? null : name;
}

export function requireName(input: unknown, what: string): string {
  const name = optionalName(input, what);
  if (!name) throw new AccountError('invalid_input', `${what} is required`);
  return name;
}

/** The password, or `weak_password` with the reason (zxcvbn's feedback), judged against the account's own words. */
export function requireNewPassword(password: unknown, context: PasswordContext = {}): string {
  const problem = passwordProblem(password, context);
  if (problem) throw new AccountError('weak_password', problem);
  return password as string;
}

/** The one answer to a taken address, whichever statement found it taken. */
export const emailTaken = () => new AccountError('email_taken', 'An account with this e-mail address already exists');

/** The names a user's password is judged against besides the address: their own and their operator's. */
export async function namesOfUser(
  db: Pick<PrismaClient, 'operator'>,
  user: { name: string | null; operatorId: string | null },
): Promise<string[]> {
  const operator = user.operatorId
    ? await db.operator.findUnique({ where: { id: user.operatorId }, select: { name: true } })
    : null;
  return [user.name, operator?.name].filter((name): name is string => !!name);
}
