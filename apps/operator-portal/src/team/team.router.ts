import { Router } from 'express';
import { CreateInviteRequestSchema, type TeamInvite, type TeamMember } from '@expedition/contracts';
import type { PendingInvite, TeamMember as AccountTeamMember } from '@expedition/operators';
import type { AccountRouteDeps } from '../accounts/accounts.router';
import { throttle } from '../accounts/throttles';
import { actorOf, getOperatorId, getPrincipal } from '../http/principal';
import { parseBody } from '../http/validate';
import { messages } from '../mail/messages';

function toMember(m: AccountTeamMember): TeamMember {
  return { ...m, createdAt: m.createdAt.toISOString(), lastLoginAt: m.lastLoginAt?.toISOString() ?? null };
}

function toInvite(i: PendingInvite): TeamInvite {
  return { ...i, createdAt: i.createdAt.toISOString(), expiresAt: i.expiresAt.toISOString() };
}

/**
 * `/team/*`: the operator's users and pending invitations. Reading is for every user; changes are for owners. The
 * team service writes each change's audit entry in the change's own transaction (docs/portal-api.md, "Audit log").
 */
export function teamRouter(deps: AccountRouteDeps): Router {
  const { accounts, guards } = deps;
  const router = Router();

  router.get('/team', guards.requireOperatorUser, async (req, res) => {
    const team = await accounts.listTeam(getOperatorId(req));
    res.json({ members: team.members.map(toMember), invites: team.invites.map(toInvite) });
  });

  router.post('/team/invites', guards.requireOwner, async (req, res) => {
    const principal = getPrincipal(req);
    const operatorId = getOperatorId(req);
    const body = parseBody(CreateInviteRequestSchema, req.body);
    // Mail volume: per inviting user, and per operator (all its owners together) an hour and a day.
    await throttle([
      [deps.throttles.mailPerUser, principal.userId],
      [deps.throttles.invitesPerOperatorHour, operatorId],
      [deps.throttles.invitesPerOperatorDay, operatorId],
    ]);
    const { invite, token } = await accounts.createInvite(
      operatorId,
      body.email,
      body.role,
      principal.userId,
      actorOf(req),
    );
    deps.logger.info(
      {
        event: 'auth.invite.sent',
        userId: principal.userId,
        operatorId,
        inviteId: invite.id,
        role: invite.role,
        ip: req.ip,
        reqId: req.id,
      },
      'auth event',
    );
    await deps.mailer
      .send(messages.invite(invite.email, invite.role, `${deps.urls.portal}/accept-invite?token=${token}`))
      .catch((err: unknown) => deps.logger.error({ err: (err as Error).message }, 'invitation mail not sent'));
    res.status(201).json({ invite: toInvite(invite) });
  });

  router.delete('/team/invites/:id', guards.requireOwner, async (req, res) => {
    const id = String(req.params['id']);
    await accounts.revokeInvite(getOperatorId(req), id, actorOf(req));
    res.status(204).end();
  });

  router.delete('/team/members/:userId', guards.requireOwner, async (req, res) => {
    const userId = String(req.params['userId']);
    await accounts.removeMember(getOperatorId(req), userId, actorOf(req));
    res.status(204).end();
  });

  return router;
}
