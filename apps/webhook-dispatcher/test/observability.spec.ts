import request from 'supertest';
import { createMetrics } from '@expedition/observability';
import { seriesValue } from '@expedition/observability/testing';
import { createApp } from '../src/app';
import { PAYMENT_WITHOUT_POLICY_GRACE_MS, sampleBacklog } from '../src/delivery/outbox-metrics';
import { appDeps, testWorker } from './harness';
import { intentEvent, registerAsOurs, signEvent } from './processor-events';
import { createOperator, createQuote, enqueueWebhook } from './fixtures';
import { h, receiver, useReceiverHarness } from './receiver-harness';

useReceiverHarness();
beforeEach(async () => {
  await h.prisma.webhookEvent.deleteMany({});
  receiver.requests.length = 0;
});

const STORED = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

describe("policy.issued delivery and the sale's trace", () => {
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
    expect(seriesValue(text, 'webhook_delivery_attempts_total', { outcome: 'retry', operator: operator.id })).toBe(1);
    expect(seriesValue(text, 'webhook_delivery_attempts_total', { outcome: 'delivered', operator: operator.id })).toBe(
      1,
    );
  });

  it("samples outbox depth and the oldest pending row's age from the database", async () => {
    const operator = await createOperator(h.prisma, { webhookUrl: receiver.url });
    const now = h.clock.now();
    expect((await sampleBacklog(h.prisma, () => now)).webhooks).toEqual({ depth: 0, oldestPendingAgeSec: 0 });
    await enqueueWebhook(h.prisma, operator.id, new Date(now.getTime() - 90_000));
    await enqueueWebhook(h.prisma, operator.id, new Date(now.getTime() - 10_000));
    const delivered = await enqueueWebhook(h.prisma, operator.id, new Date(now.getTime() - 500_000));
    await h.prisma.webhookEvent.update({ where: { id: delivered.id }, data: { status: 'delivered' } });

    expect((await sampleBacklog(h.prisma, () => now)).webhooks).toEqual({ depth: 2, oldestPendingAgeSec: 90 });
  });

  describe('money kept without a policy, refunds and the mail outbox', () => {
    /** A payment row as the intake would leave it, last updated `agoMs` before `now`. */
    async function payment(
      now: Date,
      agoMs: number,
      fields: { status: 'succeeded' | 'pending'; refundStatus?: 'pending' | 'failed' },
    ) {
      const { quote, planId } = await createQuote(h.prisma, h.clock);
      const row = await h.prisma.payment.create({
        data: {
          quoteId: quote.id,
          planId,
          mode: 'test',
          channel: 'checkout_link',
          processor: 'simulated',
          processorPaymentId: `pi_backlog_${quote.id}`,
          amountCents: 1_000,
          status: fields.status,
          refundStatus: fields.refundStatus ?? null,
        },
      });
      await h.prisma
        .$executeRaw`UPDATE payments SET updated_at = ${new Date(now.getTime() - agoMs)}::timestamp(3) WHERE id = ${row.id}`;
      return row;
    }

    it('counts a succeeded payment with neither policy nor refund after 10 minutes, and refunds pending and failed', async () => {
      await h.prisma
        .$executeRaw`TRUNCATE payments, purchases, policies, policy_mails, commissions, webhook_events CASCADE`;
      const now = h.clock.now();
      const late = PAYMENT_WITHOUT_POLICY_GRACE_MS + 60_000;
      await payment(now, late, { status: 'succeeded' }); // counted: money kept, no policy, no refund
      await payment(now, 60_000, { status: 'succeeded' }); // within the grace period
      await payment(now, late, { status: 'pending' }); // not succeeded
      await payment(now, late, { status: 'succeeded', refundStatus: 'pending' }); // being refunded
      await payment(now, late, { status: 'succeeded', refundStatus: 'failed' }); // refund given up

      const sample = await sampleBacklog(h.prisma, () => now);

      expect(sample.paymentsWithoutPolicy).toBe(1);
      expect(sample.refunds).toEqual({ pending: 1, failed: 1 });
    });

    it('does not count a payment the intake turned into a policy, and samples its pending confirmation mail', async () => {
      await h.prisma
        .$executeRaw`TRUNCATE payments, purchases, policies, policy_mails, commissions, webhook_events CASCADE`;
      const metrics = createMetrics({ service: 'webhook-dispatcher', defaultMetrics: false });
      const app = createApp(appDeps(h.db, h.clock, { observability: { metrics } }));
      const operator = await createOperator(h.prisma, { webhookUrl: receiver.url });
      const { quote, planId, premiumCents } = await createQuote(h.prisma, h.clock, operator.id);
      await h.prisma.quote.update({ where: { id: quote.id }, data: { email: 'buyer@example.com' } });
      const evt = intentEvent(
        {
          amountCents: premiumCents,
          metadata: { quoteId: quote.id, planId, operatorId: operator.id, channel: 'embed' },
        },
        h.clock.nowSec(),
      );
      await registerAsOurs(h.prisma, evt);
      const signed = signEvent(evt, h.clock.nowSec());
      const res = await request(app)
        .post('/processor/events')
        .set('Content-Type', 'application/json')
        .set('Stripe-Signature', signed.header)
        .send(signed.body);
      expect(res.status).toBe(200);
      const now = new Date(h.clock.now().getTime() + PAYMENT_WITHOUT_POLICY_GRACE_MS + 60_000);
      await h.prisma
        .$executeRaw`UPDATE payments SET updated_at = ${new Date(now.getTime() - PAYMENT_WITHOUT_POLICY_GRACE_MS - 1)}::timestamp(3)`;
      await h.prisma
        .$executeRaw`UPDATE policy_mails SET created_at = ${new Date(now.getTime() - 120_000)}::timestamp(3)`;

      const sample = await sampleBacklog(h.prisma, () => now);

      expect(sample.paymentsWithoutPolicy).toBe(0);
      expect(sample.mails).toEqual({ depth: 1, oldestPendingAgeSec: 120 });
      const text = await metrics.registry.metrics();
      expect(
        seriesValue(text, 'payment_outcomes_total', { channel: 'embed', outcome: 'succeeded', mode: 'test' }),
      ).toBe(1);
      expect(seriesValue(text, 'payment_fulfillments_total', { result: 'policy_issued', mode: 'test' })).toBe(1);
    });
  });
});
