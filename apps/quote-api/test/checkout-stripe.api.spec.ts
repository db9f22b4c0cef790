import pino from 'pino';
import request from 'supertest';
import { createRateLimiter } from '@expedition/platform';
import { createStripeProcessor } from '@expedition/payments';
import { startFakeStripeServer, type FakeStripeServer } from '@expedition/payments/testing';
import { createApp } from '../src/app';
import { antarcticaQuote, createHarness, MPP_NETWORK_ID, MPP_TEST_SECRET, type Harness } from './harness';

/** PAYMENTS_PROVIDER=stripe: the checkout link shows Stripe's Payment Element (real adapter, offline fake Stripe). */
let fake: FakeStripeServer;
let h: Harness;
beforeAll(async () => {
  fake = await startFakeStripeServer();
  const processor = createStripeProcessor({
    testSecretKey: 'sk_test_checkout',
    webhookSecrets: ['whsec_checkout'],
    host: fake.host,
    port: fake.port,
    protocol: fake.protocol,
  });
  h = await createHarness();
  h.app = createApp({
    prisma: h.db.prisma,
    ready: () => h.db.ping(),
    logger: pino({ level: 'silent' }),
    clock: h.clock,
    publicUrl: 'http://quote.test',
    rateLimiter: createRateLimiter({ points: 1000, durationSec: 60 }),
    payments: {
      processor,
      mpp: { secrets: [MPP_TEST_SECRET], realm: 'quote.test', networkId: MPP_NETWORK_ID, paymentMethodTypes: ['card'], challengeTtlMs: 300_000 },
      stripePublishableKeys: { test: 'pk_test_checkoutpage' },
    },
  });
});
afterAll(async () => {
  await h.close();
  await fake.close();
});

async function openLink() {
  const q = (await request(h.app).post('/api/v1/quotes').send(antarcticaQuote)).body;
  const link = await request(h.app)
    .post('/api/v1/checkout')
    .send({ quoteId: q.quoteId, planId: q.plans[0].planId, sessionId: q.sessionId });
  return { path: new URL(link.body.checkoutUrl).pathname, premiumCents: q.plans[0].estimatedPremiumCents as number };
}

describe('checkout link with Stripe', () => {
  it("renders Stripe's Payment Element for the link's one PaymentIntent, with a CSP that admits only Stripe", async () => {
    const { path, premiumCents } = await openLink();
    const first = await request(h.app).get(path);
    expect(first.status).toBe(200);
    expect(first.text).toContain('https://js.stripe.com/v3/');
    expect(first.text).toContain('pk_test_checkoutpage');
    expect(first.text).not.toContain('name="cardNumber"');
    const secret = /"clientSecret":"([^"]+)"/.exec(first.text)![1]!;
    expect(secret).toMatch(/^pi_.+_secret_/);
    const csp = first.headers['content-security-policy'];
    expect(csp).toMatch(/script-src 'nonce-[^']+' https:\/\/js\.stripe\.com/);
    expect(csp).toMatch(/frame-src https:\/\/js\.stripe\.com/);
    expect(csp).toMatch(/frame-ancestors 'none'/);

    const again = await request(h.app).get(path);
    expect(/"clientSecret":"([^"]+)"/.exec(again.text)![1]).toBe(secret);
    const created = fake.requests.filter((r) => r.method === 'POST' && r.path === '/v1/payment_intents');
    expect(created.length).toBeGreaterThan(0);
    expect(new Set(created.map((r) => r.idempotencyKey)).size).toBe(1);
    expect(created[0]!.body).toMatchObject({ amount: String(premiumCents), currency: 'usd' });
  });

  it('shows progress after Stripe redirects back, and refuses the raw card form', async () => {
    const { path } = await openLink();
    const back = await request(h.app).get(`${path}?payment_intent=pi_x&redirect_status=succeeded`);
    expect(back.text).toContain('Your policy is being issued');
    const posted = await request(h.app).post(`${path}/pay`).type('form').send({ cardNumber: '4242424242424242' });
    expect(posted.status).toBe(402);
    expect(posted.text).toContain('Pay with the secure form on this page.');
  });
});
