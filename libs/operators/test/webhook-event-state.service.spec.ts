import { randomUUID } from 'node:crypto';
import { NO_WEBHOOK_URL_ERROR } from '@expedition/contracts';
import { activeOperator, useOperatorFixture } from './operator-fixture';

const f = useOperatorFixture();

/** A webhook_events row as fulfilment or the dispatcher leaves it, with its attempts' errors (null: a 2xx). */
async function insertEvent(
  operatorId: string,
  data: { status: 'pending' | 'delivered' | 'failed'; lastError: string | null },
  attemptErrors: (string | null)[] = [],
) {
  const eventId = `evt_${randomUUID()}`;
  const row = await f.db.prisma.webhookEvent.create({
    data: {
      eventId,
      type: 'policy.issued',
      operatorId,
      payload: { eventId, type: 'policy.issued', mode: 'test' },
      status: data.status,
      lastError: data.lastError,
      attempts: attemptErrors.length,
      createdAt: f.clock.now(),
      attemptsLog: {
        create: attemptErrors.map((error, i) => ({
          attemptNumber: i + 1,
          startedAt: f.clock.now(),
          durationMs: 0,
          statusCode: error === null ? 200 : error.startsWith('HTTP ') ? Number(error.slice(5)) : null,
          error,
        })),
      },
    },
  });
  f.clock.advance(1000);
  return row;
}

describe('webhook event state: not sent for lack of a webhook URL is not a failed delivery', () => {
  it('a sale without a URL is not_sent (status stays failed); a delivery that failed at the endpoint is failed', async () => {
    const op = await activeOperator(f);
    // As fulfilment writes it when the operator has no URL: failed, no attempt, the no-URL error.
    const noUrl = await insertEvent(op.id, { status: 'failed', lastError: NO_WEBHOOK_URL_ERROR });
    // The dispatcher found no URL at each attempt (the URL was removed while the event was queued).
    const noUrlRetried = await insertEvent(op.id, { status: 'failed', lastError: NO_WEBHOOK_URL_ERROR }, [
      NO_WEBHOOK_URL_ERROR,
      NO_WEBHOOK_URL_ERROR,
    ]);
    // Reached the endpoint (HTTP 500), then the URL was removed: it was sent, so it failed.
    const reached = await insertEvent(op.id, { status: 'failed', lastError: NO_WEBHOOK_URL_ERROR }, [
      'HTTP 500',
      NO_WEBHOOK_URL_ERROR,
    ]);
    const refused = await insertEvent(op.id, { status: 'failed', lastError: 'HTTP 503' }, ['HTTP 503']);
    const delivered = await insertEvent(op.id, { status: 'delivered', lastError: null }, [null]);

    const svc = f.services.webhookEvents;
    const all = await svc.listWebhookEvents(op.id);
    const stateOf = Object.fromEntries(all.events.map((e) => [e.id, [e.status, e.state]]));
    expect(stateOf).toEqual({
      [noUrl.id]: ['failed', 'not_sent'],
      [noUrlRetried.id]: ['failed', 'not_sent'],
      [reached.id]: ['failed', 'failed'],
      [refused.id]: ['failed', 'failed'],
      [delivered.id]: ['delivered', 'delivered'],
    });
    expect(all.events.find((e) => e.id === noUrl.id)).toMatchObject({ lastError: NO_WEBHOOK_URL_ERROR });

    const ids = async (query: Parameters<typeof svc.listWebhookEvents>[1]) =>
      (await svc.listWebhookEvents(op.id, query)).events.map((e) => e.id).sort();
    expect(await ids({ state: 'failed' })).toEqual([reached.id, refused.id].sort());
    expect(await ids({ state: 'not_sent' })).toEqual([noUrl.id, noUrlRetried.id].sort());
    // The stored status filter is unchanged (backward compatible): failed still lists every failed row.
    expect(await ids({ status: 'failed' })).toEqual([noUrl.id, noUrlRetried.id, reached.id, refused.id].sort());
    expect(await ids({ state: 'delivered' })).toEqual([delivered.id]);

    const detail = await svc.getWebhookEvent(op.id, noUrlRetried.eventId);
    expect(detail.event.state).toBe('not_sent');
    expect(detail.attempts.map((a) => a.error)).toEqual([NO_WEBHOOK_URL_ERROR, NO_WEBHOOK_URL_ERROR]);
    await expect(svc.listWebhookEvents(op.id, { state: 'lost' as never })).rejects.toMatchObject({
      code: 'invalid_input',
    });
  });

  it('a not-sent event cannot be resent without a URL; once the provider sets one it is resent (pending)', async () => {
    const op = await activeOperator(f);
    const event = await insertEvent(op.id, { status: 'failed', lastError: NO_WEBHOOK_URL_ERROR });
    const svc = f.services.webhookEvents;
    await expect(svc.resendWebhookEvent(op.id, event.id)).rejects.toMatchObject({ code: 'conflict' });
    await f.services.webhookSecrets.setWebhook(op.id, { url: 'https://hooks.ice.example/expedition' });
    const resent = await svc.resendWebhookEvent(op.id, event.id);
    expect(resent).toMatchObject({ status: 'pending', state: 'pending', attemptCount: 0, maxAttempts: 1 });
  });
});
