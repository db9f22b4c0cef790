import request from 'supertest';
import { PolicyIssuedPayloadSchema } from '@expedition/contracts';
import { hashToken, randomToken } from '@expedition/platform';
import { createApp } from '../src/app';
import { NO_WEBHOOK_URL_ERROR } from '@expedition/fulfillment';
import { appDeps, type Harness } from './harness';
import { refundCalls, registerAsOurs, signEvent } from './processor-events';
import { countMoneyPath, createQuote } from './fixtures';
import { intakeHarness } from './intake-client';

let h: Harness;
const { post, event, operatorQuote } = intakeHarness((made) => (h = made));

describe('POST /processor/events: payment succeeded', () => {
  it('records payment, purchase, policy, commission and the policy.issued outbox row together', async () => {
    const { operator, quote, planId, premiumCents, metadata } = await operatorQuote({ commissionRateBps: 1_250 });
    const session = await h.prisma.checkoutSession.create({
      data: {
        tokenHash: hashToken(randomToken('cs')),
        quoteId: quote.id,
        planId,
        premiumCents,
        expiresAt: new Date(h.clock.now().getTime() + 30 * 60_000),
      },
    });
    const evt = event({
      amountCents: premiumCents,
      metadata: { ...metadata, checkoutSessionId: session.id, channel: 'checkout_link' },
    });

    const res = await post(evt);

    expect(res.status).toBe(200);
    expect(res.body).toEqual({ received: true });
    const paymentId = evt.data.object.id;
    const stored = await h.prisma.processorEvent.findUniqueOrThrow({ where: { processorEventId: evt.id } });
    expect(stored).toMatchObject({ processor: 'simulated', type: 'payment_intent.succeeded' });
    expect(stored.processedAt).not.toBeNull();
    expect(JSON.stringify(stored.payload)).not.toContain('pi_secret_should_not_be_stored');

    const payment = await h.prisma.payment.findUniqueOrThrow({ where: { processorPaymentId: paymentId } });
    expect(payment).toMatchObject({
      quoteId: quote.id,
      planId,
      operatorId: operator.id,
      status: 'succeeded',
      channel: 'checkout_link',
      mode: 'test',
      amountCents: premiumCents,
      currency: 'USD',
      checkoutSessionId: session.id,
    });
    const purchase = await h.prisma.purchase.findUniqueOrThrow({ where: { quoteId: quote.id } });
    expect(purchase).toMatchObject({
      paymentId: payment.id,
      processorPaymentId: paymentId,
      amountCents: premiumCents,
      operatorId: operator.id,
    });

    const policy = await h.prisma.policy.findUniqueOrThrow({ where: { quoteId: quote.id } });
    expect(policy.policyNumber).toMatch(/^POL-2026-[23456789ABCDEFGHJKMNPQRSTVWXYZ]{6}$/);
    expect(policy).toMatchObject({
      purchaseId: purchase.id,
      planId,
      operatorId: operator.id,
      travelers: 2,
      travelerAges: [45, 52],
      premiumCents,
      currency: 'USD',
      startDate: new Date('2027-01-10T00:00:00Z'),
      endDate: new Date('2027-01-24T00:00:00Z'),
    });

    const commission = await h.prisma.commission.findUniqueOrThrow({ where: { policyId: policy.id } });
    expect(commission).toMatchObject({
      operatorId: operator.id,
      rateBps: 1_250,
      premiumCents,
      commissionCents: Math.floor((premiumCents * 1_250) / 10_000),
    });

    expect((await h.prisma.quote.findUniqueOrThrow({ where: { id: quote.id } })).status).toBe('purchased');
    const paidSession = await h.prisma.checkoutSession.findUniqueOrThrow({ where: { id: session.id } });
    expect(paidSession.status).toBe('paid');
    expect(paidSession.paidAt).toEqual(h.clock.now());

    const outbox = await h.prisma.webhookEvent.findFirstOrThrow({ where: { operatorId: operator.id } });
    expect(outbox).toMatchObject({ type: 'policy.issued', status: 'pending', attempts: 0, lockedUntil: null });
    expect(outbox.eventId).toMatch(/^evt_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(outbox.nextAttemptAt).toEqual(h.clock.now());
    const payload = PolicyIssuedPayloadSchema.parse(outbox.payload);
    expect(payload).toMatchObject({
      eventId: outbox.eventId,
      type: 'policy.issued',
      mode: 'test',
      operatorId: operator.id,
      policyId: policy.id,
      policyNumber: policy.policyNumber,
      quoteId: quote.id,
      quoteNumber: quote.quoteNumber,
      planId,
      destination: 'Antarctica',
      premiumCents,
      commissionCents: commission.commissionCents,
      commissionRateBps: 1_250,
      currency: 'USD',
      travelers: 2,
      startDate: '2027-01-10',
      endDate: '2027-01-24',
    });
    expect(payload.planName.length).toBeGreaterThan(0);
  });

  it('writes nothing at all when any step of the transaction fails, so the processor retry starts clean', async () => {
    let failNext = true;
    const app = createApp(
      appDeps(h.db, h.clock, {
        newWebhookEventId: () => {
          if (failNext) {
            failNext = false;
            throw new Error('simulated crash after policy and commission');
          }
          return `evt_${crypto.randomUUID()}`;
        },
      }),
    );
    const { quote, premiumCents, metadata } = await operatorQuote();
    const evt = event({ amountCents: premiumCents, metadata });
    const signed = signEvent(evt, h.clock.nowSec());
    const send = () =>
      request(app)
        .post('/processor/events')
        .set('Stripe-Signature', signed.header)
        .set('Content-Type', 'application/json')
        .send(signed.body);
    await registerAsOurs(h.prisma, evt);
    const before = await countMoneyPath(h.prisma);

    expect((await send()).status).toBe(500);
    expect(await countMoneyPath(h.prisma)).toEqual(before);

    expect((await send()).status).toBe(200);
    expect(await h.prisma.policy.count({ where: { quoteId: quote.id } })).toBe(1);
    expect(await h.prisma.webhookEvent.count({ where: { payload: { path: ['quoteId'], equals: quote.id } } })).toBe(1);
  });

  it('answers a replayed event 200 duplicate and changes nothing', async () => {
    const { quote, premiumCents, metadata } = await operatorQuote();
    const evt = event({ amountCents: premiumCents, metadata });
    expect((await post(evt)).status).toBe(200);
    const before = await countMoneyPath(h.prisma);

    const replay = await post(evt);

    expect(replay.status).toBe(200);
    expect(replay.body).toEqual({ received: true, duplicate: true });
    expect(await countMoneyPath(h.prisma)).toEqual(before);
    expect(await h.prisma.policy.count({ where: { quoteId: quote.id } })).toBe(1);
  });

  it('handles the same event posted twice at once exactly once', async () => {
    const { quote, premiumCents, metadata } = await operatorQuote();
    const evt = event({ amountCents: premiumCents, metadata });
    const [a, b] = await Promise.all([post(evt), post(evt)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect([a.body.duplicate, b.body.duplicate].filter(Boolean)).toHaveLength(1);
    expect(await h.prisma.policy.count({ where: { quoteId: quote.id } })).toBe(1);
    expect(await h.prisma.processorEvent.count({ where: { processorEventId: evt.id } })).toBe(1);
  });

  it('issues one policy when two different events report the same payment (Checkout + PaymentIntent pair)', async () => {
    const { quote, premiumCents, metadata } = await operatorQuote();
    const first = event({ amountCents: premiumCents, metadata });
    const second = event({ amountCents: premiumCents, metadata, paymentId: first.data.object.id });

    expect((await post(first)).status).toBe(200);
    const res = await post(second);

    expect(res.status).toBe(200);
    expect(res.body).toEqual({ received: true });
    expect(await h.prisma.processorEvent.count({ where: { processorEventId: { in: [first.id, second.id] } } })).toBe(2);
    expect(await h.prisma.policy.count({ where: { quoteId: quote.id } })).toBe(1);
    expect(await h.prisma.webhookEvent.count({ where: { payload: { path: ['quoteId'], equals: quote.id } } })).toBe(1);
  });

  it('does not issue a second policy for a second payment of the same quote, and refunds it automatically', async () => {
    const { quote, premiumCents, metadata } = await operatorQuote();
    expect((await post(event({ amountCents: premiumCents, metadata }))).status).toBe(200);
    const second = event({ amountCents: premiumCents, metadata });

    expect((await post(second)).status).toBe(200);

    expect(await h.prisma.policy.count({ where: { quoteId: quote.id } })).toBe(1);
    expect(await h.prisma.commission.count({ where: { policy: { quoteId: quote.id } } })).toBe(1);
    expect(await h.prisma.webhookEvent.count({ where: { payload: { path: ['quoteId'], equals: quote.id } } })).toBe(1);
    const extra = await h.prisma.payment.findUniqueOrThrow({ where: { processorPaymentId: second.data.object.id } });
    expect(extra).toMatchObject({
      status: 'succeeded',
      refundStatus: 'succeeded',
      processorRefundId: expect.stringMatching(/^re_/),
    });
    expect(extra.refundReason).toMatch(/^duplicate_payment: /);
    expect(extra.refundedAt).not.toBeNull();
    expect(refundCalls.filter((r) => r.paymentId === second.data.object.id)).toEqual([
      expect.objectContaining({ mode: 'test', reason: 'duplicate', idempotencyKey: `refund_${second.data.object.id}` }),
    ]);
  });

  it('issues nothing when the amount paid differs from the quoted premium, and refunds it', async () => {
    const { quote, premiumCents, metadata } = await operatorQuote();
    const evt = event({ amountCents: premiumCents - 1, metadata });

    expect((await post(evt)).status).toBe(200);

    expect(await h.prisma.purchase.count({ where: { quoteId: quote.id } })).toBe(0);
    expect(await h.prisma.policy.count({ where: { quoteId: quote.id } })).toBe(0);
    const payment = await h.prisma.payment.findUniqueOrThrow({ where: { processorPaymentId: evt.data.object.id } });
    expect(payment).toMatchObject({ status: 'succeeded', refundStatus: 'succeeded', amountCents: premiumCents - 1 });
    expect(payment.refundReason).toMatch(/^amount_mismatch: /);
    expect((await h.prisma.quote.findUniqueOrThrow({ where: { id: quote.id } })).status).toBe('quoted');
  });

  it('issues a policy without commission or webhook for a quote from /api/v1 with no operator', async () => {
    const { quote, planId, premiumCents } = await createQuote(h.prisma, h.clock);
    const before = await countMoneyPath(h.prisma);

    const res = await post(
      event({ amountCents: premiumCents, metadata: { quoteId: quote.id, planId, channel: 'mpp' } }),
    );

    expect(res.status).toBe(200);
    const policy = await h.prisma.policy.findUniqueOrThrow({ where: { quoteId: quote.id } });
    expect(policy.operatorId).toBeNull();
    expect(await h.prisma.commission.count({ where: { policyId: policy.id } })).toBe(0);
    const after = await countMoneyPath(h.prisma);
    expect(after.commissions).toBe(before.commissions);
    expect(after.webhookEvents).toBe(before.webhookEvents);
    expect(after.purchases).toBe(before.purchases + 1);
    expect((await h.prisma.payment.findFirstOrThrow({ where: { quoteId: quote.id } })).channel).toBe('mpp');
  });

  it('still writes policy and commission for an operator without a webhook URL; the event is kept as failed', async () => {
    const { operator, quote, premiumCents, metadata } = await operatorQuote({ webhookUrl: null });

    expect((await post(event({ amountCents: premiumCents, metadata }))).status).toBe(200);

    const policy = await h.prisma.policy.findUniqueOrThrow({ where: { quoteId: quote.id } });
    expect(await h.prisma.commission.count({ where: { policyId: policy.id } })).toBe(1);
    const outbox = await h.prisma.webhookEvent.findFirstOrThrow({ where: { operatorId: operator.id } });
    expect(outbox).toMatchObject({ status: 'failed', attempts: 0, lastError: NO_WEBHOOK_URL_ERROR });
  });

  it('computes the commission rounding down to the cent', async () => {
    const { operator, quote, premiumCents, metadata } = await operatorQuote({ commissionRateBps: 333 });

    expect((await post(event({ amountCents: premiumCents, metadata }))).status).toBe(200);

    const exact = (BigInt(premiumCents) * 333n) / 10_000n; // BigInt division truncates: the floor for positives
    const commission = await h.prisma.commission.findFirstOrThrow({
      where: { operatorId: operator.id, policy: { quoteId: quote.id } },
    });
    expect(commission.commissionCents).toBe(Number(exact));
    expect(commission.commissionCents * 10_000).toBeLessThanOrEqual(premiumCents * 333);
  });

  it('accepts the /stripe/webhook alias', async () => {
    const { quote, premiumCents, metadata } = await operatorQuote();
    const res = await post(event({ amountCents: premiumCents, metadata }), { path: '/stripe/webhook' });
    expect(res.status).toBe(200);
    expect(await h.prisma.policy.count({ where: { quoteId: quote.id } })).toBe(1);
  });
});
