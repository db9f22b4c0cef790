import request from 'supertest';
import { EMBED_SANDBOX_QUOTE_ERROR, QUOTE_API_SANDBOX } from '@expedition/contracts';
import {
  formatAuthorizationPayment,
  parsePaymentChallenges,
  TEST_CARDS,
  TEST_SPT_PREFIXES,
} from '@expedition/payments';
import { antarcticaQuote, createHarness, type Harness } from './harness';

/** Sandbox inputs for agents (issue 10 §4): test mode forces a quote refusal and a payment decline, deterministically. */

let h: Harness;
let live: Harness;
beforeAll(async () => {
  h = await createHarness();
  live = await createHarness({ mode: 'live' });
});
afterAll(async () => {
  await h.close();
  await live.close();
});

const digits = (card: string) => card.replace(/\s/g, '');

describe('sandbox values', () => {
  it('are the processor magic values the simulated processor understands', () => {
    expect(digits(QUOTE_API_SANDBOX.declinedCard)).toBe(TEST_CARDS.decline);
    expect(digits(QUOTE_API_SANDBOX.successCard)).toBe('4242424242424242');
    expect(QUOTE_API_SANDBOX.declinedSptPrefix).toBe(TEST_SPT_PREFIXES.decline);
  });

  it('are written into the OpenAPI document', async () => {
    const doc = (await request(h.app).get('/api/v1/openapi.json')).body as {
      info: { description: string };
      paths: Record<string, { post?: { description?: string } }>;
    };
    expect(doc.info.description).toContain('## Sandbox (test mode)');
    expect(doc.paths['/api/v1/quotes']!.post!.description).toContain(String(QUOTE_API_SANDBOX.quoteRefusal.tripCost));
    expect(doc.paths['/api/v1/quotes']!.post!.description).toContain(QUOTE_API_SANDBOX.quoteRefusal.email);
    expect(doc.paths['/api/v1/checkout']!.post!.description).toContain(QUOTE_API_SANDBOX.declinedCard);
    expect(doc.paths['/api/v1/purchase']!.post!.description).toContain(QUOTE_API_SANDBOX.declinedSptPrefix);
  });
});

describe('POST /api/v1/quotes: forced refusal (test mode)', () => {
  it.each([
    ['tripCost', { tripCost: QUOTE_API_SANDBOX.quoteRefusal.tripCost }],
    ['email', { email: QUOTE_API_SANDBOX.quoteRefusal.email.toUpperCase() }],
  ])('refuses the sandbox %s with 400 invalid_request and stores nothing', async (path, change) => {
    const before = await h.db.prisma.quote.count();
    const res = await request(h.app)
      .post('/api/v1/quotes')
      .send({ ...antarcticaQuote, ...change });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_request');
    expect(res.body.error).toBe(EMBED_SANDBOX_QUOTE_ERROR);
    expect(res.body.error.startsWith('Sandbox:')).toBe(true);
    expect(res.body.details.map((d: { path: string }) => d.path)).toEqual([path]);
    expect(await h.db.prisma.quote.count()).toBe(before);
  });

  it('prices a neighbouring trip cost normally', async () => {
    const res = await request(h.app)
      .post('/api/v1/quotes')
      .send({ ...antarcticaQuote, tripCost: QUOTE_API_SANDBOX.quoteRefusal.tripCost + 1 });
    expect(res.status).toBe(200);
  });

  it('prices the same values normally in live mode', async () => {
    const res = await request(live.app)
      .post('/api/v1/quotes')
      .send({ ...antarcticaQuote, tripCost: QUOTE_API_SANDBOX.quoteRefusal.tripCost });
    expect(res.status).toBe(200);
    expect(res.body.quoteId).toEqual(expect.any(String));
  });
});

describe('forced payment decline (test mode)', () => {
  async function newQuote() {
    const res = await request(h.app).post('/api/v1/quotes').send(antarcticaQuote);
    const plan = (res.body.plans as { planId: string; availabilityMode: string }[]).find(
      (p) => p.availabilityMode === 'full',
    )!;
    return { quoteId: res.body.quoteId as string, sessionId: res.body.sessionId as string, planId: plan.planId };
  }

  it('POST /api/v1/purchase with a decline token answers 402 verification-failed and a fresh challenge; nothing is bought', async () => {
    const q = await newQuote();
    const first = await request(h.app).post('/api/v1/purchase').send({ quoteId: q.quoteId, planId: q.planId });
    const [challenge] = parsePaymentChallenges(first.headers['www-authenticate'] as string);
    const authorization = formatAuthorizationPayment({
      challenge: challenge!,
      payload: { spt: `${QUOTE_API_SANDBOX.declinedSptPrefix}_agent_1` },
    });
    const res = await request(h.app)
      .post('/api/v1/purchase')
      .set('Authorization', authorization)
      .send({ quoteId: q.quoteId, planId: q.planId });
    expect(res.status).toBe(402);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body.type).toMatch(/verification-failed$/);
    expect(res.body.detail).toMatch(/declined/i);
    expect(parsePaymentChallenges(res.headers['www-authenticate'] as string)[0]!.id).not.toBe(challenge!.id);
    expect(await h.db.prisma.purchase.count({ where: { quoteId: q.quoteId } })).toBe(0);
  });

  it('the checkout page declines the sandbox card and keeps the link open', async () => {
    const q = await newQuote();
    const link = await request(h.app).post('/api/v1/checkout').send(q);
    const path = new URL(link.body.checkoutUrl).pathname;
    const res = await request(h.app)
      .post(`${path}/pay`)
      .type('form')
      .send({ cardNumber: QUOTE_API_SANDBOX.declinedCard, expiry: '12/30', cvc: '123' });
    expect(res.status).toBe(402);
    expect(res.text).toContain('Your card was declined.');
    expect(res.text).toContain('name="cardNumber"');
  });
});
