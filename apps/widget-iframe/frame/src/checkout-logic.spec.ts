import type { EmbedOption } from '@expedition/contracts';
import { luminance } from './appearance';
import widgetEn from '@expedition/i18n/widget/en';
import { luhn, validateCard } from './card';
import { sortOptions } from './options';
import { stripeOutcome } from './stripe';

describe('card form', () => {
  const now = new Date('2026-11-23T12:00:00Z');
  it('accepts the test cards and a future expiry', () => {
    for (const n of ['4242 4242 4242 4242', '4000 0000 0000 0002', '4000-0025-0000-3155']) {
      expect(validateCard({ number: n, expiry: '12/30', cvc: '123' }, widgetEn.validation, now)).toEqual({});
    }
  });
  it('refuses a bad number, a past or malformed expiry and a bad CVC', () => {
    expect(
      validateCard({ number: '4242 4242 4242 4241', expiry: '10/26', cvc: '12' }, widgetEn.validation, now),
    ).toEqual({
      number: 'Check the card number.',
      expiry: 'This card has expired.',
      cvc: 'The security code has 3 or 4 digits.',
    });
    expect(validateCard({ number: '', expiry: '13/30', cvc: '' }, widgetEn.validation, now)).toMatchObject({
      expiry: 'Use the format MM/YY.',
    });
    expect(luhn('79927398713')).toBe(true);
  });
});

describe('Stripe confirmPayment result', () => {
  it('maps success, processing and errors', () => {
    expect(stripeOutcome({ paymentIntent: { id: 'pi', status: 'succeeded', amount: 41234 } })).toEqual({
      kind: 'succeeded',
      amountCents: 41234,
    });
    expect(stripeOutcome({ paymentIntent: { id: 'pi', status: 'processing' } })).toEqual({ kind: 'processing' });
    expect(
      stripeOutcome({
        error: {
          type: 'card_error',
          code: 'card_declined',
          decline_code: 'insufficient_funds',
          message: 'Your card has insufficient funds.',
        },
      }),
    ).toEqual({
      kind: 'failed',
      code: 'insufficient_funds',
      message: 'Your card has insufficient funds.',
    });
    expect(stripeOutcome({ paymentIntent: { id: 'pi', status: 'requires_payment_method' } })).toMatchObject({
      kind: 'failed',
      code: 'requires_payment_method',
    });
  });
});

describe('plan order and appearance', () => {
  const option = (planId: string, isRecommended = false) => ({ planId, isRecommended }) as EmbedOption;
  it('puts the recommended plan first', () => {
    expect(sortOptions([option('a'), option('b', true), option('c')], null).map((o) => o.planId)).toEqual([
      'b',
      'a',
      'c',
    ]);
    expect(sortOptions([option('a'), option('b'), option('c')], 'c').map((o) => o.planId)).toEqual(['c', 'a', 'b']);
  });
  it('measures accent luminance for readable button text', () => {
    expect(luminance('#ffffff')).toBeCloseTo(1);
    expect(luminance('#000')).toBe(0);
    expect(luminance('rebeccapurple')).toBeUndefined();
  });
});
