import { isUniqueViolation } from '@expedition/db';
import { isUuid } from '@expedition/platform';
import {
  type AccountServiceDeps,
  type AccountUser,
  clockOf,
  emailTaken,
  normalizeEmail,
  requireNewPassword,
  toAccountUser,
} from './account-context';
import { AccountError } from './account-error';
import { generatePassword, hashPassword, verifyPassword } from './passwords';

/**
 * Accounts made outside the portal's own flows: provider admins (the admin CLI, the launcher's first admin) and the
 * demo operator's owner (launcher-logins.ts keeps their log-ins under DATA_DIR).
 */
export function createProvisioningService(deps: AccountServiceDeps) {
  const { prisma } = deps;
  const clock = clockOf(deps);

  /** A provider admin with a generated password (returned once) unless one is given. */
  async function createProviderAdmin(emailInput: unknown, passwordInput?: string) {
    const email = normalizeEmail(emailInput);
    const password = passwordInput === undefined ? generatePassword() : requireNewPassword(passwordInput, { email });
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
      if (isUniqueViolation(error)) throw emailTaken();
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

  return { createProviderAdmin, checkPassword, listProviderAdmins, ensureOwner };
}

export type ProvisioningService = ReturnType<typeof createProvisioningService>;
