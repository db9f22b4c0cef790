import request from 'supertest';
import {
  EMBED_PAYMENT_TIER_REQUIRED,
  EMBED_SANDBOX_OPTIONS_PENDING_EMAIL,
  EMBED_SANDBOX_QUOTE_ERROR,
  EMBED_SANDBOX_QUOTE_ERROR_EMAIL,
  EMBED_SANDBOX_QUOTE_ERROR_TRIP_COST,
} from '@expedition/contracts';
import { expectCors, fullQuote, seedTenant, WIDGET_ORIGIN } from './harness';
import { h, mine, useOneTenant } from './tenants-harness';

useOneTenant();

const quote = (body: object, key: string) =>
  request(h.app).post('/api/embed/quote').set('X-SVC-Publishable-Key', key).set('Origin', WIDGET_ORIGIN).send(body);
const options = (quoteId: string, key: string) =>
  request(h.app)
    .get(`/api/embed/options?quoteId=${quoteId}`)
    .set('X-SVC-Publishable-Key', key)
    .set('Origin', WIDGET_ORIGIN);

describe('sandbox inputs (test keys only)', () => {
  it.each([
    ['trip cost 13013', { tripCost: EMBED_SANDBOX_QUOTE_ERROR_TRIP_COST }],
    ['email quote-error@sandbox.test', { email: EMBED_SANDBOX_QUOTE_ERROR_EMAIL }],
    ['the email in another case', { email: 'Quote-Error@Sandbox.Test' }],
  ])('%s: a test key gets the deterministic 400 quote error (CORS), nothing stored', async (_name, override) => {
    const before = await h.prisma.quote.count();
    const res = await quote({ ...fullQuote, ...override }, mine.testKey);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: EMBED_SANDBOX_QUOTE_ERROR });
    expect(res.body.error).toMatch(/^Sandbox: /);
    expectCors(res, WIDGET_ORIGIN);
    expect(await h.prisma.quote.count()).toBe(before);
  });

  it('a live key gets normal behaviour for the same values', async () => {
    const res = await quote(
      { ...fullQuote, tripCost: EMBED_SANDBOX_QUOTE_ERROR_TRIP_COST, email: EMBED_SANDBOX_QUOTE_ERROR_EMAIL },
      mine.liveKey,
    );
    expect(res.status).toBe(200);
    expect(res.body.quoteId).toEqual(expect.any(String));
  });

  it('invalid bodies keep the invalid-fields error (the sandbox never hides a validation error)', async () => {
    const res = await quote({ tripCost: EMBED_SANDBOX_QUOTE_ERROR_TRIP_COST }, mine.testKey);
    expect(res.body).toEqual({ error: 'Missing or invalid required fields' });
  });

  it('email options-pending@sandbox.test: a test quote stays pending even after its options are generated', async () => {
    const created = await quote({ ...fullQuote, email: EMBED_SANDBOX_OPTIONS_PENDING_EMAIL }, mine.testKey);
    expect(created.status).toBe(200);
    expect(created.body.instantQuoteEligible).toBe(true);
    await h.worker.runOnce();
    expect((await h.prisma.quote.findUniqueOrThrow({ where: { id: created.body.quoteId } })).optionsStatus).toBe(
      'ready',
    );
    for (let i = 0; i < 3; i++) {
      const res = await options(created.body.quoteId, mine.testKey);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ options: [], pending: true });
      expectCors(res, WIDGET_ORIGIN);
    }
  });

  it('the same email on a live quote: options become ready as usual', async () => {
    const created = await quote({ ...fullQuote, email: EMBED_SANDBOX_OPTIONS_PENDING_EMAIL }, mine.liveKey);
    await h.worker.runOnce();
    const res = await options(created.body.quoteId, mine.liveKey);
    expect(res.body.pending).toBeUndefined();
    expect(res.body.options.length).toBeGreaterThan(0);
  });
});

describe('Tier 3 payment routes need integration tier 3', () => {
  it.each([1, 2])('tier %i: 400 { error } with CORS on start, confirm and authenticate', async (tier) => {
    const low = await seedTenant(h.prisma, { integrationTier: tier });
    for (const [path, body] of [
      ['/api/embed/payments', { quoteId: 'x', planId: 'y' }],
      ['/api/embed/payments/confirm', { paymentId: 'pi_x', paymentMethod: '4242424242424242' }],
      ['/api/embed/payments/authenticate', { paymentId: 'pi_x', approve: true }],
    ] as const) {
      const res = await request(h.app)
        .post(path)
        .set('X-SVC-Publishable-Key', low.testKey)
        .set('Origin', WIDGET_ORIGIN)
        .send(body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: EMBED_PAYMENT_TIER_REQUIRED });
      expectCors(res, WIDGET_ORIGIN);
    }
  });

  it('tier 3: the routes answer as before (here: a bare 403 for an unknown quote)', async () => {
    const res = await request(h.app)
      .post('/api/embed/payments')
      .set('X-SVC-Publishable-Key', mine.testKey)
      .set('Origin', WIDGET_ORIGIN)
      .send({ quoteId: '7d1f2c3a-1111-4222-8333-944455556666', planId: 'y' });
    expect(res.status).toBe(403);
  });
});
