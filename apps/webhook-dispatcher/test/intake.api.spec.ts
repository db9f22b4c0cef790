import request from 'supertest';
import { PolicyIssuedPayloadSchema } from '@expedition/contracts';
import { hashToken, randomToken } from '@expedition/platform';
import { createApp } from '../src/app';
import { NO_WEBHOOK_URL_ERROR } from '@expedition/fulfillment';
import {
  appDeps,
  countMoneyPath,
  createHarness,
  createOperator,
  createQuote,
  intentEvent,
  processorLedger,
  refundCalls,
  registerAsOurs,
  signEvent,
  type Harness,
  type IntentEventInput,
} from './harness';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

async function post(
  event: object,
  options: { timestampSec?: number; secret?: string; path?: string; ours?: boolean } = {},
) {
  // The intake trusts only payments we started: by default the test plays the app that started this one.
  if (options.ours !== false) await registerAsOurs(h.prisma, event);
  const signed = signEvent(event, options.timestampSec ?? h.clock.nowSec(), options.secret);
  return request(h.app)
    .post(options.path ?? '/processor/events')
    .set('Content-Type', 'application/json')
    .set('Stripe-Signature', signed.header)
    .send(signed.body);
}

const event = (input: IntentEventInput) => intentEvent(input, h.clock.nowSec());

async function operatorQuote(fields: Parameters<typeof createOperator>[1] = {}) {
  const operator = await createOperator(h.prisma, fields);
  const q = await createQuote(h.prisma, h.clock, operator.id);
  const metadata = { quoteId: q.quote.id, planId: q.planId, operatorId: operator.id, channel: 'embed' };
  return { operator, ...q, metadata };
}

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

describe('POST /processor/events: payment failed', () => {
  it('records the failure on the payment and issues nothing', async () => {
    const { quote, premiumCents, metadata } = await operatorQuote();
    const before = await countMoneyPath(h.prisma);
    const evt = event({
      type: 'payment_intent.payment_failed',
      amountCents: premiumCents,
      metadata,
      lastPaymentError: {
        type: 'card_error',
        code: 'card_declined',
        decline_code: 'insufficient_funds',
        message: 'Your card has insufficient funds.',
      },
    });

    const res = await post(evt);

    expect(res.status).toBe(200);
    const payment = await h.prisma.payment.findUniqueOrThrow({ where: { processorPaymentId: evt.data.object.id } });
    expect(payment).toMatchObject({ status: 'failed', failureCode: 'card_declined', quoteId: quote.id });
    expect(payment.failureMessage).toContain('insufficient_funds');
    const after = await countMoneyPath(h.prisma);
    expect(after).toEqual({ ...before, processorEvents: before.processorEvents + 1, payments: before.payments + 1 });
    expect((await h.prisma.quote.findUniqueOrThrow({ where: { id: quote.id } })).status).toBe('quoted');
  });

  it('issues the policy when the same intent later succeeds with another card', async () => {
    const { quote, premiumCents, metadata } = await operatorQuote();
    const failed = event({ type: 'payment_intent.payment_failed', amountCents: premiumCents, metadata });
    await post(failed);
    await post(event({ amountCents: premiumCents, metadata, paymentId: failed.data.object.id }));

    const payment = await h.prisma.payment.findUniqueOrThrow({ where: { processorPaymentId: failed.data.object.id } });
    expect(payment).toMatchObject({ status: 'succeeded', failureCode: null, failureMessage: null });
    expect(await h.prisma.policy.count({ where: { quoteId: quote.id } })).toBe(1);
  });

  it('records nothing for a forged failure the processor does not confirm, and stores the processor’s text, never the event’s', async () => {
    const { quote, premiumCents, metadata } = await operatorQuote();
    const forgery = {
      type: 'card_error',
      code: 'card_declined',
      message: 'Your account is locked: unlock at https://evil.example/unlock',
    };
    // A payment we started, still awaiting its card: a failure signed with the real secret (a leaked one) is refused.
    const started = event({ amountCents: premiumCents, metadata });
    await registerAsOurs(h.prisma, started);
    processorLedger.set(started.data.object.id, {
      status: 'pending',
      amountCents: premiumCents,
      currency: 'usd',
      mode: 'test',
    });
    const before = await countMoneyPath(h.prisma);
    const forged = event({
      type: 'payment_intent.payment_failed',
      amountCents: premiumCents,
      metadata,
      paymentId: started.data.object.id,
      lastPaymentError: forgery,
    });

    expect((await post(forged, { ours: false })).status).toBe(200);
    expect(await countMoneyPath(h.prisma)).toEqual(before);
    expect(
      await h.prisma.payment.findUniqueOrThrow({ where: { processorPaymentId: started.data.object.id } }),
    ).toMatchObject({
      status: 'pending',
      failureCode: null,
      failureMessage: null,
    });

    // The processor does report a failure: what is stored is its own word, not the forger's.
    processorLedger.set(started.data.object.id, {
      status: 'failed',
      amountCents: premiumCents,
      currency: 'usd',
      mode: 'test',
      failure: {
        failureCode: 'card_declined',
        declineCode: 'insufficient_funds',
        failureMessage: 'Your card has insufficient funds.',
      },
    });
    expect((await post({ ...forged, id: `${forged.id}_again` }, { ours: false })).status).toBe(200);
    const payment = await h.prisma.payment.findUniqueOrThrow({ where: { processorPaymentId: started.data.object.id } });
    expect(payment).toMatchObject({
      status: 'failed',
      failureCode: 'card_declined',
      failureMessage: 'decline_code=insufficient_funds: Your card has insufficient funds.',
    });
    expect(payment.failureMessage).not.toContain('evil.example');
    expect((await h.prisma.quote.findUniqueOrThrow({ where: { id: quote.id } })).status).toBe('quoted');
  });

  it('never lets a late failure event undo a recorded success', async () => {
    const { premiumCents, metadata } = await operatorQuote();
    const ok = event({ amountCents: premiumCents, metadata });
    await post(ok);
    await post(
      event({
        type: 'payment_intent.payment_failed',
        amountCents: premiumCents,
        metadata,
        paymentId: ok.data.object.id,
      }),
    );

    const payment = await h.prisma.payment.findUniqueOrThrow({ where: { processorPaymentId: ok.data.object.id } });
    expect(payment.status).toBe('succeeded');
  });
});

describe('POST /processor/events: what is rejected or ignored', () => {
  it('answers 400 to a bad signature and writes nothing (not even the event row)', async () => {
    const { premiumCents, metadata } = await operatorQuote();
    const evt = event({ amountCents: premiumCents, metadata });
    const before = await countMoneyPath(h.prisma);

    const wrongSecret = await post(evt, { secret: 'whsec_someone_else', ours: false });
    const signed = signEvent(evt, h.clock.nowSec());
    const tampered = await request(h.app)
      .post('/processor/events')
      .set('Stripe-Signature', signed.header)
      .set('Content-Type', 'application/json')
      .send(signed.body.replace(`"amount":${premiumCents}`, '"amount":1'));
    const missing = await request(h.app)
      .post('/processor/events')
      .set('Content-Type', 'application/json')
      .send(signed.body);
    const garbage = await request(h.app)
      .post('/processor/events')
      .set('Stripe-Signature', 'nonsense')
      .send(signed.body);

    expect(wrongSecret.status).toBe(400);
    expect(wrongSecret.body.details).toEqual([{ path: 'Stripe-Signature', message: 'signature_mismatch' }]);
    expect(tampered.status).toBe(400);
    expect(missing.status).toBe(400);
    expect(garbage.status).toBe(400);
    expect(await countMoneyPath(h.prisma)).toEqual(before);
  });

  it('answers 400 to a signature outside the 300 s tolerance', async () => {
    const { premiumCents, metadata } = await operatorQuote();
    const evt = event({ amountCents: premiumCents, metadata });
    const before = await countMoneyPath(h.prisma);

    const stale = await post(evt, { timestampSec: h.clock.nowSec() - 301, ours: false });
    const future = await post(evt, { timestampSec: h.clock.nowSec() + 301, ours: false });

    expect(stale.status).toBe(400);
    expect(stale.body.details[0].message).toBe('timestamp_out_of_tolerance');
    expect(future.status).toBe(400);
    expect(await countMoneyPath(h.prisma)).toEqual(before);
  });

  it('records and ignores events that are not payment outcomes', async () => {
    const before = await countMoneyPath(h.prisma);
    const other = {
      id: 'evt_other_1',
      object: 'event',
      type: 'customer.created',
      created: h.clock.nowSec(),
      livemode: false,
      data: { object: { id: 'cus_1' } },
    };

    const res = await post(other);

    expect(res.status).toBe(200);
    expect(res.body).toEqual({ received: true });
    expect(await countMoneyPath(h.prisma)).toEqual({ ...before, processorEvents: before.processorEvents + 1 });
  });

  it('records and ignores a payment event for an unknown quote (retrying would not help)', async () => {
    const before = await countMoneyPath(h.prisma);
    const res = await post(
      event({
        amountCents: 100,
        metadata: { quoteId: '7d1f2c3a-1111-4222-8333-944455556666', planId: 'x', channel: 'mpp' },
      }),
    );
    expect(res.status).toBe(200);
    expect(await countMoneyPath(h.prisma)).toEqual({ ...before, processorEvents: before.processorEvents + 1 });
  });

  it('refuses a signed event for a payment we never started: no payment, purchase or policy for a real quote', async () => {
    const { quote, premiumCents, metadata } = await operatorQuote();
    const before = await countMoneyPath(h.prisma);
    // Signed with the real secret (a leaked one, say), but the processor does not know the payment: refused unread.
    const res = await post(event({ amountCents: premiumCents, metadata }), { ours: false });
    expect(res.status).toBe(200);
    expect(await countMoneyPath(h.prisma)).toEqual(before);
    expect(await h.prisma.policy.count({ where: { quoteId: quote.id } })).toBe(0);
  });

  it('refuses a forged success for a payment we started but the processor never charged, or for another amount', async () => {
    const { quote, premiumCents, metadata } = await operatorQuote();
    const started = event({ amountCents: premiumCents, metadata });
    await registerAsOurs(h.prisma, started);
    processorLedger.set(started.data.object.id, {
      status: 'failed',
      amountCents: premiumCents,
      currency: 'usd',
      mode: 'test',
    });
    expect((await post(started, { ours: false })).status).toBe(200);
    processorLedger.set(started.data.object.id, {
      status: 'succeeded',
      amountCents: premiumCents,
      currency: 'usd',
      mode: 'test',
    });
    const cheaper = { ...started, id: `${started.id}_1`, data: { object: { ...started.data.object, amount: 1 } } };
    expect((await post(cheaper, { ours: false })).status).toBe(200);
    expect(await h.prisma.policy.count({ where: { quoteId: quote.id } })).toBe(0);
    expect(
      (await h.prisma.payment.findUniqueOrThrow({ where: { processorPaymentId: started.data.object.id } })).status,
    ).toBe('pending');

    // The real success is then recorded, and a later forged amount never rewrites it.
    expect((await post({ ...started, id: `${started.id}_2` }, { ours: false })).status).toBe(200);
    expect(await h.prisma.policy.count({ where: { quoteId: quote.id } })).toBe(1);
    processorLedger.set(started.data.object.id, { status: 'succeeded', amountCents: 1, currency: 'usd', mode: 'test' });
    expect((await post({ ...cheaper, id: `${started.id}_3` }, { ours: false })).status).toBe(200);
    expect(
      (await h.prisma.payment.findUniqueOrThrow({ where: { processorPaymentId: started.data.object.id } })).amountCents,
    ).toBe(premiumCents);
  });

  it('refuses an event whose mode differs from the payment we started (a live event for a test quote)', async () => {
    const { quote, premiumCents, metadata } = await operatorQuote();
    const started = event({ amountCents: premiumCents, metadata });
    await registerAsOurs(h.prisma, started);
    const live = {
      ...started,
      id: `${started.id}_live`,
      livemode: true,
      data: { object: { ...started.data.object, livemode: true } },
    };
    const res = await post(live, { ours: false });
    expect(res.status).toBe(200);
    expect(await h.prisma.policy.count({ where: { quoteId: quote.id } })).toBe(0);
    expect(
      (await h.prisma.payment.findUniqueOrThrow({ where: { processorPaymentId: started.data.object.id } })).status,
    ).toBe('pending');
  });

  it('serves /healthz and /readyz', async () => {
    expect((await request(h.app).get('/healthz')).status).toBe(200);
    const ready = await request(h.app).get('/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ready' });
  });
});
