import request from 'supertest';
import { createHmac } from 'node:crypto';
import {
  AuditListSchema,
  DAY_MS,
  DashboardResponseSchema,
  IntegrationResponseSchema,
  OriginTestResponseSchema,
  PortalOperatorResponseSchema,
  PublishableKeyListSchema,
  RotateKeyResponseSchema,
  WebhookEventDetailSchema,
  WebhookEventListSchema,
  isoDay,
  type Mode,
} from '@expedition/contracts';
import { createKeyResolver } from '@expedition/operators';
import {
  createOperatorWithUsers,
  createPortalHarness,
  createUser,
  WIDGET_URL,
  type PortalHarness,
  type TestUser,
} from './portal-test-harness';

const BASE = '/api/portal/v1';
let h: PortalHarness;
let a: Awaited<ReturnType<typeof createOperatorWithUsers>>;
let b: Awaited<ReturnType<typeof createOperatorWithUsers>>;
let admin: TestUser;

beforeAll(async () => {
  h = await createPortalHarness();
  a = await createOperatorWithUsers(h, 'Alpha Expeditions');
  b = await createOperatorWithUsers(h, 'Beta Voyages');
  admin = await createUser(h, 'provider_admin', null);
});
afterAll(async () => {
  await h?.close();
});

const as = (user: TestUser | null) => ({
  get: (path: string) => withUser(request(h.app).get(BASE + path), user),
  post: (path: string, body?: object) => withUser(request(h.app).post(BASE + path), user).send(body ?? {}),
  delete: (path: string) => withUser(request(h.app).delete(BASE + path), user),
});
function withUser(req: request.Test, user: TestUser | null) {
  return user ? req.set('X-Test-Principal', user.header) : req;
}

describe('authorization: 401 without a session, 403 for provider admins on operator routes', () => {
  const routes: [string, string][] = [
    ['get', '/operator'],
    ['get', '/operator/keys'],
    ['post', '/operator/keys'],
    ['get', '/operator/secret-keys'],
    ['get', '/operator/origins'],
    ['post', '/operator/origins/test'],
    ['get', '/operator/integration'],
    ['get', '/operator/webhook'],
    ['get', '/operator/webhook-events'],
    ['post', '/operator/webhook-events/test'],
    ['get', '/operator/dashboard'],
    ['get', '/operator/audit'],
  ];
  it.each(routes)('%s %s', async (method, path) => {
    const anon = await (as(null) as Record<string, (p: string) => request.Test>)[method]!(path);
    expect(anon.status).toBe(401);
    expect(anon.body.code).toBe('unauthorized');
    const adm = await (as(admin) as Record<string, (p: string) => request.Test>)[method]!(path);
    expect(adm.status).toBe(403);
    expect(adm.body.code).toBe('forbidden');
  });

  it.each([
    ['post', '/operator/secret-keys', { mode: 'test' }],
    ['post', '/operator/webhook/secret/reveal', {}],
  ])('a member gets 403 on owner-only %s %s', async (_m, path, body) => {
    const res = await as(a.member).post(path, body);
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'forbidden' });
  });
});

describe('GET /operator', () => {
  it('shows the own operator, read-only settings included', async () => {
    const res = await as(a.member).get('/operator');
    expect(res.status).toBe(200);
    const body = PortalOperatorResponseSchema.parse(res.body);
    expect(body.operator).toMatchObject({
      id: a.operator.id,
      name: 'Alpha Expeditions',
      embeddingEnabled: false,
      liveApproved: false,
      commissionRateBps: 1000,
      integrationTier: 1,
    });
  });
});

describe('publishable keys', () => {
  it('lists the own keys only, with the gate verdict', async () => {
    const res = await as(a.member).get('/operator/keys');
    expect(res.status).toBe(200);
    const { keys } = PublishableKeyListSchema.parse(res.body);
    expect(keys.map((k) => k.id)).toEqual([a.key.id]);
    expect(keys[0]).toMatchObject({ mode: 'test', accepted: true, refusal: null });
  });

  it('creates a live key that the gate refuses until embedding is enabled, and says why', async () => {
    const res = await as(a.member).post('/operator/keys', { mode: 'live', label: 'www' });
    expect(res.status).toBe(201);
    expect(res.body.key).toMatchObject({
      mode: 'live',
      label: 'www',
      state: 'active',
      accepted: false,
      refusal: 'embedding_disabled',
    });
    expect(res.body.key.key).toMatch(/^pk_op_[0-9a-f]{48}$/);
  });

  it('400 for an invalid body', async () => {
    const res = await as(a.member).post('/operator/keys', { mode: 'sandbox' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_request');
    expect(res.body.details[0].path).toBe('mode');
  });

  it("404 for another operator's key on rotate and revoke, and nothing changes", async () => {
    for (const action of ['rotate', 'revoke']) {
      const res = await as(a.owner).post(`/operator/keys/${b.key.id}/${action}`, { grace: 'now' });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('not_found');
    }
    expect((await h.operators.listKeys(b.operator.id))[0]!.state).toBe('active');
  });

  it('rotates with a 24 h grace: the old key keeps passing the gate until then (key resolver), and it is audited', async () => {
    const key = (await as(a.member).post('/operator/keys', { mode: 'test', label: 'rotate-me' })).body.key;
    const res = await as(a.member).post(`/operator/keys/${key.id}/rotate`, { grace: '24h' });
    expect(res.status).toBe(200);
    const rotated = RotateKeyResponseSchema.parse(res.body);
    expect(rotated.oldKey).toMatchObject({ id: key.id, state: 'expiring', accepted: true });
    expect(new Date(rotated.oldKey.expiresAt!).getTime()).toBe(h.clock.now().getTime() + 24 * 3600_000);
    expect(rotated.newKey).toMatchObject({ state: 'active', label: 'rotate-me', mode: 'test' });

    const resolver = createKeyResolver(h.db.prisma, { ttlMs: 0, clock: h.clock });
    expect(await resolver.resolve(key.key)).not.toBeNull();
    h.clock.advance(24 * 3600_000 - 1000);
    expect(await resolver.resolve(key.key)).not.toBeNull();
    h.clock.advance(1000);
    expect(await resolver.resolve(key.key)).toBeNull();
    expect(await resolver.resolve(rotated.newKey.key)).not.toBeNull();

    const audit = await h.db.prisma.auditEntry.findFirstOrThrow({
      where: { action: 'publishable_key.rotated', targetId: key.id },
    });
    expect(audit).toMatchObject({
      actorUserId: a.member.principal.userId,
      actorEmail: a.member.principal.email,
      actorRole: 'member',
      operatorId: a.operator.id,
    });
    expect(audit.before).toMatchObject({ state: 'active' });
    expect(audit.after).toMatchObject({ state: 'expiring', newKeyId: rotated.newKey.id });
  });

  it('rotates to a chosen date; refuses a past date (400) and a second rotation of the same key (409)', async () => {
    const key = (await as(a.member).post('/operator/keys', { mode: 'test' })).body.key;
    const past = await as(a.member).post(`/operator/keys/${key.id}/rotate`, {
      expiresAt: new Date(h.clock.now().getTime() - 1000).toISOString(),
    });
    expect(past.status).toBe(400);
    const at = new Date(h.clock.now().getTime() + 3 * DAY_MS).toISOString();
    const ok = await as(a.member).post(`/operator/keys/${key.id}/rotate`, { expiresAt: at });
    expect(ok.status).toBe(200);
    expect(ok.body.oldKey.expiresAt).toBe(at);
    const again = await as(a.member).post(`/operator/keys/${key.id}/rotate`, { grace: 'now' });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('conflict');
  });

  it('revokes at once (200) and the resolver refuses the key', async () => {
    const key = (await as(a.member).post('/operator/keys', { mode: 'test' })).body.key;
    const res = await as(a.member).post(`/operator/keys/${key.id}/revoke`);
    expect(res.status).toBe(200);
    expect(res.body.key).toMatchObject({ state: 'revoked', accepted: false, refusal: 'revoked' });
    expect(await createKeyResolver(h.db.prisma, { ttlMs: 0, clock: h.clock }).resolve(key.key)).toBeNull();
  });
});

describe('secret keys', () => {
  it('the owner mints one (shown once, no-store), lists prefixes, revokes; B cannot revoke it (404)', async () => {
    const res = await as(a.owner).post('/operator/secret-keys', { mode: 'live' });
    expect(res.status).toBe(201);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body.secretKey).toMatch(/^sk_op_/);
    const list = await as(a.member).get('/operator/secret-keys');
    expect(list.status).toBe(200);
    expect(JSON.stringify(list.body)).not.toContain(res.body.secretKey);
    expect(list.body.secretKeys.map((k: { id: string }) => k.id)).toContain(res.body.key.id);

    const other = await as(b.owner).post(`/operator/secret-keys/${res.body.key.id}/revoke`);
    expect(other.status).toBe(404);
    const member = await as(a.member).post(`/operator/secret-keys/${res.body.key.id}/revoke`);
    expect(member.status).toBe(403);
    const revoked = await as(a.owner).post(`/operator/secret-keys/${res.body.key.id}/revoke`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.key.revokedAt).not.toBeNull();
  });
});

describe('allowed origins', () => {
  it('adds a normalized origin (201), again is 200 added:false; www. and the bare domain are separate', async () => {
    const res = await as(a.member).post('/operator/origins', { origin: 'HTTPS://Tours.Alpha.example:443/' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      added: true,
      origin: { origin: 'https://tours.alpha.example', loopback: false, appliesTo: ['test', 'live'] },
    });
    const again = await as(a.member).post('/operator/origins', { origin: 'https://tours.alpha.example' });
    expect(again.status).toBe(200);
    expect(again.body.added).toBe(false);
    await as(a.member).post('/operator/origins', { origin: 'https://www.tours.alpha.example' });
    const list = await as(a.member).get('/operator/origins');
    expect(list.body.origins.map((o: { origin: string }) => o.origin)).toEqual([
      'https://tours.alpha.example',
      'https://www.tours.alpha.example',
    ]);
  });

  it.each([
    ['https://alpha.example/shop', /no path/],
    ['https://*.alpha.example', /Wildcards/],
    ['alpha.example', /not a URL/],
    ['ftp://alpha.example', /http and https/],
    ['null', /opaque/],
  ])('refuses %s with origin_invalid and a clear reason', async (origin, reason) => {
    const res = await as(a.member).post('/operator/origins', { origin });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('origin_invalid');
    expect(res.body.error).toMatch(reason);
  });

  it('lists a loopback origin as test-only', async () => {
    const res = await as(a.member).post('/operator/origins', { origin: 'http://localhost:8080' });
    expect(res.status).toBe(201);
    expect(res.body.origin).toMatchObject({ loopback: true, appliesTo: ['test'] });
  });

  it("DELETE removes (204); another operator's origin or an unlisted one is 404", async () => {
    await as(b.member).post('/operator/origins', { origin: 'https://beta.example' });
    const cross = await as(a.member).delete('/operator/origins?origin=' + encodeURIComponent('https://beta.example'));
    expect(cross.status).toBe(404);
    expect(await h.operators.listAllowedOrigins(b.operator.id)).toContain('https://beta.example');
    const ok = await as(b.member).delete('/operator/origins?origin=' + encodeURIComponent('https://beta.example'));
    expect(ok.status).toBe(204);
    expect(await h.operators.listAllowedOrigins(b.operator.id)).not.toContain('https://beta.example');
    const missing = await as(b.member).delete('/operator/origins');
    expect(missing.status).toBe(400);
  });

  it('the tester takes a page address and tests the origin it is served from', async () => {
    await as(a.member).post('/operator/origins', { origin: 'http://localhost:35500' });
    const res = await as(a.member).post('/operator/origins/test', {
      origin: 'http://localhost:35500/trip.html?day=3#map',
    });
    expect(res.status).toBe(200);
    const body = OriginTestResponseSchema.parse(res.body);
    expect(body).toMatchObject({ normalized: 'http://localhost:35500', valid: true, problem: null, listed: true });
    expect(body.results.find((r) => r.keyId === a.key.id)).toMatchObject({ accepted: true, reason: 'accepted' });
    await as(a.member).delete(`/operator/origins?origin=${encodeURIComponent('http://localhost:35500')}`);
  });

  it('the tester answers per key: listed origin accepted for the test key; live key refused until embedding; loopback test only', async () => {
    const res = await as(a.member).post('/operator/origins/test', { origin: 'https://tours.alpha.example/' });
    expect(res.status).toBe(200);
    const body = OriginTestResponseSchema.parse(res.body);
    expect(body).toMatchObject({ normalized: 'https://tours.alpha.example', valid: true, listed: true });
    expect(body.results.find((r) => r.keyId === a.key.id)).toMatchObject({ accepted: true, reason: 'accepted' });
    expect(body.results.find((r) => r.mode === 'live')).toMatchObject({
      accepted: false,
      reason: 'embedding_disabled',
    });

    await h.operators.setEmbeddingEnabled(a.operator.id, true);
    const local = OriginTestResponseSchema.parse(
      (await as(a.member).post('/operator/origins/test', { origin: 'http://localhost:8080' })).body,
    );
    expect(local.results.find((r) => r.keyId === a.key.id)!.reason).toBe('accepted');
    expect(local.results.find((r) => r.mode === 'live' && r.reason !== 'key_revoked')!.reason).toBe(
      'loopback_test_only',
    );
    const unlisted = OriginTestResponseSchema.parse(
      (await as(a.member).post('/operator/origins/test', { origin: 'https://evil.example' })).body,
    );
    expect(unlisted.results.every((r) => !r.accepted)).toBe(true);
    const invalid = OriginTestResponseSchema.parse(
      (await as(a.member).post('/operator/origins/test', { origin: 'ftp://x.example/path' })).body,
    );
    expect(invalid).toMatchObject({ valid: false, normalized: null });
    expect(invalid.problem).toMatch(/http and https/);
    const withCredentials = OriginTestResponseSchema.parse(
      (await as(a.member).post('/operator/origins/test', { origin: 'https://u:p@x.example/' })).body,
    );
    expect(withCredentials).toMatchObject({ valid: false, normalized: null });
    // The gate applies the same rule: the live key's resolved origins leave the loopback entry out.
    const resolver = createKeyResolver(h.db.prisma, { ttlMs: 0, clock: h.clock });
    const liveKey = (await h.operators.listKeys(a.operator.id)).find((k) => k.mode === 'live' && k.state === 'active')!;
    expect((await resolver.resolve(liveKey.key))!.allowedOrigins).not.toContain('http://localhost:8080');
    expect((await resolver.resolve(liveKey.key))!.allowedOrigins).toContain('https://tours.alpha.example');
    expect((await resolver.resolve(a.key.key))!.allowedOrigins).toContain('http://localhost:8080');
    await h.operators.setEmbeddingEnabled(a.operator.id, false);
  });
});

describe('GET /operator/integration', () => {
  it('fills in the test key before approval, the live key after; tier, CSP and verification snippets', async () => {
    const before = IntegrationResponseSchema.parse((await as(b.member).get('/operator/integration')).body);
    expect(before).toMatchObject({ widgetUrl: WIDGET_URL, publishableKey: b.key.key, mode: 'test', allowedTier: 1 });
    expect(before.snippets.tier1).toContain(`${WIDGET_URL}/quote?pk=${b.key.key}`);
    expect(before.snippets.tier3).toContain(`<script src="${WIDGET_URL}/widget.js"></script>`);
    expect(before.snippets.tier3).toContain(
      `SvcWidget.mount('#svc-insurance', { publishableKey: '${b.key.key}', tier: 3 });`,
    );
    expect(before.snippets.tier2).toContain("SvcWidget.on('quote.selected'");
    expect(before.snippets.csp).toBe('script-src http://localhost:3003; frame-src http://localhost:3003');
    expect(before.snippets.webhookVerification).toContain('X-SVC-Signature');

    const live = await h.operators.mintPublishableKey(b.operator.id, 'live');
    await h.operators.setEmbeddingEnabled(b.operator.id, true);
    const after = IntegrationResponseSchema.parse((await as(b.member).get('/operator/integration')).body);
    expect(after).toMatchObject({ publishableKey: live.key, mode: 'live' });
    await h.operators.setEmbeddingEnabled(b.operator.id, false);
  });

  it('the verification snippet accepts a body signed with either secret and refuses a tampered one', async () => {
    const { webhookVerification } = IntegrationResponseSchema.parse(
      (await as(b.member).get('/operator/integration')).body,
    ).snippets;
    const verifySource = webhookVerification.slice(
      webhookVerification.indexOf('function verify'),
      webhookVerification.indexOf('const app'),
    );
    const verify = new Function('crypto', 'SECRETS', 'TOLERANCE_SEC', `${verifySource}; return verify;`)(
      require('node:crypto'),
      ['whsec_new', 'whsec_old'],
      300,
    ) as (body: Buffer, header: string) => boolean;
    const body = Buffer.from('{"eventId":"evt_1"}');
    const t = Math.floor(Date.now() / 1000);
    const sig = (s: string, b: Buffer) => createHmac('sha256', s).update(`${t}.`).update(b).digest('hex');
    expect(verify(body, `t=${t},v1=${sig('whsec_old', body)}`)).toBe(true);
    expect(verify(body, `t=${t},v1=${sig('whsec_other', body)},v1=${sig('whsec_new', body)}`)).toBe(true);
    expect(verify(Buffer.from('{"eventId":"evt_2"}'), `t=${t},v1=${sig('whsec_new', body)}`)).toBe(false);
    expect(verify(body, `t=${t - 3600},v1=${sig('whsec_new', body)}`)).toBe(false);
  });
});

describe('webhook settings, secret reveal, delivery log', () => {
  let secret: string;
  beforeAll(async () => {
    await h.operators.setWebhookUrl(a.operator.id, 'https://hooks.alpha.example/expedition');
    secret = (await h.operators.rotateWebhookSecret(a.operator.id, { overlapHours: 0 })).secret;
  });

  it('GET /operator/webhook shows URL, commission and the retry rules, never the secret', async () => {
    const res = await as(a.member).get('/operator/webhook');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      url: 'https://hooks.alpha.example/expedition',
      commissionRateBps: 1000,
      secretSet: true,
      previousSecretExpiresAt: null,
      maxAttempts: 3,
      retryScheduleSeconds: [30, 300],
    });
    expect(JSON.stringify(res.body)).not.toContain(secret);
  });

  it('the owner reveals the secret (audited, no-store); both secrets during an overlap', async () => {
    const res = await as(a.owner).post('/operator/webhook/secret/reveal');
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body.secrets).toEqual([{ secret, current: true, expiresAt: null }]);
    const entry = await h.db.prisma.auditEntry.findFirstOrThrow({
      where: { action: 'operator.webhook_secret_revealed', operatorId: a.operator.id },
    });
    expect(entry.actorUserId).toBe(a.owner.principal.userId);
    expect(JSON.stringify(entry)).not.toContain(secret);

    const next = await h.operators.rotateWebhookSecret(a.operator.id, { overlapHours: 24 });
    const both = await as(a.owner).post('/operator/webhook/secret/reveal');
    expect(both.body.secrets.map((s: { secret: string }) => s.secret)).toEqual([next.secret, secret]);
    expect(both.body.secrets[1].expiresAt).toBe(next.previousSecretExpiresAt!.toISOString());
    expect((await as(a.member).get('/operator/webhook')).body.previousSecretExpiresAt).toBe(
      next.previousSecretExpiresAt!.toISOString(),
    );
  });

  it('test event: 201, marked, listed; detail and resend of another operator are 404', async () => {
    const res = await as(a.member).post('/operator/webhook-events/test');
    expect(res.status).toBe(201);
    expect(res.body.event).toMatchObject({
      isTest: true,
      status: 'pending',
      mode: 'test',
      attemptCount: 0,
      maxAttempts: 3,
    });
    expect(res.body.event.eventId).toMatch(/^evt_test_/);

    const list = WebhookEventListSchema.parse((await as(a.member).get('/operator/webhook-events')).body);
    expect(list.events[0]!.eventId).toBe(res.body.event.eventId);
    const detail = await as(a.member).get(`/operator/webhook-events/${res.body.event.id}`);
    expect(detail.status).toBe(200);
    expect(WebhookEventDetailSchema.parse(detail.body).payload).toMatchObject({
      test: true,
      eventId: res.body.event.eventId,
    });
    const byEventId = await as(a.member).get(`/operator/webhook-events/${res.body.event.eventId}`);
    expect(byEventId.status).toBe(200);

    expect((await as(b.member).get(`/operator/webhook-events/${res.body.event.id}`)).status).toBe(404);
    expect((await as(b.member).post(`/operator/webhook-events/${res.body.event.id}/resend`)).status).toBe(404);
    expect((await as(b.member).get('/operator/webhook-events')).body.events).toEqual([]);
  });

  it('test event without a webhook URL: 409', async () => {
    const res = await as(b.member).post('/operator/webhook-events/test');
    expect(res.status).toBe(409);
  });

  it('resend: 409 while pending; 202 for a failed event (same eventId, one more attempt)', async () => {
    const row = await h.db.prisma.webhookEvent.create({
      data: {
        eventId: `evt_${crypto.randomUUID()}`,
        type: 'policy.issued',
        operatorId: a.operator.id,
        payload: { eventId: 'x', mode: 'live' },
        status: 'pending',
        nextAttemptAt: h.clock.now(),
        createdAt: h.clock.now(),
      },
    });
    expect((await as(a.member).post(`/operator/webhook-events/${row.id}/resend`)).status).toBe(409);
    await h.db.prisma.webhookEvent.update({
      where: { id: row.id },
      data: { status: 'failed', attempts: 3, lastError: 'HTTP 500' },
    });
    const res = await as(a.member).post(`/operator/webhook-events/${row.id}/resend`);
    expect(res.status).toBe(202);
    expect(res.body.event).toMatchObject({ eventId: row.eventId, status: 'pending', attemptCount: 3, maxAttempts: 4 });
    const entry = await h.db.prisma.auditEntry.findFirstOrThrow({
      where: { action: 'webhook_event.resent', targetId: row.eventId },
    });
    expect(entry.before).toMatchObject({ status: 'failed', maxAttempts: 3 });
    expect(entry.after).toMatchObject({ status: 'pending', maxAttempts: 4 });
  });

  it('filters by status and pages with a cursor', async () => {
    for (let i = 0; i < 3; i++) {
      h.clock.advance(1000);
      await h.operators.sendTestWebhookEvent(a.operator.id);
    }
    const page1 = WebhookEventListSchema.parse((await as(a.member).get('/operator/webhook-events?limit=2')).body);
    expect(page1.events).toHaveLength(2);
    expect(page1.nextCursor).not.toBeNull();
    const page2 = WebhookEventListSchema.parse(
      (await as(a.member).get(`/operator/webhook-events?limit=2&cursor=${page1.nextCursor}`)).body,
    );
    expect(page2.events[0]!.createdAt <= page1.events[1]!.createdAt).toBe(true);
    expect(page2.events.map((e) => e.id)).not.toContain(page1.events[0]!.id);
    const delivered = await as(a.member).get('/operator/webhook-events?status=delivered');
    expect(delivered.body.events).toEqual([]);
    expect((await as(a.member).get('/operator/webhook-events?status=lost')).status).toBe(400);
    expect((await as(a.member).get('/operator/webhook-events?cursor=nonsense')).status).toBe(400);
  });
});

describe('GET /operator/dashboard', () => {
  it("shows whether each recent policy's confirmation e-mail was sent (sent, pending, failed, no address; null before mails existed)", async () => {
    const d = await createOperatorWithUsers(h, 'Delta Mails');
    for (let i = 0; i < 5; i++) await seedSale(d.operator.id, 'test', h.clock.now(), 10_000 + i, 1000, true);
    const policies = await h.db.prisma.policy.findMany({
      where: { operatorId: d.operator.id },
      orderBy: { premiumCents: 'asc' },
    });
    const statuses = ['sent', 'pending', 'failed', 'no_address'] as const;
    for (const [i, status] of statuses.entries()) {
      await h.db.prisma.policyMail.create({
        data: {
          policyId: policies[i]!.id,
          kind: 'confirmation',
          status,
          recipient: status === 'no_address' ? null : 'buyer@example.test',
        },
      });
    }

    const body = DashboardResponseSchema.parse((await as(d.member).get('/operator/dashboard')).body);

    const byPremium = Object.fromEntries(body.recentPolicies.map((p) => [p.premiumCents, p.confirmationEmail]));
    expect(byPremium).toEqual({
      10_000: 'sent',
      10_001: 'pending',
      10_002: 'failed',
      10_003: 'no_address',
      10_004: null,
    });
    expect(JSON.stringify(body)).not.toContain('buyer@example.test');
  });

  it('aggregates quotes, purchases, premium and commission by day, test and live apart; test events are not sales', async () => {
    const c = await createOperatorWithUsers(h, 'Gamma Dashboard');
    const day = (offset: number) => new Date(h.clock.now().getTime() - offset * DAY_MS);
    await seedSale(c.operator.id, 'test', day(0), 10_000, 1000, true);
    await seedSale(c.operator.id, 'test', day(0), 20_000, 1000, false);
    await seedSale(c.operator.id, 'live', day(2), 50_000, 1200, true);
    await seedSale(c.operator.id, 'live', day(40), 99_000, 1200, true); // outside 30 days
    await seedSale(b.operator.id, 'live', day(0), 77_000, 1000, true); // another operator
    await h.operators.setWebhookUrl(c.operator.id, 'https://hooks.gamma.example/x');
    await h.operators.sendTestWebhookEvent(c.operator.id);

    const res = await as(c.member).get('/operator/dashboard?days=30');
    expect(res.status).toBe(200);
    const body = DashboardResponseSchema.parse(res.body);
    expect(body.days).toHaveLength(60);
    expect(body.totals.test).toEqual({ quotes: 2, purchases: 1, premiumCents: 10_000, commissionCents: 1_000 });
    expect(body.totals.live).toEqual({ quotes: 1, purchases: 1, premiumCents: 50_000, commissionCents: 6_000 });
    expect(body.conversion).toEqual({ test: 0.5, live: 1 });
    const today = isoDay(h.clock.now());
    expect(body.to).toBe(today);
    expect(body.days.find((d) => d.day === today && d.mode === 'test')).toMatchObject({ quotes: 2, purchases: 1 });
    expect(body.recentPolicies.map((p) => p.premiumCents).sort()).toEqual([10_000, 50_000, 99_000]);
    expect(body.recentPolicies.find((p) => p.premiumCents === 50_000)).toMatchObject({
      mode: 'live',
      commissionCents: 6_000,
    });

    expect((await as(c.member).get('/operator/dashboard?days=0')).status).toBe(400);
  });
});

describe('GET /operator/audit', () => {
  it("shows this operator's entries only, newest first", async () => {
    const res = await as(a.member).get('/operator/audit');
    expect(res.status).toBe(200);
    const body = AuditListSchema.parse(res.body);
    expect(body.entries.length).toBeGreaterThan(3);
    expect(body.entries.every((e) => e.operatorId === a.operator.id)).toBe(true);
    expect(body.entries.map((e) => e.action)).toContain('origin.added');
    const times = body.entries.map((e) => e.at);
    expect([...times].sort().reverse()).toEqual(times);
  });
});

let seq = 0;
async function seedSale(
  operatorId: string,
  mode: Mode,
  at: Date,
  premiumCents: number,
  rateBps: number,
  purchased: boolean,
) {
  seq += 1;
  const prisma = h.db.prisma;
  const plan = await prisma.plan.findFirstOrThrow();
  const quote = await prisma.quote.create({
    data: {
      quoteNumber: `EXP-T${seq}${Date.now() % 100000}`,
      sessionIdHash: `hash-${seq}-${Math.random()}`,
      source: 'embed',
      operatorId,
      mode,
      status: purchased ? 'purchased' : 'quoted',
      destinationSlug: 'antarctica',
      durationDays: 14,
      tripCostCents: 1_000_000,
      travelers: 2,
      residence: 'US',
      createdAt: at,
    },
  });
  if (!purchased) return;
  const purchase = await prisma.purchase.create({
    data: {
      quoteId: quote.id,
      planId: plan.id,
      processorPaymentId: `pi_${seq}_${Math.random()}`,
      amountCents: premiumCents,
      channel: 'embed',
      mode,
      operatorId,
      createdAt: at,
    },
  });
  const policy = await prisma.policy.create({
    data: {
      policyNumber: `POL-T-${seq}-${Math.random()}`,
      purchaseId: purchase.id,
      quoteId: quote.id,
      planId: plan.id,
      operatorId,
      mode,
      travelers: 2,
      premiumCents,
      issuedAt: at,
    },
  });
  await prisma.commission.create({
    data: {
      policyId: policy.id,
      operatorId,
      rateBps,
      premiumCents,
      commissionCents: Math.floor((premiumCents * rateBps) / 10_000),
      createdAt: at,
    },
  });
}
