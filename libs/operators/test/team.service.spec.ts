import type { AuditActor } from '../src/lib/audit';
import { PASSWORD, useAccountFixture } from './account-fixture';

const f = useAccountFixture();
let counter = 0;

/** A new operator with a verified owner, and the audit actor of that owner. */
async function ownerOfNewOperator() {
  counter += 1;
  const signedUp = await f.services.identity.signUp({
    email: `team-owner-${counter}@example.com`,
    password: PASSWORD,
    operatorName: `Team Co ${counter}`,
  });
  await f.db.prisma.operatorUser.update({ where: { id: signedUp.user.id }, data: { emailVerifiedAt: f.clock.now() } });
  const actor: AuditActor = { userId: signedUp.user.id, email: signedUp.user.email, role: 'owner', ip: '203.0.113.7' };
  return { operatorId: signedUp.operator.id, owner: signedUp.user, actor };
}

const teamAudit = (operatorId: string) =>
  f.db.prisma.auditEntry.findMany({ where: { operatorId, action: { startsWith: 'team.' } }, orderBy: { at: 'asc' } });

describe('team', () => {
  it('an invitation replaces the pending one to the same address; the team lists members and pending invitations', async () => {
    const { operatorId, owner, actor } = await ownerOfNewOperator();
    const first = await f.services.team.createInvite(operatorId, 'New@Example.com', 'member', owner.id, actor);
    const second = await f.services.team.createInvite(operatorId, 'new@example.com', 'owner', owner.id, actor);
    expect(second.invite).toMatchObject({ email: 'new@example.com', role: 'owner' });
    const team = await f.services.team.listTeam(operatorId);
    expect(team.members.map((m) => m.id)).toEqual([owner.id]);
    expect(team.invites.map((i) => i.id)).toEqual([second.invite.id]);
    const replaced = await f.db.prisma.userToken.findUniqueOrThrow({ where: { id: first.invite.id } });
    expect(replaced.usedAt).not.toBeNull();
  });

  it('only a verified owner of the operator invites', async () => {
    const { operatorId, owner, actor } = await ownerOfNewOperator();
    const other = await ownerOfNewOperator();
    await expect(
      f.services.team.createInvite(other.operatorId, 'x@example.com', 'member', owner.id, actor),
    ).rejects.toMatchObject({ code: 'not_found' });
    await f.db.prisma.operatorUser.update({ where: { id: owner.id }, data: { emailVerifiedAt: null } });
    await expect(
      f.services.team.createInvite(operatorId, 'x@example.com', 'member', owner.id, actor),
    ).rejects.toMatchObject({ code: 'email_unverified' });
    expect(await teamAudit(operatorId)).toEqual([]);
  });

  it('each change writes exactly one audit entry with its actor; a refused change writes none', async () => {
    const { operatorId, owner, actor } = await ownerOfNewOperator();
    const { invite, token } = await f.services.team.createInvite(
      operatorId,
      'm@example.com',
      'member',
      owner.id,
      actor,
    );
    const member = await f.services.team.acceptInvite(token, PASSWORD, 'Member');
    f.clock.advance(1000);
    const pending = await f.services.team.createInvite(operatorId, 'p@example.com', 'owner', owner.id, actor);
    f.clock.advance(1000);
    await f.services.team.revokeInvite(operatorId, pending.invite.id, actor);
    f.clock.advance(1000);
    await f.services.team.removeMember(operatorId, member.id, actor);
    await expect(f.services.team.revokeInvite(operatorId, pending.invite.id, actor)).rejects.toMatchObject({
      code: 'not_found',
    });
    await expect(f.services.team.removeMember(operatorId, owner.id, actor)).rejects.toMatchObject({
      code: 'last_owner',
    });

    const entries = await teamAudit(operatorId);
    expect(entries.map((e) => [e.action, e.targetType, e.targetId, e.before, e.after])).toEqual([
      ['team.invite.create', 'invite', invite.id, null, { email: 'm@example.com', role: 'member' }],
      ['team.invite.create', 'invite', pending.invite.id, null, { email: 'p@example.com', role: 'owner' }],
      ['team.invite.revoke', 'invite', pending.invite.id, null, null],
      ['team.member.remove', 'user', member.id, { email: 'm@example.com', role: 'member' }, null],
    ]);
    for (const entry of entries) {
      expect(entry).toMatchObject({ actorUserId: owner.id, actorEmail: owner.email, actorRole: 'owner' });
      expect(entry.ip).toBe('203.0.113.7');
    }
  });

  it('a change whose transaction fails after the audit insert leaves neither the change nor its audit entry', async () => {
    const { operatorId, owner, actor } = await ownerOfNewOperator();
    const { token } = await f.services.team.createInvite(operatorId, 'stay@example.com', 'member', owner.id, actor);
    const member = await f.services.team.acceptInvite(token, PASSWORD);
    const pending = await f.services.team.createInvite(operatorId, 'keep@example.com', 'member', owner.id, actor);
    const before = await teamAudit(operatorId);
    const prisma = f.db.prisma;
    const failOnce = () =>
      jest.spyOn(prisma, '$transaction').mockImplementationOnce((async (run: (tx: unknown) => Promise<unknown>) =>
        prisma.$transaction(async (tx) => {
          await run(tx);
          throw new Error('the transaction failed after the audit insert');
        })) as never);

    failOnce();
    await expect(f.services.team.removeMember(operatorId, member.id, actor)).rejects.toThrow(/after the audit/);
    failOnce();
    await expect(f.services.team.revokeInvite(operatorId, pending.invite.id, actor)).rejects.toThrow(/after the audit/);
    failOnce();
    await expect(
      f.services.team.createInvite(operatorId, 'gone@example.com', 'member', owner.id, actor),
    ).rejects.toThrow(/after the audit/);
    jest.restoreAllMocks();

    expect(await teamAudit(operatorId)).toEqual(before);
    expect(await prisma.operatorUser.findUnique({ where: { id: member.id } })).not.toBeNull();
    expect((await prisma.userToken.findUniqueOrThrow({ where: { id: pending.invite.id } })).usedAt).toBeNull();
    expect(await prisma.userToken.count({ where: { email: 'gone@example.com' } })).toBe(0);
  });
});
