import request from 'supertest';
import { AdminOperatorDetailSchema, AdminOperatorListSchema, AuditListSchema } from '@expedition/contracts';
import { createKeyResolver } from '@expedition/operators';
import {
  createOperatorWithUsers,
  createPortalHarness,
  createUser,
  type PortalHarness,
  type TestUser,
} from '../operator/portal-test-harness';

const BASE = '/api/portal/v1';
let h: PortalHarness;
let a: Awaited<ReturnType<typeof createOperatorWithUsers>>;
let admin: TestUser;

beforeAll(async () => {
  h = await createPortalHarness();
  a = await createOperatorWithUsers(h, 'Arctic Admin Tours');
  admin = await createUser(h, 'provider_admin', null);
});
afterAll(async () => {
  await h?.close();
});

const call = (user: TestUser | null, method: 'get' | 'post' | 'patch' | 'put', path: string, body?: object) => {
  const req = request(h.app)[method](BASE + path);
  if (user) req.set('X-Test-Principal', user.header);
  return method === 'get' ? req : req.send(body ?? {});
};

describe('authorization', () => {
  const routes = (id: string): ['get' | 'post' | 'patch' | 'put', string, object?][] => [
    ['get', '/admin/operators'],
    ['get', `/admin/operators/${id}`],
    ['patch', `/admin/operators/${id}`, { embeddingEnabled: true }],
    ['put', `/admin/operators/${id}/webhook`, { url: 'https://x.example/h' }],
    ['post', `/admin/operators/${id}/webhook/secret`, { overlapHours: 0 }],
    ['get', `/admin/operators/${id}/webhook-events`],
    ['post', `/admin/operators/${id}/webhook-events/evt_x/resend`],
    ['get', '/admin/audit'],
  ];
  it('401 without a session, 403 for an owner and a member, and nothing changes', async () => {
    for (const [method, path, body] of routes(a.operator.id)) {
      expect((await call(null, method, path, body)).status).toBe(401);
      for (const user of [a.owner, a.member]) {
        const res = await call(user, method, path, body);
        expect(res.status).toBe(403);
        expect(res.body.code).toBe('forbidden');
      }
    }
    expect(await h.operators.getOperator(a.operator.id)).toMatchObject({ embeddingEnabled: false, webhookUrl: null });
  });

  it('404 for an unknown or malformed operator id', async () => {
    expect((await call(admin, 'get', '/admin/operators/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await call(admin, 'get', '/admin/operators/nope')).status).toBe(404);
    expect(
      (await call(admin, 'patch', '/admin/operators/00000000-0000-4000-8000-000000000000', { status: 'active' }))
        .status,
    ).toBe(404);
  });
});

describe('search and open', () => {
  it('finds operators by name, by a user e-mail, and opens one with keys, origins and users', async () => {
    const byName = AdminOperatorListSchema.parse((await call(admin, 'get', '/admin/operators?q=arctic%20admin')).body);
    expect(byName.operators.map((o) => o.id)).toEqual([a.operator.id]);
    const byEmail = AdminOperatorListSchema.parse(
      (await call(admin, 'get', `/admin/operators?q=${encodeURIComponent(a.owner.principal.email)}`)).body,
    );
    expect(byEmail.operators.map((o) => o.id)).toEqual([a.operator.id]);
    const none = AdminOperatorListSchema.parse((await call(admin, 'get', '/admin/operators?q=zzzz-nothing')).body);
    expect(none.operators).toEqual([]);
    const detail = AdminOperatorDetailSchema.parse(
      (await call(admin, 'get', `/admin/operators/${a.operator.id}`)).body,
    );
    expect(detail.keys.map((k) => k.id)).toEqual([a.key.id]);
    expect(detail.users.map((u) => u.role).sort()).toEqual(['member', 'owner']);
  });
});

describe('onboarding changes, each audited with before → after', () => {
  it('enables embedding: the live key starts passing the gate', async () => {
    const live = await h.operators.mintPublishableKey(a.operator.id, 'live');
    const resolver = createKeyResolver(h.db.prisma, { ttlMs: 0, clock: h.clock });
    expect(await resolver.resolve(live.key)).toBeNull();
    const res = await call(admin, 'patch', `/admin/operators/${a.operator.id}`, {
      embeddingEnabled: true,
      integrationTier: 3,
    });
    expect(res.status).toBe(200);
    expect(res.body.operator).toMatchObject({ embeddingEnabled: true, liveApproved: true, integrationTier: 3 });
    expect(await resolver.resolve(live.key)).not.toBeNull();
    const entry = await h.db.prisma.auditEntry.findFirstOrThrow({
      where: { action: 'operator.embedding_changed', operatorId: a.operator.id },
    });
    expect(entry).toMatchObject({
      actorUserId: admin.principal.userId,
      actorRole: 'provider_admin',
      before: { embeddingEnabled: false },
      after: { embeddingEnabled: true },
    });
  });

  it('400 for a tier out of range, commission out of range, an empty patch or an unknown field', async () => {
    for (const body of [
      { integrationTier: 4 },
      { commissionRateBps: 10_001 },
      { commissionRateBps: -1 },
      {},
      { webhookUrl: 'x' },
    ]) {
      const res = await call(admin, 'patch', `/admin/operators/${a.operator.id}`, body);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('invalid_request');
    }
  });

  it('commission: applies to later sales only; past commission rows are never rewritten', async () => {
    const prisma = h.db.prisma;
    const plan = await prisma.plan.findFirstOrThrow();
    const quote = await prisma.quote.create({
      data: {
        quoteNumber: 'EXP-ADMIN1',
        sessionIdHash: 'admin-hash-1',
        source: 'embed',
        operatorId: a.operator.id,
        destinationSlug: 'antarctica',
        durationDays: 10,
        tripCostCents: 500_000,
        travelers: 1,
        residence: 'US',
      },
    });
    const purchase = await prisma.purchase.create({
      data: {
        quoteId: quote.id,
        planId: plan.id,
        processorPaymentId: 'pi_admin_1',
        amountCents: 40_000,
        channel: 'embed',
        mode: 'test',
        operatorId: a.operator.id,
      },
    });
    const policy = await prisma.policy.create({
      data: {
        policyNumber: 'POL-ADMIN-1',
        purchaseId: purchase.id,
        quoteId: quote.id,
        planId: plan.id,
        operatorId: a.operator.id,
        travelers: 1,
        premiumCents: 40_000,
      },
    });
    await prisma.commission.create({
      data: {
        policyId: policy.id,
        operatorId: a.operator.id,
        rateBps: 1000,
        premiumCents: 40_000,
        commissionCents: 4_000,
      },
    });

    const res = await call(admin, 'patch', `/admin/operators/${a.operator.id}`, { commissionRateBps: 1500 });
    expect(res.status).toBe(200);
    expect(res.body.operator.commissionRateBps).toBe(1500);
    expect(await prisma.commission.findUniqueOrThrow({ where: { policyId: policy.id } })).toMatchObject({
      rateBps: 1000,
      commissionCents: 4_000,
    });
    const entry = await prisma.auditEntry.findFirstOrThrow({
      where: { action: 'operator.commission_changed', operatorId: a.operator.id },
    });
    expect(entry).toMatchObject({ before: { commissionRateBps: 1000 }, after: { commissionRateBps: 1500 } });
  });

  it('sets the webhook URL (https; http only to loopback), then generates and rotates the secret with overlap', async () => {
    expect(
      (await call(admin, 'put', `/admin/operators/${a.operator.id}/webhook`, { url: 'http://hooks.example/x' })).status,
    ).toBe(400);
    const put = await call(admin, 'put', `/admin/operators/${a.operator.id}/webhook`, {
      url: 'https://hooks.arctic.example/expedition',
    });
    expect(put.status).toBe(200);
    expect(put.body.operator).toMatchObject({
      webhookUrl: 'https://hooks.arctic.example/expedition',
      webhookSecretSet: false,
    });

    const first = await call(admin, 'post', `/admin/operators/${a.operator.id}/webhook/secret`, { overlapHours: 0 });
    expect(first.status).toBe(201);
    expect(first.headers['cache-control']).toBe('no-store');
    expect(first.body.secret).toMatch(/^whsec_[0-9a-f]{64}$/);
    expect(first.body.previousSecretExpiresAt).toBeNull();

    const second = await call(admin, 'post', `/admin/operators/${a.operator.id}/webhook/secret`, { overlapHours: 48 });
    expect(second.status).toBe(201);
    expect(second.body.previousSecretExpiresAt).toBe(new Date(h.clock.now().getTime() + 48 * 3600_000).toISOString());
    expect(second.body.operator.previousSecretExpiresAt).toBe(second.body.previousSecretExpiresAt);
    const revealed = await h.operators.revealWebhookSecrets(a.operator.id);
    expect(revealed.map((s) => s.secret)).toEqual([second.body.secret, first.body.secret]);

    expect(
      (await call(admin, 'post', `/admin/operators/${a.operator.id}/webhook/secret`, { overlapHours: 169 })).status,
    ).toBe(400);
    const row = await h.db.prisma.operator.findUniqueOrThrow({ where: { id: a.operator.id } });
    expect(row.webhookSecret).not.toContain(second.body.secret);
    expect(row.webhookSecretPrevious).not.toContain(first.body.secret);
    const entries = await h.db.prisma.auditEntry.findMany({
      where: { action: 'operator.webhook_secret_rotated', operatorId: a.operator.id },
    });
    expect(entries).toHaveLength(3 - 1);
    expect(JSON.stringify(entries)).not.toContain('whsec_');
  });

  it("sees any operator's delivery log and resends (202)", async () => {
    const row = await h.db.prisma.webhookEvent.create({
      data: {
        eventId: `evt_${crypto.randomUUID()}`,
        type: 'policy.issued',
        operatorId: a.operator.id,
        payload: { eventId: 'x' },
        status: 'failed',
        attempts: 3,
        nextAttemptAt: h.clock.now(),
      },
    });
    const list = await call(admin, 'get', `/admin/operators/${a.operator.id}/webhook-events`);
    expect(list.status).toBe(200);
    expect(list.body.events.map((e: { id: string }) => e.id)).toContain(row.id);
    const resent = await call(admin, 'post', `/admin/operators/${a.operator.id}/webhook-events/${row.eventId}/resend`);
    expect(resent.status).toBe(202);
    expect(resent.body.event).toMatchObject({ status: 'pending', maxAttempts: 4 });
    const other = await createOperatorWithUsers(h);
    expect(
      (await call(admin, 'post', `/admin/operators/${other.operator.id}/webhook-events/${row.eventId}/resend`)).status,
    ).toBe(404);
  });

  it('refuses a webhook URL to a private, loopback or metadata host under production rules (400, nothing stored)', async () => {
    const before = await h.db.prisma.operator.findUniqueOrThrow({ where: { id: a.operator.id } });
    for (const url of [
      'http://169.254.169.254/latest/meta-data',
      'https://10.0.0.1/h',
      'http://0x7f000001/',
      'https://metadata.google.internal/',
    ]) {
      const res = await call(admin, 'put', `/admin/operators/${a.operator.id}/webhook`, { url });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(/public internet host/);
    }
    expect((await h.db.prisma.operator.findUniqueOrThrow({ where: { id: a.operator.id } })).webhookUrl).toBe(
      before.webhookUrl,
    );
  });

  it('shows the provider the recorded delivery error in full, the operator a generic connection failure', async () => {
    const detail = 'address refused: hooks.evil.example resolves to 10.0.0.5: private address refused';
    const row = await h.db.prisma.webhookEvent.create({
      data: {
        eventId: `evt_${crypto.randomUUID()}`,
        type: 'policy.issued',
        operatorId: a.operator.id,
        payload: { eventId: 'x' },
        status: 'failed',
        attempts: 1,
        maxAttempts: 1,
        nextAttemptAt: h.clock.now(),
        lastError: detail,
        attemptsLog: {
          create: { attemptNumber: 1, startedAt: h.clock.now(), durationMs: 0, statusCode: null, error: detail },
        },
      },
    });

    const provider = await call(admin, 'get', `/admin/operators/${a.operator.id}/webhook-events/${row.eventId}`);
    expect(provider.body.event.lastError).toBe(detail);
    expect(provider.body.attempts[0].error).toBe(detail);
    const operator = await call(a.member, 'get', `/operator/webhook-events/${row.eventId}`);
    expect(operator.status).toBe(200);
    expect(operator.body.event.lastError).toBe('could not connect to the webhook URL');
    expect(operator.body.attempts[0].error).toBe('could not connect to the webhook URL');
    const list = await call(a.member, 'get', '/operator/webhook-events');
    expect(JSON.stringify(list.body)).not.toContain('10.0.0.5');
  });

  it('deactivates an operator: its keys stop passing the gate', async () => {
    const res = await call(admin, 'patch', `/admin/operators/${a.operator.id}`, { status: 'suspended' });
    expect(res.status).toBe(200);
    expect(res.body.operator.status).toBe('suspended');
    expect(await createKeyResolver(h.db.prisma, { ttlMs: 0, clock: h.clock }).resolve(a.key.key)).toBeNull();
  });

  it('reads the audit log, filtered by operator', async () => {
    const res = await call(admin, 'get', `/admin/audit?operatorId=${a.operator.id}`);
    expect(res.status).toBe(200);
    const body = AuditListSchema.parse(res.body);
    expect(body.entries.every((e) => e.operatorId === a.operator.id)).toBe(true);
    expect(body.entries.map((e) => e.action)).toEqual(
      expect.arrayContaining([
        'operator.status_changed',
        'operator.tier_changed',
        'operator.webhook_url_changed',
        'webhook_event.resent',
      ]),
    );
    const all = AuditListSchema.parse((await call(admin, 'get', '/admin/audit?limit=1')).body);
    expect(all.entries).toHaveLength(1);
    expect(all.nextCursor).not.toBeNull();
  });

  it('names the operator of every audit entry, not only its id', async () => {
    const other = await createOperatorWithUsers(h, 'Baltic Sea Kayaks');
    await h.operators.setCommissionRate(other.operator.id, 1200, { email: 'cli', role: 'cli' });
    const body = AuditListSchema.parse((await call(admin, 'get', '/admin/audit?limit=200')).body);
    const named = new Map(body.entries.map((e) => [e.operatorId, e.operatorName]));
    expect(named.get(a.operator.id)).toBe('Arctic Admin Tours');
    expect(named.get(other.operator.id)).toBe('Baltic Sea Kayaks');
  });
});
