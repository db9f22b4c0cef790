import request from 'supertest';
import { createRateLimiter } from '@expedition/platform';
import type { EmbedOptionsReady } from '@expedition/contracts';
import { TEST_CARDS } from '@expedition/payments';
import { EMBED_RATE_LIMIT } from '../src/limits';
import {
  capturingProcessor,
  createHarness,
  expectCors,
  fullQuote,
  seedTenant,
  SITE_ORIGIN,
  type Harness,
} from './harness';

let h: Harness;
let now: number;

beforeAll(async () => {
  h = await createHarness({
    rateLimiter: createRateLimiter({ ...EMBED_RATE_LIMIT }),
    payments: (clock) => ({ processor: capturingProcessor(clock).processor }),
  });
});
afterAll(() => h.close());

// The in-memory window reads Date.now(): pin it so the count and Retry-After are exact, with no waiting.
beforeEach(() => {
  now = Date.parse('2026-11-21T10:00:00Z');
  jest.spyOn(Date, 'now').mockImplementation(() => now);
});
afterEach(() => jest.restoreAllMocks());

const send = (method: 'get' | 'post', path: string, key: string, body?: object) => {
  const req = request(h.app)[method](path).set('X-SVC-Publishable-Key', key).set('Origin', SITE_ORIGIN);
  return body ? req.send(body) : req;
};

function expectTooMany(res: request.Response) {
  expect(res.status).toBe(429);
  expect(res.text).toBe('Too Many Requests');
  expect(res.headers['retry-after']).toBe('60');
  expectCors(res, SITE_ORIGIN);
}

describe('the payment routes spend the same 60-per-minute budget as the public routes', () => {
  it('quote + options + payments + confirm: 60 admitted in total, then 429 on every route, before any route logic', async () => {
    const { testKey } = await seedTenant(h.prisma);
    const created = await send('post', '/api/embed/quote', testKey, fullQuote); // 1
    const quoteId: string = created.body.quoteId;
    await h.worker.runOnce();
    const ready = (await send('get', `/api/embed/options?quoteId=${quoteId}`, testKey)).body as EmbedOptionsReady; // 2
    const [first, second] = ready.options.filter((o) => o.checkout.purchasable);
    expect(second).toBeDefined();

    const statuses: number[] = [created.status];
    for (let i = 0; i < 18; i++)
      statuses.push((await send('get', `/api/embed/options?quoteId=${quoteId}`, testKey)).status); // 20
    let paymentId = '';
    for (let i = 0; i < 20; i++) {
      const res = await send('post', '/api/embed/payments', testKey, { quoteId, planId: first!.planId }); // 40
      paymentId = res.body.paymentId;
      statuses.push(res.status);
    }
    for (let i = 0; i < 10; i++)
      statuses.push(
        (await send('post', '/api/embed/payments/confirm', testKey, { paymentId, paymentMethod: TEST_CARDS.decline }))
          .status,
      ); // 50
    for (let i = 0; i < 10; i++) statuses.push((await send('post', '/api/embed/quote', testKey, {})).status); // 60: 400s count too
    expect(statuses.filter((s) => s === 429)).toEqual([]);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1 + 18 + 20 + 10);

    const paymentsBefore = await h.prisma.payment.count({ where: { quoteId } });
    expectTooMany(await send('post', '/api/embed/payments', testKey, { quoteId, planId: second!.planId }));
    expectTooMany(
      await send('post', '/api/embed/payments/confirm', testKey, { paymentId, paymentMethod: TEST_CARDS.success }),
    );
    expectTooMany(await send('post', '/api/embed/payments/authenticate', testKey, { paymentId, approve: true }));
    expectTooMany(await send('post', '/api/embed/quote', testKey, fullQuote));
    expectTooMany(await send('get', `/api/embed/options?quoteId=${quoteId}`, testKey));
    // The 429s ran before the routes: no new intent for the second plan, and the intent was never confirmed.
    expect(await h.prisma.payment.count({ where: { quoteId } })).toBe(paymentsBefore);
    expect(await h.prisma.purchase.findUnique({ where: { quoteId } })).toBeNull();

    now += 60_000; // a fresh window
    const confirmed = await send('post', '/api/embed/payments/confirm', testKey, {
      paymentId,
      paymentMethod: TEST_CARDS.success,
    });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.status).toBe('succeeded');
  });
});
