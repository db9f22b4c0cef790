import { NO_WEBHOOK_SECRET_ERROR, NO_WEBHOOK_URL_ERROR } from '@expedition/contracts';
import {
  OPERATOR_CONNECTION_ERROR,
  TEST_EVENT_ID_PREFIX,
  operatorDeliveryError,
} from '../src/lib/webhook-event.service';
import { activeOperator, expectOperatorError, useOperatorFixture } from './operator-fixture';

const f = useOperatorFixture();

describe('operatorDeliveryError', () => {
  it.each([
    ['HTTP 503', 'HTTP 503'],
    ['timeout after 10000 ms', 'timeout after 10000 ms'],
    [NO_WEBHOOK_URL_ERROR, NO_WEBHOOK_URL_ERROR],
    [NO_WEBHOOK_SECRET_ERROR, NO_WEBHOOK_SECRET_ERROR],
    ['webhook secret cannot be decrypted: unknown key "k1"', 'webhook secret cannot be decrypted'],
    ['connect ECONNREFUSED 10.0.0.7:443', OPERATOR_CONNECTION_ERROR],
    ['refused: private address 192.168.1.1', OPERATOR_CONNECTION_ERROR],
  ])('shows an operator %j as %j', (recorded, shown) => {
    expect(operatorDeliveryError(recorded)).toBe(shown);
  });
});

describe('webhook events', () => {
  it('a test event is queued like a real one (pending, due now), marked test, and audited; none without a URL', async () => {
    const op = await activeOperator(f);
    await expectOperatorError(f.services.webhookEvents.sendTestWebhookEvent(op.id), 'conflict', /No webhook URL/);
    await f.services.webhookSecrets.setWebhook(op.id, { url: 'https://hooks.ice.example/expedition' });

    const event = await f.services.webhookEvents.sendTestWebhookEvent(op.id);
    expect(event).toMatchObject({ status: 'pending', isTest: true, mode: 'test', attemptCount: 0 });
    expect(event.eventId.startsWith(TEST_EVENT_ID_PREFIX)).toBe(true);
    expect(event.nextAttemptAt).toEqual(f.clock.now());
    const detail = await f.services.webhookEvents.getWebhookEvent(op.id, event.eventId);
    expect(detail.payload).toMatchObject({ test: true, operatorId: op.id, type: 'policy.issued' });
    const audited = await f.db.prisma.auditEntry.count({
      where: { action: 'webhook_event.test_sent', targetId: event.eventId },
    });
    expect(audited).toBe(1);
  });

  it('lists newest first; another operator’s event is not_found; a pending event cannot be resent', async () => {
    const op = await activeOperator(f);
    const other = await activeOperator(f, 'Other Tours');
    await f.services.webhookSecrets.setWebhook(op.id, { url: 'https://hooks.ice.example/expedition' });
    const first = await f.services.webhookEvents.sendTestWebhookEvent(op.id);
    f.clock.advance(1000);
    const second = await f.services.webhookEvents.sendTestWebhookEvent(op.id);

    const listed = await f.services.webhookEvents.listWebhookEvents(op.id, { status: 'pending' });
    expect(listed.events.map((e) => e.id)).toEqual([second.id, first.id]);
    await expectOperatorError(f.services.webhookEvents.getWebhookEvent(other.id, first.id), 'not_found');
    await expectOperatorError(f.services.webhookEvents.resendWebhookEvent(op.id, first.id), 'conflict', /still/);
  });

  it('a failed event is resent once more: same eventId, pending, maxAttempts = attempts + 1, audited', async () => {
    const op = await activeOperator(f);
    await f.services.webhookSecrets.setWebhook(op.id, { url: 'https://hooks.ice.example/expedition' });
    const event = await f.services.webhookEvents.sendTestWebhookEvent(op.id);
    await f.db.prisma.webhookEvent.update({
      where: { id: event.id },
      data: { status: 'failed', attempts: 3, lastError: 'connect ECONNREFUSED 10.0.0.7:443' },
    });
    expect((await f.services.webhookEvents.getWebhookEvent(op.id, event.id, 'provider')).event.lastError).toBe(
      'connect ECONNREFUSED 10.0.0.7:443',
    );
    expect((await f.services.webhookEvents.getWebhookEvent(op.id, event.id)).event.lastError).toBe(
      OPERATOR_CONNECTION_ERROR,
    );

    const resent = await f.services.webhookEvents.resendWebhookEvent(op.id, event.eventId);
    expect(resent).toMatchObject({ eventId: event.eventId, status: 'pending', attemptCount: 3, maxAttempts: 4 });
    const entry = await f.db.prisma.auditEntry.findFirstOrThrow({ where: { action: 'webhook_event.resent' } });
    expect(entry).toMatchObject({ targetId: event.eventId, before: { status: 'failed', attempts: 3, maxAttempts: 3 } });
  });
});
