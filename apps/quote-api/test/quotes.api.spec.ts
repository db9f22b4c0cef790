import request from 'supertest';
import { QUOTE_DISCLAIMER, QuoteResponseSchema } from '@expedition/contracts';
import { hashToken } from '@expedition/platform';
import { loadQuoteApiConfig } from '../src/index';
import { antarcticaQuote, createHarness, type Harness } from './harness';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

describe('POST /api/v1/quotes', () => {
  it('returns every eligible plan with the recommended one first, and stores the quote', async () => {
    const res = await request(h.app).post('/api/v1/quotes').send(antarcticaQuote);
    expect(res.status).toBe(200);
    const quote = QuoteResponseSchema.parse(res.body);
    expect(quote.quoteNumber).toMatch(/^EXP-[23456789ABCDEFGHJKMNPQRSTVWXYZ]{4}$/);
    expect(quote.plans.length).toBeGreaterThan(1);
    expect(quote.plans[0]!.isRecommended).toBe(true);
    expect(quote.plans.filter((p) => p.isRecommended)).toHaveLength(1);
    expect(quote.recommendedPlan).toBe(quote.plans[0]!.planName);
    expect(quote.tripSummary).toMatchObject({
      destination: { slug: 'antarctica' },
      startDate: '2027-01-10',
      endDate: '2027-01-24',
      durationDays: 14,
      travelers: 2,
      tripCost: 24000,
      tripCostCents: 2_400_000,
    });
    for (const plan of quote.plans) {
      expect(plan.travelerPremiumsCents.reduce((a, b) => a + b, 0)).toBe(plan.estimatedPremiumCents);
      expect(plan.estimatedPremium).toBe(plan.estimatedPremiumCents / 100);
    }

    const stored = await h.db.prisma.quote.findUniqueOrThrow({
      where: { id: quote.quoteId },
      include: { estimates: { orderBy: { rank: 'asc' } } },
    });
    // The sessionId is a bearer secret: only its hash is stored.
    expect(stored).toMatchObject({
      source: 'api',
      quoteNumber: quote.quoteNumber,
      sessionIdHash: hashToken(quote.sessionId),
    });
    expect(JSON.stringify(stored)).not.toContain(quote.sessionId);
    expect(stored.estimates.map((e) => e.planId)).toEqual(quote.plans.map((p) => p.planId));
    expect(stored.estimates[0]!.premiumCents).toBe(quote.plans[0]!.estimatedPremiumCents);
  });

  it('carries the disclaimer with its three statements', async () => {
    const res = await request(h.app).post('/api/v1/quotes').send(antarcticaQuote);
    expect(res.body.disclaimer).toBe(QUOTE_DISCLAIMER);
    expect(res.body.disclaimer).toMatch(/AI assistant/);
    expect(res.body.disclaimer).toMatch(/estimates.*not a binding contract/s);
    expect(res.body.disclaimer).toMatch(/logged for analysis and improvement/);
  });

  it('charges travelers aged 70 and over significantly more', async () => {
    const young = await request(h.app)
      .post('/api/v1/quotes')
      .send({ ...antarcticaQuote, travelerAges: [69, 69] });
    const old = await request(h.app)
      .post('/api/v1/quotes')
      .send({ ...antarcticaQuote, travelerAges: [70, 70] });
    const premium = (r: request.Response, id: string) =>
      r.body.plans.find((p: { planId: string }) => p.planId === id)?.estimatedPremiumCents as number;
    const id = young.body.plans[0].planId;
    expect(premium(old, id)).toBeGreaterThan(premium(young, id) * 1.3);
  });

  it('accepts a destination by slug and normalizes the residence', async () => {
    const res = await request(h.app)
      .post('/api/v1/quotes')
      .send({ ...antarcticaQuote, destination: 'african-safari', residence: 'us', state: 'ca' });
    expect(res.status).toBe(200);
    expect(res.body.tripSummary).toMatchObject({
      residence: 'US',
      state: 'CA',
      destination: { slug: 'african-safari' },
    });
  });

  it.each(['destination', 'startDate', 'durationDays', 'tripCost', 'travelers', 'travelerAges', 'residence'])(
    'answers 400 naming the field when %s is missing, and stores nothing',
    async (field) => {
      const before = await h.db.prisma.quote.count();
      const body: Record<string, unknown> = { ...antarcticaQuote };
      delete body[field];
      const res = await request(h.app).post('/api/v1/quotes').send(body);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('invalid_request');
      expect(res.body.error).toContain(field);
      expect(res.body.details).toEqual(expect.arrayContaining([{ path: field, message: 'is required' }]));
      expect(await h.db.prisma.quote.count()).toBe(before);
    },
  );

  it('answers 400 for wrong types, a missing US state, and mismatched ages', async () => {
    const wrongType = await request(h.app)
      .post('/api/v1/quotes')
      .send({ ...antarcticaQuote, tripCost: '24000' });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.details[0].path).toBe('tripCost');
    const noState = await request(h.app)
      .post('/api/v1/quotes')
      .send({ ...antarcticaQuote, residence: 'US' });
    expect(noState.status).toBe(400);
    expect(noState.body.details[0].path).toBe('state');
    const ages = await request(h.app)
      .post('/api/v1/quotes')
      .send({ ...antarcticaQuote, travelerAges: [40] });
    expect(ages.status).toBe(400);
  });

  it('answers 400 unknown_destination for a destination we do not cover', async () => {
    const res = await request(h.app)
      .post('/api/v1/quotes')
      .send({ ...antarcticaQuote, destination: 'Mars' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('unknown_destination');
  });

  it('answers 400 invalid_request naming currency for a currency other than USD (the pricing engine refuses it)', async () => {
    const res = await request(h.app)
      .post('/api/v1/quotes')
      .send({ ...antarcticaQuote, currency: 'eur' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'invalid_request', error: 'only USD trip costs can be priced' });
    expect(res.body.details).toEqual([{ path: 'currency', message: 'only USD trip costs can be priced' }]);
    expect(await h.db.prisma.quote.count({ where: { currency: { not: 'USD' } } })).toBe(0);
  });

  it('answers 400 for a departure in the past', async () => {
    const res = await request(h.app)
      .post('/api/v1/quotes')
      .send({ ...antarcticaQuote, startDate: '2020-01-01' });
    expect(res.status).toBe(400);
    expect(res.body.details[0].path).toBe('startDate');
  });

  it('answers 400 invalid_json for a body that is not JSON, and 413 beyond 64 KiB', async () => {
    const bad = await request(h.app)
      .post('/api/v1/quotes')
      .set('Content-Type', 'application/json')
      .send('{"destination":');
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('invalid_json');
    const big = await request(h.app)
      .post('/api/v1/quotes')
      .send({ ...antarcticaQuote, operator: 'x'.repeat(70 * 1024) });
    expect(big.status).toBe(413);
    expect(big.body.code).toBe('payload_too_large');
  });

  it('notes CFAR eligibility from the deposit date', async () => {
    const res = await request(h.app)
      .post('/api/v1/quotes')
      .send({ ...antarcticaQuote, depositPaidDate: '2026-11-10' });
    const cfar = res.body.plans.filter((p: { cfarEligible: boolean }) => p.cfarEligible);
    expect(cfar.length).toBeGreaterThan(0);
    expect(cfar[0].notes).toMatch(/any.reason/i);
  });
});

describe('POST /api/v1/quotes operator attribution', () => {
  it('attributes the quote to an active operator given by its id (exactly), else keeps the text as its name', async () => {
    const op = await h.db.prisma.operator.create({ data: { name: 'Polar Horizons Expeditions', status: 'active' } });
    const dormant = await h.db.prisma.operator.create({ data: { name: 'Dormant Voyages', status: 'suspended' } });
    const byId = await request(h.app)
      .post('/api/v1/quotes')
      .send({ ...antarcticaQuote, operator: ` ${op.id} ` });
    const byName = await request(h.app)
      .post('/api/v1/quotes')
      .send({ ...antarcticaQuote, operator: 'Polar Horizons Expeditions' });
    const suspended = await request(h.app)
      .post('/api/v1/quotes')
      .send({ ...antarcticaQuote, operator: dormant.id });
    const unknown = await request(h.app)
      .post('/api/v1/quotes')
      .send({ ...antarcticaQuote, operator: 'Someone Else' });
    const row = (id: string) => h.db.prisma.quote.findUniqueOrThrow({ where: { id } });
    expect((await row(byId.body.quoteId)).operatorId).toBe(op.id);
    expect((await row(byName.body.quoteId)).operatorId).toBeNull();
    expect((await row(suspended.body.quoteId)).operatorId).toBeNull();
    expect(await row(unknown.body.quoteId)).toMatchObject({ operatorId: null, operatorName: 'Someone Else' });
    expect(unknown.body.tripSummary.operator).toBe('Someone Else');
  });
});

describe('payment mode of /api/v1 quotes', () => {
  it('creates test-mode quotes by default and live ones when the app runs in live mode', async () => {
    const test = await request(h.app).post('/api/v1/quotes').send(antarcticaQuote);
    expect((await h.db.prisma.quote.findUniqueOrThrow({ where: { id: test.body.quoteId } })).mode).toBe('test');
    const live = await createHarness({ mode: 'live' });
    const res = await request(live.app).post('/api/v1/quotes').send(antarcticaQuote);
    expect((await live.db.prisma.quote.findUniqueOrThrow({ where: { id: res.body.quoteId } })).mode).toBe('live');
    await live.close();
  });

  it('refuses QUOTE_API_MODE=live without Stripe live keys', () => {
    expect(() => loadQuoteApiConfig({ QUOTE_API_MODE: 'live' })).toThrow(/STRIPE_LIVE_SECRET_KEY/);
    expect(
      loadQuoteApiConfig({
        QUOTE_API_MODE: 'live',
        PAYMENTS_PROVIDER: 'stripe',
        STRIPE_TEST_SECRET_KEY: 'sk_test_x',
        STRIPE_LIVE_SECRET_KEY: 'sk_live_x',
        STRIPE_WEBHOOK_SECRET: 'whsec_x',
        MPP_SECRET_KEY: 'x'.repeat(40),
      }).mode,
    ).toBe('live');
  });
});
