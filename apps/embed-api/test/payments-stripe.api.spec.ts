import pino from 'pino';
import request from 'supertest';
import {
  EMBED_PAYMENT_CONFIRM_USE_STRIPE,
  EMBED_PAYMENT_UNAVAILABLE,
  type EmbedOption,
  type EmbedOptionsReady,
} from '@expedition/contracts';
import { createMoneyPath } from '@expedition/fulfillment';
import { createStripeProcessor, type StripeProcessorOptions } from '@expedition/payments';
import { startFakeStripeServer, type FakeStripeServer } from '@expedition/payments/testing';
import { signPayload } from '@expedition/webhook-signature';
import { createHarness, expectCors, fullQuote, seedTenant, SITE_ORIGIN, type Harness } from './harness';

const WHSEC = 'whsec_embed_stripe_test';
const PUBLISHABLE = { test: 'pk_test_embed_123', live: 'pk_live_embed_456' };

let fake: FakeStripeServer;
let h: Harness;
let tenant: Awaited<ReturnType<typeof seedTenant>>;

function stripe(overrides: Partial<StripeProcessorOptions> = {}) {
  return createStripeProcessor({
    testSecretKey: 'sk_test_embed_fake',
    liveSecretKey: 'sk_live_embed_fake',
    webhookSecrets: WHSEC,
    liveWebhookSecrets: WHSEC,
    host: fake.host,
    port: fake.port,
    protocol: fake.protocol,
    ...overrides,
  });
}

beforeAll(async () => {
  fake = await startFakeStripeServer();
  h = await createHarness({ payments: () => ({ processor: stripe(), stripePublishableKeys: PUBLISHABLE }) });
  tenant = await seedTenant(h.prisma);
});
afterAll(async () => {
  await h.close();
  await fake.close();
});
beforeEach(() => {
  fake.requests.length = 0;
  fake.events.length = 0;
  fake.setOutage(false);
});

const post = (app: Harness['app'], path: string, body: object, key: string) =>
  request(app).post(path).set('X-SVC-Publishable-Key', key).set('Origin', SITE_ORIGIN).send(body);

async function readyQuote(key: string): Promise<{ quoteId: string; option: EmbedOption }> {
  const created = await post(h.app, '/api/embed/quote', fullQuote, key);
  const quoteId: string = created.body.quoteId;
  await h.worker.runOnce();
  const polled = await request(h.app)
    .get(`/api/embed/options?quoteId=${quoteId}`)
    .set('X-SVC-Publishable-Key', key)
    .set('Origin', SITE_ORIGIN);
  const option = (polled.body as EmbedOptionsReady).options.find((o) => o.checkout.purchasable);
  expect(option).toBeDefined();
  return { quoteId, option: option! };
}

describe('POST /api/embed/payments with PAYMENTS_PROVIDER=stripe', () => {
  it('creates one PaymentIntent per quote + plan in test mode and hands Stripe.js the test publishable key', async () => {
    const { quoteId, option } = await readyQuote(tenant.testKey);
    const res = await post(h.app, '/api/embed/payments', { quoteId, planId: option.planId }, tenant.testKey);
    expect(res.status).toBe(200);
    expectCors(res, SITE_ORIGIN);
    expect(res.body).toEqual({
      paymentId: expect.stringMatching(/^pi_/),
      clientSecret: expect.stringMatching(/_secret_/),
      amountCents: option.premiumCents,
      currency: 'USD',
      provider: 'stripe',
      mode: 'test',
      stripePublishableKey: PUBLISHABLE.test,
    });

    const created = fake.requests.filter((r) => r.method === 'POST' && r.path === '/v1/payment_intents');
    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject({
      apiKey: 'sk_test_embed_fake',
      idempotencyKey: `embed_${quoteId}_${option.planId}`,
      body: {
        amount: String(option.premiumCents),
        currency: 'usd',
        metadata: { quoteId, planId: option.planId, operatorId: tenant.operatorId, channel: 'embed' },
      },
    });

    const again = await post(h.app, '/api/embed/payments', { quoteId, planId: option.planId }, tenant.testKey);
    expect(again.body.paymentId).toBe(res.body.paymentId);
    expect(await h.prisma.payment.count({ where: { quoteId } })).toBe(1);
  });

  it('after Stripe.js confirms, the signed Stripe event issues the policy through the intake', async () => {
    const { quoteId, option } = await readyQuote(tenant.testKey);
    const { paymentId } = (await post(h.app, '/api/embed/payments', { quoteId, planId: option.planId }, tenant.testKey))
      .body;
    // What Stripe.js does in the browser with the client secret.
    const confirmed = await stripe().confirmPayment({ paymentId, mode: 'test', paymentMethod: 'pm_card_visa' });
    expect(confirmed.status).toBe('succeeded');

    const body = JSON.stringify(fake.events.at(-1));
    const event = stripe().parseWebhookEvent(body, signPayload(body, [WHSEC], Math.floor(Date.now() / 1000)));
    const { fulfillment } = createMoneyPath({
      prisma: h.prisma,
      clock: h.clock,
      logger: pino({ level: 'silent' }),
      processor: stripe(),
    });
    expect((await fulfillment.recordProcessorEvent(event)).kind).toBe('policy_issued');
    expect(await h.prisma.purchase.findUnique({ where: { quoteId } })).toMatchObject({
      processorPaymentId: paymentId,
      channel: 'embed',
      amountCents: option.premiumCents,
    });
  });

  it('a live key uses the live secret key and the live publishable key', async () => {
    const { quoteId, option } = await readyQuote(tenant.liveKey);
    const res = await post(h.app, '/api/embed/payments', { quoteId, planId: option.planId }, tenant.liveKey);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ mode: 'live', provider: 'stripe', stripePublishableKey: PUBLISHABLE.live });
    expect(fake.requests.find((r) => r.path === '/v1/payment_intents')?.apiKey).toBe('sk_live_embed_fake');
  });

  it('the confirm and authenticate routes are for the simulated processor: 400 with CORS', async () => {
    for (const path of ['/api/embed/payments/confirm', '/api/embed/payments/authenticate']) {
      const res = await post(
        h.app,
        path,
        { paymentId: 'pi_123', paymentMethod: 'pm_card_visa', approve: true },
        tenant.testKey,
      );
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: EMBED_PAYMENT_CONFIRM_USE_STRIPE });
      expectCors(res, SITE_ORIGIN);
    }
    expect(fake.requests).toHaveLength(0);
  });

  it('a processor outage is a 400 "Payment could not be started" with CORS, and records nothing', async () => {
    const { quoteId, option } = await readyQuote(tenant.testKey);
    fake.setOutage(true);
    const res = await post(h.app, '/api/embed/payments', { quoteId, planId: option.planId }, tenant.testKey);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: EMBED_PAYMENT_UNAVAILABLE });
    expectCors(res, SITE_ORIGIN);
    expect(await h.prisma.payment.count({ where: { quoteId } })).toBe(0);
  });

  it('a mode without its publishable key, or without its secret key, cannot start payments (400)', async () => {
    const { quoteId, option } = await readyQuote(tenant.liveKey);
    const noPublishable = await createHarness({
      db: h.db,
      payments: () => ({ processor: stripe(), stripePublishableKeys: { test: PUBLISHABLE.test } }),
    });
    const noSecret = await createHarness({
      db: h.db,
      payments: () => ({ processor: stripe({ liveSecretKey: undefined }), stripePublishableKeys: PUBLISHABLE }),
    });
    for (const app of [noPublishable.app, noSecret.app]) {
      const res = await post(app, '/api/embed/payments', { quoteId, planId: option.planId }, tenant.liveKey);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: EMBED_PAYMENT_UNAVAILABLE });
    }
    expect(fake.requests).toHaveLength(0);
  });
});
