import pino from 'pino';
import request from 'supertest';
import {
  CHECKOUT_LINK_TTL_MS,
  EMBED_INVALID_FIELDS_ERROR,
  EMBED_PAYMENT_ALREADY_PURCHASED,
  EMBED_PAYMENT_MODE_MISMATCH,
  EMBED_PAYMENT_PLAN_NOT_OFFERED,
  EMBED_PAYMENT_QUOTE_EXPIRED,
  EmbedCheckoutResultSchema,
  type EmbedOptionsReady,
} from '@expedition/contracts';
import { createRateLimiter, hashToken } from '@expedition/platform';
// The end-to-end check needs quote-api's real checkout page over the same database (a test-only import of an app).
// eslint-disable-next-line @nx/enforce-module-boundaries
import { createApp as createQuoteApi } from '@expedition/app-quote-api';
import { createSimulatedProcessor } from '@expedition/payments';
import {
  createHarness,
  expectCors,
  expectNoCors,
  fullQuote,
  OTHER_SITE_ORIGIN,
  QUOTE_API_URL,
  seedTenant,
  SITE_ORIGIN,
  WIDGET_ORIGIN,
} from './harness';
import { h, mine, theirs, useTwoTenants } from './tenants-harness';

useTwoTenants();

const checkout = (body: unknown, key = mine.testKey, origin = WIDGET_ORIGIN, app = h.app) =>
  request(app)
    .post('/api/embed/checkout')
    .set('X-SVC-Publishable-Key', key)
    .set('Origin', origin)
    .send(body as object);

async function readyQuote(key = mine.testKey, origin = WIDGET_ORIGIN, body: object = fullQuote) {
  const created = await request(h.app)
    .post('/api/embed/quote')
    .set('X-SVC-Publishable-Key', key)
    .set('Origin', origin)
    .send(body);
  expect(created.status).toBe(200);
  await h.worker.runOnce();
  const polled = await request(h.app)
    .get(`/api/embed/options?quoteId=${created.body.quoteId}`)
    .set('X-SVC-Publishable-Key', key)
    .set('Origin', origin);
  const ready = polled.body as EmbedOptionsReady;
  const option = ready.options.find((o) => o.checkout.purchasable)!;
  expect(option).toBeDefined();
  return { quoteId: created.body.quoteId as string, quoteNumber: ready.quoteNumber, planId: option.planId, option };
}

const tokenOf = (url: string) => url.split('/checkout/')[1]!;

describe('POST /api/embed/checkout: success', () => {
  it("opens quote-api's 30-minute checkout link for the key's own quote (200, CORS)", async () => {
    const { quoteId, planId, option } = await readyQuote();
    const res = await checkout({ quoteId, planId, email: 'buyer@example.com', name: 'Ada Traveler' });
    expect(res.status).toBe(200);
    expectCors(res, WIDGET_ORIGIN);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = EmbedCheckoutResultSchema.parse(res.body);
    expect(Object.keys(res.body).sort()).toEqual(['checkoutUrl', 'expiresAt']);
    expect(body.checkoutUrl).toMatch(new RegExp(`^${QUOTE_API_URL}/checkout/cs_[A-Za-z0-9_-]+$`));
    expect(Date.parse(body.expiresAt) - h.clock.now().getTime()).toBe(CHECKOUT_LINK_TTL_MS);

    const session = await h.prisma.checkoutSession.findUniqueOrThrow({
      where: { tokenHash: hashToken(tokenOf(body.checkoutUrl)) },
    });
    expect(session).toMatchObject({
      quoteId,
      planId,
      premiumCents: option.premiumCents,
      email: 'buyer@example.com',
      guestNames: ['Ada Traveler'],
    });
    expect((await h.prisma.quote.findUniqueOrThrow({ where: { id: quoteId } })).status).toBe('checkout_open');
  });

  it("the returned URL opens quote-api's checkout page for that quote and plan", async () => {
    const { quoteId, planId, quoteNumber } = await readyQuote();
    const res = await checkout({ quoteId, planId });
    const quoteApi = createQuoteApi({
      prisma: h.prisma,
      ready: () => h.db.ping(),
      logger: pino({ level: 'silent' }),
      clock: h.clock,
      publicUrl: QUOTE_API_URL,
      rateLimiter: createRateLimiter({ points: 1000, durationSec: 60 }),
      payments: {
        processor: createSimulatedProcessor({
          webhookUrl: 'http://127.0.0.1:9/x',
          webhookSecret: 'whsec_embed_checkout_test',
          clock: h.clock,
          fetch: async () => ({ status: 200 }),
        }),
        mpp: {
          secrets: ['embed-checkout-test-mpp-secret-0123456789'],
          realm: 'quote.test',
          networkId: 'profile_test',
          paymentMethodTypes: ['card'],
          challengeTtlMs: 300_000,
        },
      },
    });
    const page = await request(quoteApi).get(new URL(res.body.checkoutUrl).pathname);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.text).toContain(quoteNumber);
    expect(page.text).not.toContain('This checkout link is not valid');
  });

  it('works from the operator site too (any allowed origin), and with a live key for a live quote', async () => {
    const test = await readyQuote(mine.testKey, SITE_ORIGIN);
    expectCors(await checkout({ quoteId: test.quoteId, planId: test.planId }, mine.testKey, SITE_ORIGIN), SITE_ORIGIN);
    const live = await readyQuote(mine.liveKey);
    expect((await checkout({ quoteId: live.quoteId, planId: live.planId }, mine.liveKey)).status).toBe(200);
  });
});

describe('POST /api/embed/checkout: refusals', () => {
  it('400 invalid fields (CORS) for a missing, unparseable or wrong-typed body', async () => {
    for (const body of [
      undefined,
      {},
      { quoteId: 'x' },
      { quoteId: 1, planId: 'p' },
      { quoteId: 'x', planId: 'p', email: 'not-an-email' },
    ]) {
      const res = await checkout(body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: EMBED_INVALID_FIELDS_ERROR });
      expectCors(res, WIDGET_ORIGIN);
    }
    const raw = await request(h.app)
      .post('/api/embed/checkout')
      .set('X-SVC-Publishable-Key', mine.testKey)
      .set('Origin', WIDGET_ORIGIN)
      .set('Content-Type', 'application/json')
      .send('{"quoteId":');
    expect(raw.status).toBe(400);
    expect(raw.body).toEqual({ error: EMBED_INVALID_FIELDS_ERROR });
  });

  it('bare 403 (no CORS) for another operator’s quote, an unknown id and a malformed id: indistinguishable', async () => {
    const { quoteId, planId } = await readyQuote(theirs.testKey, OTHER_SITE_ORIGIN);
    const answers = await Promise.all([
      checkout({ quoteId, planId }),
      checkout({ quoteId: '7d1f2c3a-1111-4222-8333-944455556666', planId }),
      checkout({ quoteId: 'not-a-uuid', planId }),
    ]);
    for (const res of answers) {
      expect(res.status).toBe(403);
      expect(res.text).toBe('Forbidden');
      expectNoCors(res);
    }
    expect(await h.prisma.checkoutSession.count({ where: { quoteId } })).toBe(0);
  });

  it('400 for a plan the quote does not offer, with the payment routes’ message', async () => {
    const { quoteId } = await readyQuote();
    const res = await checkout({ quoteId, planId: 'no-such-plan' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: EMBED_PAYMENT_PLAN_NOT_OFFERED });
    expectCors(res, WIDGET_ORIGIN);
  });

  it('400 when the key mode differs from the quote mode', async () => {
    const { quoteId, planId } = await readyQuote(mine.testKey);
    const res = await checkout({ quoteId, planId }, mine.liveKey);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: EMBED_PAYMENT_MODE_MISMATCH });
  });

  it('400 for an expired quote', async () => {
    const { quoteId, planId } = await readyQuote();
    await h.prisma.quote.update({ where: { id: quoteId }, data: { expiresAt: new Date(h.clock.now().getTime() - 1) } });
    const res = await checkout({ quoteId, planId });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: EMBED_PAYMENT_QUOTE_EXPIRED });
    expectCors(res, WIDGET_ORIGIN);
  });

  it('409 for a quote already purchased', async () => {
    const { quoteId, planId } = await readyQuote();
    await h.prisma.quote.update({ where: { id: quoteId }, data: { status: 'purchased' } });
    const res = await checkout({ quoteId, planId });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: EMBED_PAYMENT_ALREADY_PURCHASED });
    expectCors(res, WIDGET_ORIGIN);
  });

  it('opens at every tier: the hosted Tier 1 page buys through the same link (the tier only decides the iframe’s Buy)', async () => {
    for (const integrationTier of [1, 2]) {
      const tenant = await seedTenant(h.prisma, { integrationTier });
      const { quoteId, planId } = await readyQuote(tenant.testKey);
      const res = await checkout({ quoteId, planId }, tenant.testKey);
      expect(res.status).toBe(200);
      expect(res.body.checkoutUrl).toEqual(expect.any(String));
      expectCors(res, WIDGET_ORIGIN);
    }
  });

  it('the gate runs first: 401 bare without a key, 403 bare for an origin not allowed', async () => {
    const noKey = await request(h.app)
      .post('/api/embed/checkout')
      .set('Origin', WIDGET_ORIGIN)
      .send({ quoteId: 'x', planId: 'y' });
    expect(noKey.status).toBe(401);
    expect(noKey.text).toBe('Unauthorized');
    expectNoCors(noKey);
    const query = await request(h.app)
      .post(`/api/embed/checkout?pk=${mine.testKey}`)
      .set('Origin', WIDGET_ORIGIN)
      .send({ quoteId: 'x', planId: 'y' });
    expect(query.status).toBe(401); // POST routes take the key from the header only
    const origin = await checkout({ quoteId: 'x', planId: 'y' }, mine.testKey, OTHER_SITE_ORIGIN);
    expect(origin.status).toBe(403);
    expect(origin.text).toBe('Forbidden');
    expectNoCors(origin);
  });

  it('preflight: 204 with the CORS headers and Max-Age 86400, no key needed; 403 without Origin', async () => {
    const res = await request(h.app)
      .options('/api/embed/checkout')
      .set('Origin', SITE_ORIGIN)
      .set('Access-Control-Request-Method', 'POST');
    expect(res.status).toBe(204);
    expectCors(res, SITE_ORIGIN);
    expect(res.headers['access-control-max-age']).toBe('86400');
    expect((await request(h.app).options('/api/embed/checkout')).status).toBe(403);
  });
});

describe('POST /api/embed/checkout: shared budget', () => {
  it('429 with Retry-After (and CORS) once the key has spent its 60 per minute on any embed route', async () => {
    const limited = await createHarness({ db: h.db, rateLimiter: createRateLimiter({ points: 60, durationSec: 60 }) });
    const { testKey } = await seedTenant(h.prisma);
    for (let i = 0; i < 60; i++) {
      const polled = await request(limited.app)
        .get('/api/embed/options?quoteId=7d1f2c3a-1111-4222-8333-944455556666')
        .set('X-SVC-Publishable-Key', testKey)
        .set('Origin', WIDGET_ORIGIN);
      expect(polled.status).toBe(403);
    }
    const res = await checkout({ quoteId: 'x', planId: 'y' }, testKey, WIDGET_ORIGIN, limited.app);
    expect(res.status).toBe(429);
    expect(res.text).toBe('Too Many Requests');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expectCors(res, WIDGET_ORIGIN);
  });
});
