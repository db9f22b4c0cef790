import Stripe from 'stripe';
import { verifySignature } from '@expedition/webhook-signature';
import { PaymentProcessorError } from '../processor';
import { SECRET, START, META, setup, create } from './simulated-test-harness';

describe('simulated processor: payment intents and magic cards', () => {
  it('creates a pending intent with a pi_sim_ id and a client secret, idempotently', async () => {
    const { processor, posted } = setup();
    const first = await create(processor);
    expect(first).toEqual({ paymentId: 'pi_sim_id1', clientSecret: 'pi_sim_id1_secret_id2', status: 'pending' });
    expect(await create(processor)).toEqual(first);
    expect((await create(processor, 'idem_2')).paymentId).not.toBe(first.paymentId);
    expect(posted).toHaveLength(0);
  });

  it('refuses an idempotency key reused with other parameters', async () => {
    const { processor } = setup();
    await create(processor);
    await expect(
      processor.createPayment({
        amountCents: 1,
        currency: 'usd',
        mode: 'test',
        idempotencyKey: 'idem_1',
        metadata: META,
      }),
    ).rejects.toMatchObject({ code: 'idempotency_error' });
  });

  it('rejects non-integer or non-positive amounts', async () => {
    const { processor } = setup();
    const bad = (amountCents: number) =>
      processor.createPayment({
        amountCents,
        currency: 'usd',
        mode: 'test',
        idempotencyKey: `k${amountCents}`,
        metadata: META,
      });
    await expect(bad(12.5)).rejects.toBeInstanceOf(PaymentProcessorError);
    await expect(bad(0)).rejects.toMatchObject({ code: 'invalid_request' });
  });

  it('succeeds with 4242… and posts a signed payment_intent.succeeded event to the intake', async () => {
    const { processor, posted, events } = setup();
    const { paymentId } = await create(processor);
    const result = await processor.confirmPayment({ paymentId, mode: 'test', paymentMethod: '4242 4242 4242 4242' });

    expect(result).toEqual({ paymentId, status: 'succeeded' });
    expect(posted).toHaveLength(1);
    expect(posted[0]!.url).toBe('http://dispatcher.test/webhooks/processor');
    expect(posted[0]!.headers['content-type']).toBe('application/json');
    const [event] = events();
    expect(event).toMatchObject({
      id: 'evt_sim_id3',
      object: 'event',
      type: 'payment_intent.succeeded',
      livemode: false,
      created: START.getTime() / 1000,
      data: {
        object: {
          id: paymentId,
          object: 'payment_intent',
          amount: 12345,
          currency: 'usd',
          status: 'succeeded',
          metadata: { quoteId: 'q_1', planId: 'plan_std', channel: 'checkout_link' },
          last_payment_error: null,
        },
      },
    });
    expect(event.data.object.client_secret).toBeUndefined();
    expect(event.data.object.metadata).not.toHaveProperty('operatorId');
  });

  it('signs events in Stripe’s scheme: our verifier and stripe.webhooks.constructEvent both accept them', async () => {
    const { processor, posted } = setup();
    const { paymentId } = await create(processor);
    await processor.confirmPayment({ paymentId, mode: 'test', paymentMethod: '4242424242424242' });
    const { body, headers } = posted[0]!;
    const nowSec = START.getTime() / 1000;
    expect(verifySignature({ rawBody: body, header: headers['stripe-signature'], secrets: SECRET, nowSec })).toEqual({
      ok: true,
      timestamp: nowSec,
    });
    const event = Stripe.webhooks.constructEvent(
      body,
      headers['stripe-signature']!,
      SECRET,
      300,
      undefined,
      START.getTime(),
    );
    expect(event.type).toBe('payment_intent.succeeded');
  });

  it.each([
    ['4000000000000002', 'card_declined', 'generic_decline'],
    ['4000000000009995', 'card_declined', 'insufficient_funds'],
    ['4000000000000119', 'processing_error', undefined],
    ['pm_card_chargeDeclined', 'card_declined', 'generic_decline'],
  ])('declines %s with %s/%s and posts payment_intent.payment_failed', async (card, code, declineCode) => {
    const { processor, events } = setup();
    const { paymentId } = await create(processor);
    const result = await processor.confirmPayment({ paymentId, mode: 'test', paymentMethod: card });
    expect(result).toMatchObject({
      paymentId,
      status: 'failed',
      failureCode: code,
      failureMessage: expect.any(String),
    });
    expect(result.declineCode).toBe(declineCode);
    const [event] = events();
    expect(event.type).toBe('payment_intent.payment_failed');
    expect(event.data.object.status).toBe('requires_payment_method');
    expect(event.data.object.last_payment_error).toMatchObject({ type: 'card_error', code });
  });

  it('declines a card that is not a test card', async () => {
    const { processor } = setup();
    const { paymentId } = await create(processor);
    expect(
      await processor.confirmPayment({ paymentId, mode: 'test', paymentMethod: '4111111111111112' }),
    ).toMatchObject({
      status: 'failed',
      failureCode: 'card_declined',
    });
  });

  it('allows another card after a decline, but no confirmation after success', async () => {
    const { processor, events } = setup();
    const { paymentId } = await create(processor);
    await processor.confirmPayment({ paymentId, mode: 'test', paymentMethod: '4000000000000002' });
    const retry = await processor.confirmPayment({ paymentId, mode: 'test', paymentMethod: '4242424242424242' });
    expect(retry.status).toBe('succeeded');
    await expect(
      processor.confirmPayment({ paymentId, mode: 'test', paymentMethod: '4242424242424242' }),
    ).rejects.toMatchObject({ code: 'payment_intent_unexpected_state' });
    expect(events().map((e) => e.type)).toEqual(['payment_intent.payment_failed', 'payment_intent.succeeded']);
  });

  it('holds 4000002500003155 in requires_action without an event until the 3-D Secure answer', async () => {
    const { processor, events } = setup();
    const { paymentId } = await create(processor);
    expect(await processor.confirmPayment({ paymentId, mode: 'test', paymentMethod: '4000002500003155' })).toEqual({
      paymentId,
      status: 'requires_action',
    });
    expect(events()).toHaveLength(0);
    expect((await processor.completeAction({ paymentId, mode: 'test', approve: true })).status).toBe('succeeded');
    expect(events().map((e) => e.type)).toEqual(['payment_intent.succeeded']);
  });

  it('fails a rejected 3-D Secure challenge', async () => {
    const { processor, events } = setup();
    const { paymentId } = await create(processor);
    await processor.confirmPayment({ paymentId, mode: 'test', paymentMethod: '4000002500003155' });
    const result = await processor.completeAction({ paymentId, mode: 'test', approve: false });
    expect(result).toMatchObject({ status: 'failed', failureCode: 'payment_intent_authentication_failure' });
    expect(events()[0].type).toBe('payment_intent.payment_failed');
  });

  it('refuses every live-mode call unless live mode is allowed (mode_not_configured): test money cannot pay live', async () => {
    const { processor, posted } = setup();
    const live = { amountCents: 12345, currency: 'USD', mode: 'live' as const, metadata: META };
    await expect(processor.createPayment({ ...live, idempotencyKey: 'l1' })).rejects.toMatchObject({
      code: 'mode_not_configured',
    });
    await expect(
      processor.settleSharedPaymentToken({
        ...live,
        spt: 'spt_test_success_1',
        challengeId: 'ch_l',
        idempotencyKey: 'l2',
      }),
    ).rejects.toMatchObject({ code: 'mode_not_configured' });
    await expect(processor.retrievePayment({ paymentId: 'pi_sim_x', mode: 'live' })).rejects.toMatchObject({
      code: 'mode_not_configured',
    });
    expect(posted).toHaveLength(0);
  });

  it('allowed, live mode takes only simulated live money: test tokens and test cards never pay', async () => {
    const { processor, events } = setup({ allowLiveMode: true });
    const live = { amountCents: 12345, currency: 'USD', mode: 'live' as const, metadata: META };
    const settle = (spt: string, key: string) =>
      processor.settleSharedPaymentToken({ ...live, spt, challengeId: `ch_${key}`, idempotencyKey: key });
    expect(await settle('spt_test_success_1', 'l1')).toMatchObject({
      paymentId: null,
      status: 'failed',
      failureCode: 'shared_payment_granted_token_invalid',
    });
    expect(await settle('spt_live_decline_1', 'l2')).toMatchObject({
      status: 'failed',
      declineCode: 'generic_decline',
    });
    expect(await settle('spt_live_success_1', 'l3')).toMatchObject({ status: 'succeeded' });

    const { paymentId } = await processor.createPayment({ ...live, idempotencyKey: 'l4' });
    expect(
      await processor.confirmPayment({ paymentId, mode: 'live', paymentMethod: '4242424242424242' }),
    ).toMatchObject({
      status: 'failed',
      declineCode: 'live_mode_test_card',
    });
    expect(await processor.confirmPayment({ paymentId, mode: 'live', paymentMethod: 'pm_card_visa' })).toMatchObject({
      declineCode: 'live_mode_test_card',
    });
    expect(await processor.confirmPayment({ paymentId, mode: 'live', paymentMethod: 'pm_live_visa' })).toMatchObject({
      status: 'succeeded',
    });
    expect(
      events()
        .filter((e) => e.type === 'payment_intent.succeeded')
        .map((e) => e.livemode),
    ).toEqual([true, true]);
  });

  it('does not find unknown ids, nor test intents through live mode', async () => {
    const { processor } = setup({ allowLiveMode: true });
    const { paymentId } = await create(processor);
    await expect(
      processor.confirmPayment({ paymentId: 'pi_sim_nope', mode: 'test', paymentMethod: '4242424242424242' }),
    ).rejects.toMatchObject({ code: 'payment_not_found' });
    await expect(
      processor.confirmPayment({ paymentId, mode: 'live', paymentMethod: '4242424242424242' }),
    ).rejects.toMatchObject({ code: 'payment_not_found' });
  });
});
