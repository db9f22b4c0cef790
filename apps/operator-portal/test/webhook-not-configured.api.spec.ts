import { randomUUID } from 'node:crypto';
import {
  NO_WEBHOOK_URL_ERROR,
  PortalWebhookSchema,
  WebhookEventDetailSchema,
  WebhookEventListSchema,
  WebhookEventResponseSchema,
} from '@expedition/contracts';
import { API, h, providerAdmin, signUp, usePortalHarness } from './harness';

/**
 * A self-signed-up operator before the provider has set its webhook URL (docs/contract.md: the provider sets it;
 * docs/portal-api.md, "No webhook URL yet"): the settings say so, a test event is refused, and a sale's event is
 * "not sent", not a failed delivery.
 */
usePortalHarness();

/** The outbox row fulfilment writes for a sale of an operator without a URL (apps/webhook-dispatcher/README.md). */
async function saleWithoutUrl(operatorId: string) {
  const eventId = `evt_${randomUUID()}`;
  return h.prisma.webhookEvent.create({
    data: {
      eventId,
      type: 'policy.issued',
      operatorId,
      payload: { eventId, type: 'policy.issued', mode: 'test', policyNumber: 'POL-NOURL-1', premiumCents: 48_900 },
      status: 'failed',
      attempts: 0,
      lastError: NO_WEBHOOK_URL_ERROR,
      createdAt: h.clock.now(),
    },
  });
}

describe('an operator without a webhook URL (the provider has not set it yet)', () => {
  it('GET /operator/webhook answers url null and no secret; the operator view agrees', async () => {
    const { client } = await signUp(h);
    const webhook = PortalWebhookSchema.parse((await client.get(`${API}/operator/webhook`)).body);
    expect(webhook).toMatchObject({ url: null, secretSet: false, previousSecretExpiresAt: null, maxAttempts: 3 });
    const operator = await client.get(`${API}/operator`);
    expect(operator.body.operator).toMatchObject({ webhookUrl: null, webhookSecretSet: false });
  });

  it('a test event is 409 conflict saying the provider sets the URL; nothing is queued or audited', async () => {
    const { client, operator } = await signUp(h);
    const res = await client.post(`${API}/operator/webhook-events/test`);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'conflict', error: expect.stringMatching(/no webhook URL.*provider/i) });
    expect(await h.prisma.webhookEvent.count({ where: { operatorId: operator.id } })).toBe(0);
    expect(
      await h.prisma.auditEntry.count({ where: { operatorId: operator.id, action: 'webhook_event.test_sent' } }),
    ).toBe(0);
  });

  it('a sale’s event is state not_sent (status failed, as before), and left out of the failed ones', async () => {
    const { client, operator } = await signUp(h);
    const sale = await saleWithoutUrl(operator.id);
    const list = WebhookEventListSchema.parse((await client.get(`${API}/operator/webhook-events`)).body);
    expect(list.events).toHaveLength(1);
    expect(list.events[0]).toMatchObject({
      eventId: sale.eventId,
      status: 'failed',
      state: 'not_sent',
      attemptCount: 0,
      lastError: NO_WEBHOOK_URL_ERROR,
      policyNumber: 'POL-NOURL-1',
    });

    const byState = async (query: string) =>
      (await client.get(`${API}/operator/webhook-events?${query}`)).body.events.map((e: { id: string }) => e.id);
    expect(await byState('state=failed')).toEqual([]);
    expect(await byState('state=not_sent')).toEqual([sale.id]);
    expect(await byState('status=failed')).toEqual([sale.id]);
    expect((await client.get(`${API}/operator/webhook-events?state=lost`)).status).toBe(400);

    const detail = WebhookEventDetailSchema.parse(
      (await client.get(`${API}/operator/webhook-events/${sale.eventId}`)).body,
    );
    expect(detail).toMatchObject({ event: { state: 'not_sent' }, attempts: [] });
    // Nothing to resend to until the provider sets a URL.
    expect((await client.post(`${API}/operator/webhook-events/${sale.id}/resend`)).status).toBe(409);

    // The provider's view of the operator's log reads the same.
    const admin = await providerAdmin(h);
    const adminList = await admin.client.get(`${API}/admin/operators/${operator.id}/webhook-events?state=not_sent`);
    expect(adminList.body.events.map((e: { id: string; state: string }) => [e.id, e.state])).toEqual([
      [sale.id, 'not_sent'],
    ]);
  });

  it('once the provider sets the URL: the not-sent event is resent (pending) and a test event is queued', async () => {
    const { client, operator } = await signUp(h);
    const sale = await saleWithoutUrl(operator.id);
    await h.operators.setWebhookUrl(operator.id, 'https://hooks.polar.example/expedition');
    expect((await client.get(`${API}/operator/webhook`)).body.url).toBe('https://hooks.polar.example/expedition');

    const resent = await client.post(`${API}/operator/webhook-events/${sale.id}/resend`);
    expect(resent.status).toBe(202);
    expect(WebhookEventResponseSchema.parse(resent.body).event).toMatchObject({
      status: 'pending',
      state: 'pending',
      maxAttempts: 1,
    });
    const test = await client.post(`${API}/operator/webhook-events/test`);
    expect(test.status).toBe(201);
    expect(WebhookEventResponseSchema.parse(test.body).event).toMatchObject({ isTest: true, state: 'pending' });
  });
});
