import request from 'supertest';
import { DAY_MS, isoDay, QuoteResponseSchema } from '@expedition/contracts';
import { decodeRequest, parsePaymentChallenges } from '@expedition/payments';
import { antarcticaQuote, createHarness, type Harness } from './harness';

/** Quotes hold their price until `expiresAt` (issue 10 §4); after it, checkout and purchase say to quote again. */

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

/** Departing 200 days after the (moving) test clock, so every quote here is valid its full 30 days. */
const laterTrip = () => ({ ...antarcticaQuote, startDate: isoDay(h.clock.now().getTime() + 200 * DAY_MS) });

async function newQuote(body: object = laterTrip()) {
  const res = await request(h.app).post('/api/v1/quotes').send(body);
  expect(res.status).toBe(200);
  const quote = QuoteResponseSchema.parse(res.body);
  const plan = quote.plans.find((p) => p.availabilityMode === 'full')!;
  return { quote, plan, body: { quoteId: quote.quoteId, planId: plan.planId, sessionId: quote.sessionId } };
}

describe('quote expiry and the held premium', () => {
  it('carries expiresAt: 30 days after the quote', async () => {
    const { quote } = await newQuote();
    expect(quote.expiresAt).toBe(new Date(h.clock.now().getTime() + 30 * DAY_MS).toISOString());
  });

  it('carries expiresAt: the departure (00:00 UTC) when it comes sooner', async () => {
    const departure = isoDay(h.clock.now().getTime() + 10 * DAY_MS);
    const { quote } = await newQuote({ ...antarcticaQuote, startDate: departure });
    expect(quote.expiresAt).toBe(`${departure}T00:00:00.000Z`);
  });

  it('charges the quoted premium until expiresAt: the link and the 402 challenge carry exactly the quoted amount', async () => {
    const { quote, plan, body } = await newQuote();
    h.clock.advance(Date.parse(quote.expiresAt!) - h.clock.now().getTime() - 1000);

    const link = await request(h.app).post('/api/v1/checkout').send(body);
    expect(link.status).toBe(200);
    const session = await h.db.prisma.checkoutSession.findFirstOrThrow({ where: { quoteId: quote.quoteId } });
    expect(session.premiumCents).toBe(plan.estimatedPremiumCents);

    const challenge = await request(h.app)
      .post('/api/v1/purchase')
      .send({ quoteId: quote.quoteId, planId: plan.planId });
    expect(challenge.status).toBe(402);
    const [parsed] = parsePaymentChallenges(challenge.headers['www-authenticate'] as string);
    expect(decodeRequest(parsed!.request).amount).toBe(String(plan.estimatedPremiumCents));
  });

  it('answers checkout of an expired quote with 410 quote_expired telling the agent to quote again; nothing is opened', async () => {
    const { quote, body } = await newQuote();
    h.clock.advance(Date.parse(quote.expiresAt!) - h.clock.now().getTime());
    const res = await request(h.app).post('/api/v1/checkout').send(body);
    expect(res.status).toBe(410);
    expect(res.body.code).toBe('quote_expired');
    expect(res.body.error).toContain(`Quote ${quote.quoteNumber} expired at ${quote.expiresAt}`);
    expect(res.body.error).toMatch(/nothing was charged/);
    expect(res.body.error).toMatch(/Create a new quote/);
    expect(await h.db.prisma.checkoutSession.count({ where: { quoteId: quote.quoteId } })).toBe(0);
  });

  it('answers purchase of an expired quote with 410 quote_expired and no challenge', async () => {
    const { quote, plan } = await newQuote();
    h.clock.advance(Date.parse(quote.expiresAt!) - h.clock.now().getTime() + 1);
    const res = await request(h.app).post('/api/v1/purchase').send({ quoteId: quote.quoteId, planId: plan.planId });
    expect(res.status).toBe(410);
    expect(res.body.code).toBe('quote_expired');
    // The same wording as checkout's (quoteExpiredError of @expedition/quoting).
    expect(res.body.error).toContain(`Quote ${quote.quoteNumber} expired at ${quote.expiresAt}`);
    expect(res.body.error).toMatch(/nothing was charged/);
    expect(res.body.error).toMatch(/Create a new quote/);
    expect(res.headers['www-authenticate']).toBeUndefined();
  });

  it('a fresh quote after expiry is bookable again', async () => {
    const { body } = await newQuote();
    expect((await request(h.app).post('/api/v1/checkout').send(body)).status).toBe(200);
  });
});
