import type { Mode } from '@expedition/contracts/rules';
import Stripe from 'stripe';
import { signPayload } from '@expedition/webhook-signature';
import { startFakeStripeServer, type FakeStripeServer } from '../testing';
import { PaymentProcessorError, WebhookSignatureError, type PaymentMetadata } from '../processor';
import { SPT_API_VERSION, createStripeProcessor, type StripeProcessorOptions } from './stripe-processor';

const META: PaymentMetadata = { quoteId: 'q_1', planId: 'plan_std', channel: 'mpp', operatorId: undefined };
const WHSEC = 'whsec_test_endpoint';
const LIVE_WHSEC = 'whsec_live_endpoint';

let fake: FakeStripeServer;
beforeAll(async () => {
  fake = await startFakeStripeServer();
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => {
  fake.requests.length = 0;
  fake.events.length = 0;
  fake.setOutage(false);
});

function processor(overrides: Partial<StripeProcessorOptions> = {}) {
  return createStripeProcessor({
    testSecretKey: 'sk_test_fake_123',
    liveSecretKey: 'sk_live_fake_456',
    webhookSecrets: WHSEC,
    liveWebhookSecrets: LIVE_WHSEC,
    host: fake.host,
    port: fake.port,
    protocol: fake.protocol,
    ...overrides,
  });
}

const settle = (spt: string, challengeId = 'ch_1', mode: Mode = 'test') =>
  processor().settleSharedPaymentToken({
    amountCents: 1234,
    currency: 'USD',
    mode,
    spt,
    challengeId,
    idempotencyKey: `mpp_${challengeId}_${spt}`,
    metadata: META,
  });

describe('Stripe adapter: configuration', () => {
  it('refuses a live key in the test slot and vice versa', () => {
    expect(() => processor({ testSecretKey: 'sk_live_x' })).toThrow(PaymentProcessorError);
    expect(() => processor({ liveSecretKey: 'sk_test_x' })).toThrow(PaymentProcessorError);
  });

  it('reports a missing live key as mode_not_configured', async () => {
    const p = processor({ liveSecretKey: undefined });
    await expect(
      p.createPayment({ amountCents: 100, currency: 'usd', mode: 'live', idempotencyKey: 'k', metadata: META }),
    ).rejects.toMatchObject({ code: 'mode_not_configured' });
  });
});

describe('Stripe adapter: createPayment / confirmPayment', () => {
  it('creates a PaymentIntent with the idempotency key, lowercase currency and metadata', async () => {
    const result = await processor().createPayment({
      amountCents: 4200,
      currency: 'USD',
      mode: 'test',
      idempotencyKey: 'idem_a',
      metadata: META,
    });
    expect(result).toEqual({
      paymentId: expect.stringMatching(/^pi_fake_/),
      clientSecret: expect.stringContaining('_secret_'),
      status: 'pending',
    });

    const [request] = fake.requests;
    expect(request).toMatchObject({
      method: 'POST',
      path: '/v1/payment_intents',
      idempotencyKey: 'idem_a',
      apiKey: 'sk_test_fake_123',
      body: {
        amount: '4200',
        currency: 'usd',
        automatic_payment_methods: { enabled: 'true' },
        metadata: { quoteId: 'q_1', planId: 'plan_std', channel: 'mpp' },
      },
    });
    expect(request!.body['metadata']).not.toHaveProperty('operatorId');
  });

  it('uses the live key in live mode', async () => {
    await processor().createPayment({
      amountCents: 100,
      currency: 'usd',
      mode: 'live',
      idempotencyKey: 'idem_live',
      metadata: META,
    });
    expect(fake.requests[0]!.apiKey).toBe('sk_live_fake_456');
  });

  it('returns the same intent for a repeated idempotency key', async () => {
    const input = {
      amountCents: 100,
      currency: 'usd',
      mode: 'test' as const,
      idempotencyKey: 'idem_same',
      metadata: META,
    };
    const a = await processor().createPayment(input);
    const b = await processor().createPayment(input);
    expect(b.paymentId).toBe(a.paymentId);
  });

  it('maps a key reused with other parameters to idempotency_error', async () => {
    await processor().createPayment({
      amountCents: 100,
      currency: 'usd',
      mode: 'test',
      idempotencyKey: 'idem_conflict',
      metadata: META,
    });
    await expect(
      processor().createPayment({
        amountCents: 200,
        currency: 'usd',
        mode: 'test',
        idempotencyKey: 'idem_conflict',
        metadata: META,
      }),
    ).rejects.toMatchObject({ code: 'idempotency_error' });
  });

  it('confirms with pm_card_visa → succeeded', async () => {
    const p = processor();
    const { paymentId } = await p.createPayment({
      amountCents: 100,
      currency: 'usd',
      mode: 'test',
      idempotencyKey: 'c1',
      metadata: META,
    });
    expect(await p.confirmPayment({ paymentId, mode: 'test', paymentMethod: 'pm_card_visa' })).toEqual({
      paymentId,
      status: 'succeeded',
    });
    expect(fake.requests.at(-1)).toMatchObject({
      path: `/v1/payment_intents/${paymentId}/confirm`,
      body: { payment_method: 'pm_card_visa' },
    });
  });

  it('turns a thrown card error into status failed with code, decline code and message', async () => {
    const p = processor();
    const { paymentId } = await p.createPayment({
      amountCents: 100,
      currency: 'usd',
      mode: 'test',
      idempotencyKey: 'c2',
      metadata: META,
    });
    expect(
      await p.confirmPayment({ paymentId, mode: 'test', paymentMethod: 'pm_card_chargeDeclinedInsufficientFunds' }),
    ).toEqual({
      paymentId,
      status: 'failed',
      failureCode: 'card_declined',
      declineCode: 'insufficient_funds',
      failureMessage: 'Your card has insufficient funds.',
    });
  });

  it('reports requires_action for pm_card_authenticationRequired', async () => {
    const p = processor();
    const { paymentId } = await p.createPayment({
      amountCents: 100,
      currency: 'usd',
      mode: 'test',
      idempotencyKey: 'c3',
      metadata: META,
    });
    expect(
      (await p.confirmPayment({ paymentId, mode: 'test', paymentMethod: 'pm_card_authenticationRequired' })).status,
    ).toBe('requires_action');
  });

  it('maps an unknown intent to payment_not_found and an outage to processor_unavailable', async () => {
    await expect(
      processor().confirmPayment({ paymentId: 'pi_nope', mode: 'test', paymentMethod: 'pm_card_visa' }),
    ).rejects.toMatchObject({ code: 'payment_not_found' });
    fake.setOutage(true);
    await expect(
      processor().createPayment({
        amountCents: 100,
        currency: 'usd',
        mode: 'test',
        idempotencyKey: 'c4',
        metadata: META,
      }),
    ).rejects.toMatchObject({ code: 'processor_unavailable' });
    await expect(settle('spt_test_outage')).rejects.toMatchObject({ code: 'processor_unavailable' });
  });
});

describe('Stripe adapter: settleSharedPaymentToken (notes A9)', () => {
  it('creates a confirmed PaymentIntent with the SPT, the MPP idempotency key and the preview API version', async () => {
    const result = await settle('spt_test_success_1');
    expect(result).toEqual({ paymentId: expect.stringMatching(/^pi_fake_/), status: 'succeeded', replayed: false });
    expect(fake.requests[0]).toMatchObject({
      path: '/v1/payment_intents',
      idempotencyKey: 'mpp_ch_1_spt_test_success_1',
      stripeVersion: SPT_API_VERSION,
      body: {
        amount: '1234',
        currency: 'usd',
        confirm: 'true',
        shared_payment_granted_token: 'spt_test_success_1',
        automatic_payment_methods: { enabled: 'true', allow_redirects: 'never' },
        metadata: { challenge_id: 'ch_1', quoteId: 'q_1', planId: 'plan_std', channel: 'mpp' },
      },
    });
  });

  it('reports a replay from the Idempotent-Replayed header', async () => {
    const first = await settle('spt_test_replay');
    const again = await settle('spt_test_replay');
    expect(again).toEqual({ paymentId: first.paymentId, status: 'succeeded', replayed: true });
    expect(fake.events.filter((e) => e.type === 'payment_intent.succeeded')).toHaveLength(1);
  });

  it('turns a card decline (HTTP 402) into failed, with the PaymentIntent id from the error', async () => {
    const result = await settle('spt_test_decline_1');
    expect(result).toMatchObject({
      paymentId: expect.stringMatching(/^pi_fake_/),
      status: 'failed',
      replayed: false,
      failureCode: 'card_declined',
      declineCode: 'generic_decline',
    });
    expect((await settle('spt_test_decline_1')).replayed).toBe(true);
  });

  it('declines insufficient funds and reports requires_action', async () => {
    expect(await settle('spt_test_insufficient_1')).toMatchObject({
      status: 'failed',
      declineCode: 'insufficient_funds',
    });
    expect(await settle('spt_test_requires_action_1')).toMatchObject({ status: 'requires_action', replayed: false });
  });

  it('treats a rejected token (used under another challenge) as a failed payment, not an outage', async () => {
    await settle('spt_test_once', 'ch_a');
    expect(await settle('spt_test_once', 'ch_b')).toEqual({
      paymentId: null,
      status: 'failed',
      replayed: false,
      failureCode: 'shared_payment_granted_token_used',
      failureMessage: 'This shared payment token was already used.',
    });
  });
});

describe('Stripe adapter: test money never pays in live mode', () => {
  it('refuses a test-mode SPT for a live charge without asking Stripe', async () => {
    expect(await settle('spt_test_success_live', 'ch_live', 'live')).toMatchObject({
      paymentId: null,
      status: 'failed',
      failureCode: 'shared_payment_granted_token_invalid',
    });
    expect(fake.requests).toHaveLength(0);
  });

  it('the fake, like Stripe, declines a test card under the live key (live_mode_test_card)', async () => {
    const p = processor();
    const { paymentId } = await p.createPayment({
      amountCents: 100,
      currency: 'usd',
      mode: 'live',
      idempotencyKey: 'live_card',
      metadata: META,
    });
    expect(await p.confirmPayment({ paymentId, mode: 'live', paymentMethod: 'pm_card_visa' })).toMatchObject({
      status: 'failed',
      declineCode: 'live_mode_test_card',
    });
  });
});

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
