import { hashToken } from '@expedition/platform';
import request from 'supertest';
import { CheckoutResponseSchema } from '@expedition/contracts';
import { antarcticaQuote, createHarness, PUBLIC_URL, type Harness } from './harness';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

async function newQuote(body: object = antarcticaQuote) {
  const res = await request(h.app).post('/api/v1/quotes').send(body);
  expect(res.status).toBe(200);
  return res.body as {
    quoteId: string;
    sessionId: string;
    quoteNumber: string;
    plans: { planId: string; estimatedPremiumCents: number; availabilityMode: string }[];
  };
}

const tokenOf = (url: string) => new URL(url).pathname.split('/').pop()!;

describe('POST /api/v1/checkout', () => {
  it('opens a 30-minute checkout session and returns its URL', async () => {
    const q = await newQuote();
    const plan = q.plans[0]!;
    const res = await request(h.app).post('/api/v1/checkout').send({
      quoteId: q.quoteId,
      planId: plan.planId,
      sessionId: q.sessionId,
      agentSummary: 'Two divers, one aged 52.',
    });
    expect(res.status).toBe(200);
    const body = CheckoutResponseSchema.parse(res.body);
    expect(body.checkoutUrl.startsWith(`${PUBLIC_URL}/checkout/cs_`)).toBe(true);

    const session = await h.db.prisma.checkoutSession.findUniqueOrThrow({
      where: { tokenHash: hashToken(tokenOf(body.checkoutUrl)) },
    });
    expect(session.expiresAt.getTime() - h.clock.now().getTime()).toBe(30 * 60 * 1000);
    expect(session).toMatchObject({
      quoteId: q.quoteId,
      planId: plan.planId,
      premiumCents: plan.estimatedPremiumCents,
      status: 'open',
    });
    expect((await h.db.prisma.quote.findUniqueOrThrow({ where: { id: q.quoteId } })).status).toBe('checkout_open');
  });

  it('answers 400 when required fields are missing', async () => {
    const res = await request(h.app).post('/api/v1/checkout').send({ quoteId: 'x' });
    expect(res.status).toBe(400);
    expect(res.body.details.map((d: { path: string }) => d.path).sort()).toEqual(['planId', 'sessionId']);
  });

  it('answers 404 for an unknown or malformed quote id', async () => {
    const unknown = await request(h.app)
      .post('/api/v1/checkout')
      .send({ quoteId: '7d1f2c3a-1111-4222-8333-944455556666', planId: 'p', sessionId: 's' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('quote_not_found');
    const malformed = await request(h.app)
      .post('/api/v1/checkout')
      .send({ quoteId: 'nope', planId: 'p', sessionId: 's' });
    expect(malformed.status).toBe(404);
  });

  it('answers 403 when the session does not belong to the quote', async () => {
    const q = await newQuote();
    const other = await newQuote();
    const res = await request(h.app)
      .post('/api/v1/checkout')
      .send({ quoteId: q.quoteId, planId: q.plans[0]!.planId, sessionId: other.sessionId });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('session_mismatch');
  });

  it('answers 400 invalid_plan for a plan that is not among the quote plans', async () => {
    const q = await newQuote();
    const res = await request(h.app)
      .post('/api/v1/checkout')
      .send({ quoteId: q.quoteId, planId: 'savanna-guard-basic-nope', sessionId: q.sessionId });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_plan');
    expect(await h.db.prisma.checkoutSession.count({ where: { quoteId: q.quoteId } })).toBe(0);
  });

  it('answers 409 for a quote already purchased and 410 for an expired quote', async () => {
    const q = await newQuote();
    await h.db.prisma.quote.update({ where: { id: q.quoteId }, data: { status: 'purchased' } });
    const paid = await request(h.app)
      .post('/api/v1/checkout')
      .send({ quoteId: q.quoteId, planId: q.plans[0]!.planId, sessionId: q.sessionId });
    expect(paid.status).toBe(409);
    expect(paid.body.code).toBe('already_purchased');

    const old = await newQuote();
    await h.db.prisma.quote.update({
      where: { id: old.quoteId },
      data: { expiresAt: new Date(h.clock.now().getTime() - 1) },
    });
    const expired = await request(h.app)
      .post('/api/v1/checkout')
      .send({ quoteId: old.quoteId, planId: old.plans[0]!.planId, sessionId: old.sessionId });
    expect(expired.status).toBe(410);
    expect(expired.body.code).toBe('quote_expired');
  });
});

describe('GET /checkout/{token}', () => {
  it('shows the quote summary, plan, premium, agent summary (escaped) and time left', async () => {
    const q = await newQuote();
    const open = await request(h.app).post('/api/v1/checkout').send({
      quoteId: q.quoteId,
      planId: q.plans[0]!.planId,
      sessionId: q.sessionId,
      agentSummary: 'Wants evacuation cover <script>alert(1)</script>',
    });
    const page = await request(h.app).get(new URL(open.body.checkoutUrl).pathname);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(page.headers['content-security-policy']).toMatch(/frame-ancestors 'none'/);
    expect(page.text).toContain(q.quoteNumber);
    expect(page.text).toContain('30 minutes');
    expect(page.text).toContain('Wants evacuation cover &lt;script&gt;');
    expect(page.text).not.toContain('<script>alert(1)</script>');
    const dollars = (q.plans[0]!.estimatedPremiumCents / 100).toLocaleString('en-US', { minimumFractionDigits: 2 });
    expect(page.text).toContain(dollars);
  });

  it('says clearly when the link has expired (after 30 minutes)', async () => {
    const q = await newQuote();
    const open = await request(h.app)
      .post('/api/v1/checkout')
      .send({ quoteId: q.quoteId, planId: q.plans[0]!.planId, sessionId: q.sessionId });
    h.clock.advance(30 * 60 * 1000);
    const page = await request(h.app).get(new URL(open.body.checkoutUrl).pathname);
    expect(page.status).toBe(410);
    expect(page.text).toMatch(/has expired/);
  });

  it('says clearly when the link is unknown', async () => {
    const page = await request(h.app).get('/checkout/cs_thisTokenDoesNotExistAnywhere1234567890');
    expect(page.status).toBe(404);
    expect(page.text).toMatch(/not valid/);
    expect((await request(h.app).get('/checkout/garbage')).status).toBe(404);
  });
});
