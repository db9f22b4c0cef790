import Stripe from 'stripe';
import { signPayload } from '@expedition/webhook-signature';
import { WebhookSignatureError } from '../processor';
import { useFakeStripe, META, WHSEC, LIVE_WHSEC, fake, processor, settle } from './stripe-test-harness';

useFakeStripe();

describe('Stripe adapter: parseWebhookEvent', () => {
  const now = Math.floor(Date.now() / 1000);
  const body = JSON.stringify({
    id: 'evt_1',
    object: 'event',
    type: 'payment_intent.succeeded',
    created: now,
    livemode: false,
    data: {
      object: {
        id: 'pi_1',
        object: 'payment_intent',
        amount: 1234,
        currency: 'usd',
        status: 'succeeded',
        metadata: { quoteId: 'q_1' },
      },
    },
  });

  it('accepts a header from stripe’s own generateTestHeaderString', () => {
    const header = Stripe.webhooks.generateTestHeaderString({ payload: body, secret: WHSEC });
    expect(processor().parseWebhookEvent(body, header, 'test')).toMatchObject({
      id: 'evt_1',
      type: 'payment.succeeded',
      paymentId: 'pi_1',
      amountCents: 1234,
      metadata: { quoteId: 'q_1' },
    });
  });

  it('selects secrets by mode and tries all of them without a mode', () => {
    const liveHeader = signPayload(body, LIVE_WHSEC, now);
    expect(() => processor().parseWebhookEvent(body, liveHeader, 'test')).toThrow(WebhookSignatureError);
    expect(processor().parseWebhookEvent(body, liveHeader, 'live').type).toBe('payment.succeeded');
    expect(processor().parseWebhookEvent(body, liveHeader).type).toBe('payment.succeeded');
  });

  it('accepts either secret during rotation', () => {
    const p = processor({ webhookSecrets: ['whsec_new', WHSEC] });
    expect(p.parseWebhookEvent(body, signPayload(body, WHSEC, now), 'test').id).toBe('evt_1');
  });

  it('rejects stale and future timestamps using the injected clock', () => {
    const p = processor({ clock: { now: () => new Date((now + 400) * 1000) } });
    expect(() => p.parseWebhookEvent(body, signPayload(body, WHSEC, now), 'test')).toThrow(
      expect.objectContaining({ reason: 'timestamp_out_of_tolerance' }),
    );
    const q = processor({ clock: { now: () => new Date((now - 400) * 1000) } });
    expect(() => q.parseWebhookEvent(body, signPayload(body, WHSEC, now), 'test')).toThrow(
      expect.objectContaining({ reason: 'timestamp_out_of_tolerance' }),
    );
  });

  it('verifies the events the fake emits, as the dispatcher intake would after signing', async () => {
    await settle('spt_test_event');
    const event = fake.events.at(-1)!;
    const raw = JSON.stringify(event);
    const parsed = processor().parseWebhookEvent(raw, signPayload(raw, WHSEC, now));
    expect(parsed).toMatchObject({ type: 'payment.succeeded', id: event.id, metadata: { challenge_id: 'ch_1' } });
  });
});

describe('Stripe adapter: retrieve and refund', () => {
  it('retrieves a declined intent as failed with its own last_payment_error (how a failure event is confirmed)', async () => {
    const p = processor();
    const { paymentId } = await p.createPayment({
      amountCents: 100,
      currency: 'usd',
      mode: 'test',
      idempotencyKey: 'rf1',
      metadata: META,
    });
    await p.confirmPayment({ paymentId, mode: 'test', paymentMethod: 'pm_card_chargeDeclinedInsufficientFunds' });
    expect(await p.retrievePayment({ paymentId, mode: 'test' })).toMatchObject({
      status: 'failed',
      failureCode: 'card_declined',
      declineCode: 'insufficient_funds',
      failureMessage: 'Your card has insufficient funds.',
    });
  });

  it('retrieves the intent with what was refunded, and refunds with the idempotency key', async () => {
    const settled = await processor().settleSharedPaymentToken({
      amountCents: 2500,
      currency: 'usd',
      mode: 'test',
      spt: 'spt_test_success_refund',
      challengeId: 'ch_r',
      idempotencyKey: 'mpp_q_r_a1',
      metadata: META,
    });
    const paymentId = settled.paymentId!;
    expect(await processor().retrievePayment({ paymentId, mode: 'test' })).toMatchObject({
      status: 'succeeded',
      amountCents: 2500,
      amountRefundedCents: 0,
    });

    const refund = await processor().refundPayment({
      paymentId,
      mode: 'test',
      reason: 'duplicate',
      idempotencyKey: `refund_${paymentId}`,
    });
    expect(refund).toEqual({ refundId: expect.stringMatching(/^re_fake_/), status: 'succeeded', amountCents: 2500 });
    expect(fake.requests.at(-1)).toMatchObject({
      path: '/v1/refunds',
      idempotencyKey: `refund_${paymentId}`,
      body: { payment_intent: paymentId, reason: 'duplicate' },
    });
    expect(
      await processor().refundPayment({
        paymentId,
        mode: 'test',
        reason: 'duplicate',
        idempotencyKey: `refund_${paymentId}`,
      }),
    ).toEqual(refund);
    expect(fake.refunds(paymentId)).toHaveLength(1);
    expect(await processor().retrievePayment({ paymentId, mode: 'test' })).toMatchObject({ amountRefundedCents: 2500 });
  });
});
