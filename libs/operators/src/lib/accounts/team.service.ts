import { isUniqueViolation, type PrismaClient } from '@expedition/db';
import { isUuid } from '@expedition/platform';
import { type AuditActor, SYSTEM_ACTOR, writeAudit } from '../audit';
import {
  type AccountServiceDeps,
  type AccountUser,
  clockOf,
  emailTaken,
  normalizeEmail,
  optionalName,
  requireNewPassword,
  requireUser,
  toAccountUser,
} from './account-context';
import { refuseIfSuspended } from '../service-context';
import { AccountError } from './account-error';
import { hashPassword } from './passwords';
import { createUserTokens, invalidToken } from './user-tokens';

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

/**
 * An operator's team: its users and pending invitations. Owners invite, revoke invitations and remove members; each of
 * these changes writes its audit entry (`team.*`, docs/portal-api.md "Audit log") in the same transaction, so both
 * land or neither. `actor` is the portal user who made the change (default SYSTEM_ACTOR).
 */
export function createTeamService(deps: AccountServiceDeps) {
  const { prisma } = deps;
  const clock = clockOf(deps);
  const tokens = createUserTokens(deps);

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
  async function createInvite(
    operatorId: string,
    emailInput: unknown,
    roleInput: unknown,
    inviterUserId: string,
    actor: AuditActor = SYSTEM_ACTOR,
  ) {
    const inviter = await requireUser(prisma, inviterUserId);
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
    const role = roleInput;
    const existing = await prisma.operatorUser.findUnique({ where: { email } });
    if (existing?.operatorId === operatorId)
      throw new AccountError('already_member', `${email} is already a member of this team`);
    if (existing) throw new AccountError('email_taken', `${email} already has an account with another operator`);
    return prisma.$transaction(async (tx) => {
      await tx.userToken.updateMany({
        where: { operatorId, email, purpose: 'invite', usedAt: null },
        data: { usedAt: clock.now() },
      });
      const issued = await tokens.issueToken('invite', { email, operatorId, role }, tx);
      const invite: PendingInvite = { id: issued.id, email, role, createdAt: clock.now(), expiresAt: issued.expiresAt };
      await writeAudit(
        tx,
        actor,
        { operatorId, action: 'team.invite.create', targetType: 'invite', targetId: invite.id, after: { email, role } },
        clock.now(),
      );
      return { invite, token: issued.token };
    });
  }

  async function revokeInvite(operatorId: string, inviteId: string, actor: AuditActor = SYSTEM_ACTOR): Promise<void> {
    if (!isUuid(inviteId)) throw new AccountError('not_found', 'invitation not found');
    await prisma.$transaction(async (tx) => {
      const result = await tx.userToken.updateMany({
        where: { id: inviteId, operatorId, purpose: 'invite', usedAt: null },
        data: { usedAt: clock.now() },
      });
      if (result.count !== 1) throw new AccountError('not_found', 'invitation not found');
      await writeAudit(
        tx,
        actor,
        { operatorId, action: 'team.invite.revoke', targetType: 'invite', targetId: inviteId },
        clock.now(),
      );
    });
  }

  /**
   * Creates the invited user (verified: the link proved the address). Everything is checked before the token is spent,
   * and the claim and the new user land together: a refused password, a taken address or a suspended operator leaves
   * the link working.
   */
  async function acceptInvite(token: unknown, password: unknown, name?: unknown): Promise<AccountUser> {
    const displayName = optionalName(name);
    const row = await tokens.findUsableToken('invite', token);
    const operatorId = row.operatorId;
    const role = row.role;
    if (!operatorId || (role !== 'owner' && role !== 'member')) throw invalidToken();
    const operator = await prisma.operator.findUnique({ where: { id: operatorId }, select: { name: true } });
    if (!operator) throw invalidToken();
    const names = [displayName, operator.name];
    const passwordHash = await hashPassword(requireNewPassword(password, { email: row.email, names }));
    const now = clock.now();
    try {
      const user = await prisma.$transaction(async (tx) => {
        // A suspended operator is read-only (docs/portal.md, Suspension): no new user, and the link keeps working for
        // when it is reinstated. Read with a share lock, so a suspension committing meanwhile waits for this user.
        await requireActiveOperator(tx, operatorId);
        await tokens.claimToken(tx, row, now);
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
      if (isUniqueViolation(error)) throw emailTaken();
      throw error;
    }
  }

  /** Removes a user from the operator (their sessions end with them). The last owner cannot be removed. */
  async function removeMember(
    operatorId: string,
    userId: string,
    actor: AuditActor = SYSTEM_ACTOR,
  ): Promise<AccountUser> {
    const row = isUuid(userId) ? await prisma.operatorUser.findUnique({ where: { id: userId } }) : null;
    if (!row || row.operatorId !== operatorId) throw new AccountError('not_found', 'member not found');
    if (row.role === 'owner') {
      const owners = await prisma.operatorUser.count({ where: { operatorId, role: 'owner' } });
      if (owners <= 1)
        throw new AccountError('last_owner', 'The last owner cannot be removed; make someone else owner first');
    }
    await prisma.$transaction(async (tx) => {
      await tx.operatorUser.delete({ where: { id: row.id } });
      await writeAudit(
        tx,
        actor,
        {
          operatorId,
          action: 'team.member.remove',
          targetType: 'user',
          targetId: row.id,
          before: { email: row.email, role: row.role },
        },
        clock.now(),
      );
    });
    return toAccountUser(row);
  }

  return { listTeam, createInvite, revokeInvite, acceptInvite, removeMember };
}

/** Refuses (OperatorError `suspended`, 403 operator_suspended) unless the operator is active or pending. */
async function requireActiveOperator(tx: Pick<PrismaClient, '$queryRaw'>, operatorId: string): Promise<void> {
  const rows = await tx.$queryRaw<{ status: string }[]>`
    SELECT status::text AS status FROM operators WHERE id = ${operatorId} FOR SHARE`;
  if (rows[0]) refuseIfSuspended(rows[0]);
}
