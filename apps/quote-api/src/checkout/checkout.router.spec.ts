import express from 'express';
import request from 'supertest';
import { checkoutPageRouter } from './checkout.router';
import type { CheckoutService } from './checkout.service';
import type { CheckoutReceiptRepository } from './checkout-receipt.repository';

/**
 * The second of two submits of one link at the same moment: its claim is busy, and by the time it looks again the first
 * has paid. It must answer as the first did (303 to the link, which shows the receipt), never a page at the POST URL
 * that a refresh would post again. The race itself is in test/checkout-pay.api.spec.ts; here it is made certain.
 */
describe('POST /checkout/{token}/pay after the link was paid by a concurrent submit', () => {
  it('redirects (303) to the link, as the submit that paid does', async () => {
    const checkout = {
      pay: async () => ({ outcome: 'busy', message: 'A payment of this quote is in progress.' }),
      view: async () => ({ state: 'paid', session: { status: 'paid' } }),
    } as unknown as CheckoutService;
    const app = express().use(
      checkoutPageRouter({
        checkout,
        ui: { kind: 'card-form', testMode: true },
        receipts: {} as CheckoutReceiptRepository,
      }),
    );

    const res = await request(app)
      .post('/checkout/cs_test_token/pay')
      .type('form')
      .send({ cardNumber: '4242424242424242' });

    expect(res.status).toBe(303);
    expect(res.headers['location']).toBe('/checkout/cs_test_token');
  });
});
