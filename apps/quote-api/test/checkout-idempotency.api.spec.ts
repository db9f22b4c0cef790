import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { CheckoutResponseSchema } from '@expedition/contracts';
import { antarcticaQuote, createHarness, type Harness } from './harness';

/** `Idempotency-Key` on POST /api/v1/checkout (issue 10 §4): same key and body → same link; another body → 422. */

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

interface Quote {
  quoteId: string;
  sessionId: string;
  plans: { planId: string; availabilityMode: string }[];
}

async function newQuote(): Promise<Quote & { body: { quoteId: string; planId: string; sessionId: string } }> {
  const res = await request(h.app).post('/api/v1/quotes').send(antarcticaQuote);
  expect(res.status).toBe(200);
  const q = res.body as Quote;
  return { ...q, body: { quoteId: q.quoteId, planId: q.plans[0]!.planId, sessionId: q.sessionId } };
}

const checkout = (body: object, key?: string) => {
  const req = request(h.app).post('/api/v1/checkout');
  return (key === undefined ? req : req.set('Idempotency-Key', key)).send(body);
};
const sessions = (quoteId: string) => h.db.prisma.checkoutSession.count({ where: { quoteId } });

describe('POST /api/v1/checkout with Idempotency-Key', () => {
  it('answers the same link for the same key and body, marks the replay, and opens one session', async () => {
    const q = await newQuote();
    const key = randomUUID();
    const first = await checkout(q.body, key);
    expect(first.status).toBe(200);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(first.headers['cache-control']).toBe('no-store');
    const second = await checkout({ ...q.body }, key);
    expect(second.status).toBe(200);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.headers['cache-control']).toBe('no-store');
    expect(CheckoutResponseSchema.parse(second.body)).toEqual(CheckoutResponseSchema.parse(first.body));
    expect(await sessions(q.quoteId)).toBe(1);
  });

  it('treats the body by value: field order and an absent optional field do not make it another request', async () => {
    const q = await newQuote();
    const key = randomUUID();
    const first = await checkout(
      { sessionId: q.sessionId, planId: q.body.planId, quoteId: q.quoteId, email: 'ann@example.com' },
      key,
    );
    const second = await checkout({ ...q.body, email: 'ann@example.com' }, key);
    expect(second.body).toEqual(first.body);
  });

  it('answers 422 when the key was used with another body, and opens nothing', async () => {
    const q = await newQuote();
    const key = randomUUID();
    expect((await checkout(q.body, key)).status).toBe(200);
    const other = await checkout({ ...q.body, agentSummary: 'A different request' }, key);
    expect(other.status).toBe(422);
    expect(other.body).toMatchObject({ code: 'invalid_request' });
    expect(other.body.error).toMatch(/Idempotency-Key/);
    const otherPlan = await checkout({ ...q.body, planId: q.plans[1]!.planId }, key);
    expect(otherPlan.status).toBe(422);
    expect(await sessions(q.quoteId)).toBe(1);
  });

  it('opens a new link per request without a key', async () => {
    const q = await newQuote();
    const a = await checkout(q.body);
    const b = await checkout(q.body);
    expect(a.body.checkoutUrl).not.toBe(b.body.checkoutUrl);
    expect(b.headers['idempotent-replayed']).toBeUndefined();
    expect(await sessions(q.quoteId)).toBe(2);
  });

  it('answers 400 for an empty or over-long key', async () => {
    const q = await newQuote();
    for (const key of ['', 'k'.repeat(256)]) {
      const res = await checkout(q.body, key);
      expect(res.status).toBe(400);
      expect(res.body.details).toEqual([{ path: 'Idempotency-Key', message: 'invalid length' }]);
    }
    expect((await checkout(q.body, 'k'.repeat(255))).status).toBe(200);
  });

  it('does not store a refusal: the same key works once the request is right', async () => {
    const q = await newQuote();
    const key = randomUUID();
    const wrong = await checkout({ ...q.body, sessionId: 'qs_not_this_quote' }, key);
    expect(wrong.status).toBe(403);
    // The body differs (sessionId), but nothing was stored for the key: it is free.
    const right = await checkout(q.body, key);
    expect(right.status).toBe(200);
    expect(right.headers['idempotent-replayed']).toBeUndefined();
  });

  it('never hands out a dead link: after the link expires, the same key and body open a new one', async () => {
    const q = await newQuote();
    const key = randomUUID();
    const first = await checkout(q.body, key);
    h.clock.advance(30 * 60 * 1000);
    const again = await checkout(q.body, key);
    expect(again.status).toBe(200);
    expect(again.headers['idempotent-replayed']).toBeUndefined();
    expect(again.body.checkoutUrl).not.toBe(first.body.checkoutUrl);
    expect(Date.parse(again.body.expiresAt)).toBe(h.clock.now().getTime() + 30 * 60 * 1000);
    // …and that new link is what the key replays from now on.
    const replay = await checkout(q.body, key);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toEqual(again.body);
  });

  it('keeps checkout keys apart from purchase keys', async () => {
    const q = await newQuote();
    const key = randomUUID();
    expect((await checkout(q.body, key)).status).toBe(200);
    // The same key on /purchase is a new request there (402 challenge), not a 422 or a replay of the link.
    const purchase = await request(h.app)
      .post('/api/v1/purchase')
      .set('Idempotency-Key', key)
      .send({ quoteId: q.quoteId, planId: q.body.planId });
    expect(purchase.status).toBe(402);
  });

  it('answers concurrent twins with one and the same link', async () => {
    const q = await newQuote();
    const key = randomUUID();
    const [a, b] = await Promise.all([checkout(q.body, key), checkout(q.body, key)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.checkoutUrl).toBe(b.body.checkoutUrl);
  });
});
