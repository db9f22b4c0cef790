import { normalizeStripeEvent, toPaymentStatus } from './stripe-format';

const intent = {
  id: 'pi_1',
  object: 'payment_intent',
  amount: 4200,
  currency: 'usd',
  status: 'succeeded',
  livemode: false,
  metadata: { quoteId: 'q_1', planId: 'p_1', channel: 'mpp', ignored: 5 },
  last_payment_error: null,
};
const event = (type: string, object: unknown, livemode = false) => ({
  id: 'evt_1',
  object: 'event',
  type,
  created: 1,
  livemode,
  data: { object },
});

describe('normalizeStripeEvent', () => {
  it('maps payment_intent.succeeded', () => {
    const raw = event('payment_intent.succeeded', intent);
    expect(normalizeStripeEvent(raw)).toEqual({
      id: 'evt_1',
      type: 'payment.succeeded',
      sourceType: 'payment_intent.succeeded',
      mode: 'test',
      paymentId: 'pi_1',
      amountCents: 4200,
      currency: 'usd',
      metadata: { quoteId: 'q_1', planId: 'p_1', channel: 'mpp' },
      raw,
    });
  });

  it('maps payment_intent.payment_failed with its error codes, and livemode to live', () => {
    const failed = {
      ...intent,
      status: 'requires_payment_method',
      last_payment_error: {
        type: 'card_error',
        code: 'card_declined',
        decline_code: 'insufficient_funds',
        message: 'No funds',
      },
    };
    expect(normalizeStripeEvent(event('payment_intent.payment_failed', failed, true))).toMatchObject({
      type: 'payment.failed',
      mode: 'live',
      paymentId: 'pi_1',
      failureCode: 'card_declined',
      declineCode: 'insufficient_funds',
      failureMessage: 'No funds',
    });
  });

  it('maps a paid checkout.session.completed onto its PaymentIntent', () => {
    const session = {
      id: 'cs_1',
      payment_status: 'paid',
      payment_intent: 'pi_9',
      amount_total: 999,
      currency: 'eur',
      metadata: { quoteId: 'q' },
    };
    expect(normalizeStripeEvent(event('checkout.session.completed', session))).toMatchObject({
      type: 'payment.succeeded',
      paymentId: 'pi_9',
      amountCents: 999,
      currency: 'eur',
      checkoutSessionId: 'cs_1',
      metadata: { quoteId: 'q' },
    });
  });

  it('treats an unpaid completed session (async method) and unknown types as other', () => {
    const session = {
      id: 'cs_1',
      payment_status: 'unpaid',
      payment_intent: 'pi_9',
      amount_total: 999,
      currency: 'eur',
    };
    expect(normalizeStripeEvent(event('checkout.session.completed', session))?.type).toBe('other');
    expect(normalizeStripeEvent(event('charge.refunded', {}))).toMatchObject({
      type: 'other',
      sourceType: 'charge.refunded',
    });
    expect(normalizeStripeEvent(event('payment_intent.succeeded', { id: 'pi_1' }))?.type).toBe('other');
  });

  it('returns undefined for something that is not an event', () => {
    expect(normalizeStripeEvent(null)).toBeUndefined();
    expect(normalizeStripeEvent({ type: 'x' })).toBeUndefined();
  });
});

describe('toPaymentStatus', () => {
  it.each([
    ['succeeded', null, 'succeeded'],
    ['requires_action', null, 'requires_action'],
    ['processing', null, 'processing'],
    ['requires_capture', null, 'processing'],
    ['canceled', null, 'canceled'],
    ['requires_payment_method', null, 'pending'],
    ['requires_payment_method', { code: 'card_declined' }, 'failed'],
    ['requires_confirmation', null, 'pending'],
  ])('%s (error %j) → %s', (status, error, expected) => {
    expect(toPaymentStatus(status, error)).toBe(expected);
  });
});
