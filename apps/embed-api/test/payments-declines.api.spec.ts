import { EMBED_PAYMENT_ALREADY_PURCHASED, EMBED_PAYMENT_NOT_CONFIRMABLE } from '@expedition/contracts';
import { TEST_CARDS } from '@expedition/payments';
import { expectCors, SITE_ORIGIN } from './harness';
import {
  usePaymentsApp,
  h,
  sim,
  start,
  confirm,
  authenticate,
  readyQuote,
  intake,
  receivedEvent,
} from './payments-harness';

usePaymentsApp();

describe('declines', () => {
  it('a declined card answers failed with the codes, posts payment_failed, and issues nothing; another card may follow', async () => {
    const { quoteId, option } = await readyQuote();
    const { paymentId } = (await start({ quoteId, planId: option.planId })).body;
    const declined = await confirm({ paymentId, paymentMethod: TEST_CARDS.decline });
    expect(declined.status).toBe(200);
    expectCors(declined, SITE_ORIGIN);
    expect(declined.body).toMatchObject({
      paymentId,
      status: 'failed',
      failureCode: 'card_declined',
      declineCode: 'generic_decline',
    });
    expect(declined.body.failureMessage).toEqual(expect.any(String));

    const event = receivedEvent();
    expect(event).toMatchObject({ type: 'payment.failed', sourceType: 'payment_intent.payment_failed', paymentId });
    expect((await intake().handle(event)).kind).toBe('payment_failed');
    expect(await h.prisma.purchase.findUnique({ where: { quoteId } })).toBeNull();
    expect(await h.prisma.policy.findUnique({ where: { quoteId } })).toBeNull();
    expect(await h.prisma.payment.findUnique({ where: { processorPaymentId: paymentId } })).toMatchObject({
      status: 'failed',
      failureCode: 'card_declined',
    });

    // Same intent (one per quote + plan), now with a good card.
    const again = await start({ quoteId, planId: option.planId });
    expect(again.body.paymentId).toBe(paymentId);
    expect((await confirm({ paymentId, paymentMethod: TEST_CARDS.success })).body.status).toBe('succeeded');
    expect((await intake().handle(receivedEvent(1))).kind).toBe('already_recorded');
  });

  it('an unknown card number is a test-mode decline', async () => {
    const { quoteId, option } = await readyQuote();
    const { paymentId } = (await start({ quoteId, planId: option.planId })).body;
    const res = await confirm({ paymentId, paymentMethod: '4111111111111111' });
    expect(res.body).toMatchObject({
      status: 'failed',
      failureCode: 'card_declined',
      declineCode: 'test_mode_live_card',
    });
  });

  it('3-D Secure: requires_action posts nothing, a second confirm is 409, authenticate settles it', async () => {
    const { quoteId, option } = await readyQuote();
    const { paymentId } = (await start({ quoteId, planId: option.planId })).body;
    const pending = await confirm({ paymentId, paymentMethod: TEST_CARDS.requiresAction });
    expect(pending.body).toMatchObject({ paymentId, status: 'requires_action' });
    expect(sim.events).toHaveLength(0);

    const twice = await confirm({ paymentId, paymentMethod: TEST_CARDS.success });
    expect(twice.status).toBe(409);
    expect(twice.body).toEqual({ error: EMBED_PAYMENT_NOT_CONFIRMABLE });
    expectCors(twice, SITE_ORIGIN);

    const approved = await authenticate({ paymentId, approve: true });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ paymentId, status: 'succeeded', quoteId });
    expect(receivedEvent()).toMatchObject({ type: 'payment.succeeded', paymentId });

    // The policy was recorded by the authenticate call itself: a late second one finds the quote bought.
    const late = await authenticate({ paymentId, approve: true });
    expect(late.status).toBe(409);
    expect(late.body).toEqual({ error: EMBED_PAYMENT_ALREADY_PURCHASED });
  });

  it('3-D Secure declined by the cardholder fails and leaves the intent open for another card', async () => {
    const { quoteId, option } = await readyQuote();
    const { paymentId } = (await start({ quoteId, planId: option.planId })).body;
    await confirm({ paymentId, paymentMethod: 'pm_card_authenticationRequired' });
    const refused = await authenticate({ paymentId, approve: false });
    expect(refused.body).toMatchObject({ status: 'failed', failureCode: 'payment_intent_authentication_failure' });
    expect((await confirm({ paymentId, paymentMethod: TEST_CARDS.success })).body.status).toBe('succeeded');
  });
});
