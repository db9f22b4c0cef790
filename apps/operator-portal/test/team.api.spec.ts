import request from 'supertest';
import { createPortalThrottles, PORTAL_THROTTLE_LIMITS } from '../src/accounts/throttles';
import {
  addMember,
  API,
  createPortalHarness,
  GOOD_PASSWORD,
  h,
  logIn,
  PortalClient,
  providerAdmin,
  signUp,
  uniqueEmail,
  usePortalHarness,
} from './harness';

usePortalHarness();

describe('team', () => {
  it('GET /team lists members and pending invitations; 401 without a session', async () => {
    const { client, email } = await signUp(h);
    const invitee = uniqueEmail('invitee');
    const invited = await client.post(`${API}/team/invites`, { email: invitee, role: 'member' });
    expect(invited.status).toBe(201);
    expect(invited.body.invite).toEqual({
      id: expect.any(String),
      email: invitee,
      role: 'member',
      createdAt: expect.any(String),
      expiresAt: new Date(h.clock.now().getTime() + 7 * 24 * 3600_000).toISOString(),
    });
    const team = await client.get(`${API}/team`);
    expect(team.status).toBe(200);
    expect(team.body.members.map((m: { email: string }) => m.email)).toEqual([email]);
    expect(team.body.invites.map((i: { email: string }) => i.email)).toEqual([invitee]);
    expect((await request(h.app).get(`${API}/team`)).status).toBe(401);
  });

  it('the invitation mail leads to accept: 201, the user joins with the role, logged in and verified', async () => {
    const { client, operator } = await signUp(h);
    const member = await addMember(h, client, 'member');
    expect(member.user).toMatchObject({ role: 'member', operatorId: operator.id, emailVerified: true });
    const session = await member.client.get(`${API}/auth/session`);
    expect(session.body.operator.id).toBe(operator.id);
    const team = await client.get(`${API}/team`);
    expect(team.body.members).toHaveLength(2);
    expect(team.body.invites).toHaveLength(0);
  });

  it('an invitation works once and expires after 7 days', async () => {
    const { client: first, email: ownerEmail } = await signUp(h);
    const email = uniqueEmail('late');
    await first.post(`${API}/team/invites`, { email, role: 'member' });
    const token = h.mailer.lastToken(email, 'accept-invite');
    h.clock.advance(7 * 24 * 3600_000);
    const client = await logIn(h, ownerEmail);
    const late = await new PortalClient(h.app).post(`${API}/auth/invites/accept`, { token, password: GOOD_PASSWORD });
    expect(late.status).toBe(400);
    expect(late.body.code).toBe('invalid_token');

    const email2 = uniqueEmail('twice');
    await client.post(`${API}/team/invites`, { email: email2, role: 'owner' });
    const token2 = h.mailer.lastToken(email2, 'accept-invite');
    expect(
      (await new PortalClient(h.app).post(`${API}/auth/invites/accept`, { token: token2, password: GOOD_PASSWORD }))
        .status,
    ).toBe(201);
    expect(
      (await new PortalClient(h.app).post(`${API}/auth/invites/accept`, { token: token2, password: GOOD_PASSWORD }))
        .status,
    ).toBe(400);
  });

  it('accepting with a weak password: 400 weak_password', async () => {
    const { client } = await signUp(h);
    const email = uniqueEmail('weak');
    await client.post(`${API}/team/invites`, { email, role: 'member' });
    const res = await new PortalClient(h.app).post(`${API}/auth/invites/accept`, {
      token: h.mailer.lastToken(email, 'accept-invite'),
      password: 'short',
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('weak_password');
  });

  it('409 for a current member (already_member) or a user of another operator (email_taken); 400 for a bad role', async () => {
    const a = await signUp(h);
    const b = await signUp(h);
    const self = await a.client.post(`${API}/team/invites`, { email: a.email, role: 'member' });
    expect(self.status).toBe(409);
    expect(self.body.code).toBe('already_member');
    const other = await a.client.post(`${API}/team/invites`, { email: b.email, role: 'member' });
    expect(other.status).toBe(409);
    expect(other.body.code).toBe('email_taken');
    const bad = await a.client.post(`${API}/team/invites`, { email: uniqueEmail(), role: 'provider_admin' });
    expect(bad.status).toBe(400);
  });

  it('members may read the team but not change it (403); owners may', async () => {
    const { client: owner } = await signUp(h);
    const member = await addMember(h, owner, 'member');
    expect((await member.client.get(`${API}/team`)).status).toBe(200);
    const invite = await member.client.post(`${API}/team/invites`, { email: uniqueEmail(), role: 'member' });
    expect(invite.status).toBe(403);
    expect(invite.body.code).toBe('forbidden');
    const ownerInvite = await owner.post(`${API}/team/invites`, { email: uniqueEmail(), role: 'member' });
    expect((await member.client.delete(`${API}/team/invites/${ownerInvite.body.invite.id}`)).status).toBe(403);
    expect((await member.client.delete(`${API}/team/members/${member.user.id}`)).status).toBe(403);
  });

  it('DELETE /team/invites/:id: 204, then 404; another operator’s invitation is 404', async () => {
    const a = await signUp(h);
    const b = await signUp(h);
    const invite = (await a.client.post(`${API}/team/invites`, { email: uniqueEmail(), role: 'member' })).body.invite;
    expect((await b.client.delete(`${API}/team/invites/${invite.id}`)).status).toBe(404);
    expect((await a.client.delete(`${API}/team/invites/${invite.id}`)).status).toBe(204);
    expect((await a.client.delete(`${API}/team/invites/${invite.id}`)).status).toBe(404);
    expect((await a.client.delete(`${API}/team/invites/not-a-uuid`)).status).toBe(404);
  });

  it('DELETE /team/members/:userId: 204 and their sessions end; another operator’s user is 404; the last owner is 409', async () => {
    const a = await signUp(h);
    const b = await signUp(h);
    const member = await addMember(h, a.client, 'member');
    expect((await b.client.delete(`${API}/team/members/${member.user.id}`)).status).toBe(404);
    expect((await a.client.delete(`${API}/team/members/${member.user.id}`)).status).toBe(204);
    expect((await member.client.get(`${API}/auth/session`)).status).toBe(401);
    const last = await a.client.delete(`${API}/team/members/${a.user.id}`);
    expect(last.status).toBe(409);
    expect(last.body.code).toBe('last_owner');
  });

  it('team changes are audited', async () => {
    const a = await signUp(h);
    await a.client.post(`${API}/team/invites`, { email: uniqueEmail(), role: 'member' });
    const entries = await h.prisma.auditEntry.findMany({ where: { operatorId: a.operator.id } });
    expect(entries.map((e) => e.action)).toContain('team.invite.create');
    expect(entries.find((e) => e.action === 'team.invite.create')).toMatchObject({
      actorEmail: a.email,
      actorRole: 'owner',
    });
  });

  it('each team change writes exactly one audit entry: the acting owner, the client address, before → after', async () => {
    const a = await signUp(h);
    const member = await addMember(h, a.client, 'member');
    h.clock.advance(1000);
    const invite = (await a.client.post(`${API}/team/invites`, { email: uniqueEmail(), role: 'owner' })).body.invite;
    h.clock.advance(1000);
    expect((await a.client.delete(`${API}/team/invites/${invite.id}`)).status).toBe(204);
    h.clock.advance(1000);
    expect((await a.client.delete(`${API}/team/members/${member.user.id}`)).status).toBe(204);
    // Refused changes write nothing.
    expect((await a.client.delete(`${API}/team/invites/${invite.id}`)).status).toBe(404);
    expect((await a.client.delete(`${API}/team/members/${a.user.id}`)).status).toBe(409);

    const entries = await h.prisma.auditEntry.findMany({
      where: { operatorId: a.operator.id, action: { startsWith: 'team.' } },
      orderBy: { at: 'asc' },
    });
    expect(entries.map((e) => [e.action, e.targetType, e.targetId, e.before, e.after])).toEqual([
      ['team.invite.create', 'invite', expect.any(String), null, { email: member.email, role: 'member' }],
      ['team.invite.create', 'invite', invite.id, null, { email: invite.email, role: 'owner' }],
      ['team.invite.revoke', 'invite', invite.id, null, null],
      ['team.member.remove', 'user', member.user.id, { email: member.email, role: 'member' }, null],
    ]);
    for (const entry of entries) {
      expect(entry).toMatchObject({ actorUserId: a.user.id, actorEmail: a.email, actorRole: 'owner' });
      expect(entry.ip).toEqual(expect.any(String));
    }
  });

  it('a team change that fails after its audit insert leaves neither the change nor the audit entry', async () => {
    const a = await signUp(h);
    const member = await addMember(h, a.client, 'member');
    const invite = (await a.client.post(`${API}/team/invites`, { email: uniqueEmail(), role: 'member' })).body.invite;
    const audited = () => h.prisma.auditEntry.count({ where: { operatorId: a.operator.id } });
    const before = await audited();
    // The next transaction runs in full (the change, then its audit entry) and then fails, as a commit can.
    const failOnce = () =>
      jest.spyOn(h.prisma, '$transaction').mockImplementationOnce((async (run: (tx: unknown) => Promise<unknown>) =>
        h.prisma.$transaction(async (tx) => {
          await run(tx);
          throw new Error('the transaction failed after the audit insert');
        })) as never);

    failOnce();
    expect((await a.client.delete(`${API}/team/members/${member.user.id}`)).status).toBe(500);
    failOnce();
    expect((await a.client.delete(`${API}/team/invites/${invite.id}`)).status).toBe(500);
    failOnce();
    const email = uniqueEmail('rolled-back');
    expect((await a.client.post(`${API}/team/invites`, { email, role: 'member' })).status).toBe(500);
    jest.restoreAllMocks();

    expect(await audited()).toBe(before);
    expect(await h.prisma.operatorUser.findUnique({ where: { id: member.user.id } })).not.toBeNull();
    expect((await h.prisma.userToken.findUniqueOrThrow({ where: { id: invite.id } })).usedAt).toBeNull();
    expect(await h.prisma.userToken.count({ where: { email } })).toBe(0);
  });

  it('a provider admin has no team (403)', async () => {
    const admin = await providerAdmin(h);
    expect((await admin.client.get(`${API}/team`)).status).toBe(403);
  });

  it('accepting with a password the account refuses (it contains the address) leaves the invitation usable', async () => {
    const { client } = await signUp(h);
    const email = uniqueEmail('keep');
    await client.post(`${API}/team/invites`, { email, role: 'member' });
    const token = h.mailer.lastToken(email, 'accept-invite');
    const refused = await new PortalClient(h.app).post(`${API}/auth/invites/accept`, {
      token,
      password: `${email}-2026`,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('weak_password');
    const breached = await new PortalClient(h.app).post(`${API}/auth/invites/accept`, {
      token,
      password: 'iloveyou123456',
    });
    expect(breached.body.code).toBe('weak_password');
    expect(
      (await new PortalClient(h.app).post(`${API}/auth/invites/accept`, { token, password: GOOD_PASSWORD })).status,
    ).toBe(201);
  });
});

describe('invitations cannot be used for phishing (issue 20 item 1)', () => {
  const PHISH = 'ACTION REQUIRED: your account is locked, unlock at https://evil.example/unlock or evil.example/unlock';

  it('an unverified owner cannot invite: 403 email_unverified, nothing stored, no mail', async () => {
    const { client, operator } = await signUp(h, { verified: false, operatorName: PHISH });
    const before = h.mailer.sent.length;
    const res = await client.post(`${API}/team/invites`, { email: uniqueEmail('victim'), role: 'owner' });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('email_unverified');
    expect(h.mailer.sent.length).toBe(before);
    expect(await h.prisma.userToken.count({ where: { operatorId: operator.id, purpose: 'invite' } })).toBe(0);
  });

  it('the invitation mail never carries operator-chosen text: no operator name, no inviter, nothing clickable but our link', async () => {
    const inviterEmail = `evil.example.unlock-${Date.now()}@example.com`;
    const { client } = await signUp(h, { operatorName: PHISH, email: inviterEmail });
    await h.prisma.operatorUser.update({
      where: { email: inviterEmail },
      data: { name: 'Security team, visit evil.example/unlock' },
    });
    const victim = uniqueEmail('victim');
    expect((await client.post(`${API}/team/invites`, { email: victim, role: 'owner' })).status).toBe(201);
    const mail = h.mailer.sent.filter((m) => m.to === victim).at(-1)!;
    expect(mail.subject).toBe('You are invited to a team on the Expedition Insurance operator portal');
    for (const text of [mail.subject, mail.text]) {
      expect(text).not.toContain('ACTION REQUIRED');
      expect(text).not.toContain('evil');
      expect(text).not.toContain(inviterEmail);
    }
    // Anything a mail client would auto-link: a URL, or a bare host name followed by a path.
    const urls = mail.text.match(/\b(?:https?:\/\/)?[a-z0-9-]+(?:\.[a-z0-9-]+)+(?::\d+)?\/\S*/gi) ?? [];
    expect(urls).toHaveLength(1);
    expect(urls[0]).toMatch(/^http:\/\/portal\.test:3004\/accept-invite\?token=/);
  });

  it('mail volume per operator is bounded: 20 invitations an hour across its owners, then 429 with Retry-After', async () => {
    const limited = await createPortalHarness({ db: h.db, throttles: createPortalThrottles() });
    const a = await signUp(limited);
    const b = await addMember(limited, a.client, 'owner');
    const c = await addMember(limited, a.client, 'owner');
    const invite = (owner: PortalClient) =>
      owner.post(`${API}/team/invites`, { email: uniqueEmail('bulk'), role: 'member' });
    const perUser = PORTAL_THROTTLE_LIMITS.mailPerUser.points;
    for (let i = 2; i < perUser; i++) expect((await invite(a.client)).status).toBe(201);
    for (let i = 0; i < PORTAL_THROTTLE_LIMITS.invitesPerOperatorHour.points - perUser; i++)
      expect((await invite(b.client)).status).toBe(201);
    const refused = await invite(c.client);
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('rate_limited');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(await limited.prisma.userToken.count({ where: { operatorId: a.operator.id, purpose: 'invite' } })).toBe(
      PORTAL_THROTTLE_LIMITS.invitesPerOperatorHour.points,
    );
  });
});
