import { createMetrics } from '@expedition/observability';
import { seriesValue } from '@expedition/observability/testing';
import { sampleOutbox } from '../src/delivery/outbox-metrics';
import { createHarness, createOperator, enqueueWebhook, startReceiver, testWorker, type Harness, type Receiver } from './harness';

let h: Harness;
let receiver: Receiver;
beforeAll(async () => {
  h = await createHarness();
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
  await h.close();
});
beforeEach(async () => {
  await h.prisma.webhookEvent.deleteMany({});
  receiver.requests.length = 0;
});

const STORED = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

describe('policy.issued delivery and the sale\'s trace', () => {
  it('sends the traceparent stored on the outbox row (even when this process does not trace), none when untraced', async () => {
    receiver.setReply(() => 200);
    const operator = await createOperator(h.prisma, { webhookUrl: receiver.url });
    const traced = await enqueueWebhook(h.prisma, operator.id, h.clock.now());
    await h.prisma.webhookEvent.update({ where: { id: traced.id }, data: { traceParent: STORED } });
    const untraced = await enqueueWebhook(h.prisma, operator.id, h.clock.now());

    expect(await testWorker(h.prisma, h.clock).runOnce()).toBe(2);

    const byEvent = new Map(receiver.requests.map((r) => [r.eventId, r.headers]));
    expect(byEvent.get(traced.eventId)?.['traceparent']).toBe(STORED);
    expect(byEvent.get(untraced.eventId)).toBeDefined();
    expect(byEvent.get(untraced.eventId)?.['traceparent']).toBeUndefined();
  });
});

describe('dispatcher metrics', () => {
  it('counts delivery attempts by outcome', async () => {
    const metrics = createMetrics({ service: 'webhook-dispatcher', defaultMetrics: false });
    receiver.setReply((n) => (n === 1 ? 500 : 200));
    const operator = await createOperator(h.prisma, { webhookUrl: receiver.url });
    await enqueueWebhook(h.prisma, operator.id, h.clock.now());
    const worker = testWorker(h.prisma, h.clock, { metrics, retryDelaysMs: [1_000, 1_000] });

    await worker.runOnce();
    h.clock.advance(1_000);
    await worker.runOnce();

    const text = await metrics.registry.metrics();
    expect(seriesValue(text, 'webhook_delivery_attempts_total', { outcome: 'retry' })).toBe(1);
    expect(seriesValue(text, 'webhook_delivery_attempts_total', { outcome: 'delivered' })).toBe(1);
  });

  it('samples outbox depth and the oldest pending row\'s age from the database', async () => {
    const operator = await createOperator(h.prisma, { webhookUrl: receiver.url });
    const now = h.clock.now();
    expect(await sampleOutbox(h.prisma, () => now)).toEqual({ depth: 0, oldestPendingAgeSec: 0 });
    await enqueueWebhook(h.prisma, operator.id, new Date(now.getTime() - 90_000));
    await enqueueWebhook(h.prisma, operator.id, new Date(now.getTime() - 10_000));
    const delivered = await enqueueWebhook(h.prisma, operator.id, new Date(now.getTime() - 500_000));
    await h.prisma.webhookEvent.update({ where: { id: delivered.id }, data: { status: 'delivered' } });

    expect(await sampleOutbox(h.prisma, () => now)).toEqual({ depth: 2, oldestPendingAgeSec: 90 });
  });
});
