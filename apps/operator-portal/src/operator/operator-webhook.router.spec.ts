import { WebhookEventDetailSchema, WebhookEventListSchema } from '@expedition/contracts';
import { useRouterSuite } from './portal-test-harness';

const suite = useRouterSuite();
const { as } = suite;
let { h, a, b } = suite;
beforeAll(() => ({ h, a, b } = suite));

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
