import request from 'supertest';
import { createRateLimiter } from '@expedition/platform';
import { EMBED_RATE_LIMIT } from '../src/limits';
import {
  createHarness,
  expectCors,
  fullQuote,
  OTHER_SITE_ORIGIN,
  seedTenant,
  SITE_ORIGIN,
  type Harness,
} from './harness';

let h: Harness;
let now: number;

beforeAll(async () => {
  h = await createHarness({ rateLimiter: createRateLimiter({ ...EMBED_RATE_LIMIT }) });
});
afterAll(() => h.close());

// The in-memory window reads Date.now(): pin it so the reset and Retry-After are exact, with no waiting.
beforeEach(() => {
  now = Date.parse('2026-11-21T10:00:00Z');
  jest.spyOn(Date, 'now').mockImplementation(() => now);
});
afterEach(() => jest.restoreAllMocks());

const poll = (key: string, quoteId: string, origin = SITE_ORIGIN) =>
  request(h.app).get(`/api/embed/options?quoteId=${quoteId}`).set('X-SVC-Publishable-Key', key).set('Origin', origin);
const create = (key: string, body: object = fullQuote) =>
  request(h.app).post('/api/embed/quote').set('X-SVC-Publishable-Key', key).set('Origin', SITE_ORIGIN).send(body);

async function tenantWithQuote() {
  const tenant = await seedTenant(h.prisma);
  const res = await create(tenant.testKey);
  expect(res.status).toBe(200);
  return { ...tenant, quoteId: res.body.quoteId as string };
}

function expectTooMany(res: request.Response, retryAfterSec: number) {
  expect(res.status).toBe(429);
  expect(res.text).toBe('Too Many Requests');
  expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
  expect(res.headers['retry-after']).toBe(String(retryAfterSec));
  expectCors(res, SITE_ORIGIN);
}

describe('60 requests per minute per key, shared by both routes (in memory)', () => {
  it('admits 60 requests across both routes and answers the 61st with 429, Retry-After and CORS', async () => {
    const t = await tenantWithQuote(); // request 1 (POST)
    const statuses: number[] = [];
    for (let i = 0; i < 29; i++) statuses.push((await create(t.testKey, { destination: 'Antarctica' })).status); // 400s count too
    for (let i = 0; i < 30; i++) statuses.push((await poll(t.testKey, t.quoteId)).status);
    expect(statuses.filter((s) => s === 429)).toEqual([]);
    now += 15_000;
    expectTooMany(await poll(t.testKey, t.quoteId), 45);
    expectTooMany(await create(t.testKey), 45);
  });

  it('the limit runs before the route: a 61st bad body is a 429, not a 400, and creates nothing', async () => {
    const t = await tenantWithQuote();
    for (let i = 0; i < 59; i++) expect((await poll(t.testKey, t.quoteId)).status).toBe(200);
    const before = await h.prisma.quote.count();
    expectTooMany(await create(t.testKey, {}), 60);
    expectTooMany(await create(t.testKey), 60);
    expect(await h.prisma.quote.count()).toBe(before);
  });

  it('resets lazily: the first request after the window starts a fresh count of 60', async () => {
    const t = await tenantWithQuote();
    for (let i = 0; i < 59; i++) await poll(t.testKey, t.quoteId);
    now += 59_999;
    expectTooMany(await poll(t.testKey, t.quoteId), 1);
    now += 1; // the window opened at the first request has now lasted 60 s
    for (let i = 0; i < 60; i++) expect((await poll(t.testKey, t.quoteId)).status).toBe(200);
    expectTooMany(await poll(t.testKey, t.quoteId), 60);
  });

  it('keeps one budget per key: another key of the same operator is unaffected', async () => {
    const t = await tenantWithQuote();
    for (let i = 0; i < 59; i++) await poll(t.testKey, t.quoteId);
    expectTooMany(await poll(t.testKey, t.quoteId), 60);
    const res = await request(h.app)
      .get(`/api/embed/options?quoteId=${t.quoteId}`)
      .set('X-SVC-Publishable-Key', t.liveKey)
      .set('Origin', SITE_ORIGIN);
    expect(res.status).toBe(200);
  });

  it('counts nothing for requests refused by the key or origin checks, nor for preflights', async () => {
    const t = await tenantWithQuote();
    for (let i = 0; i < 80; i++) expect((await poll(t.testKey, t.quoteId, OTHER_SITE_ORIGIN)).status).toBe(403);
    for (let i = 0; i < 10; i++) {
      const pre = await request(h.app)
        .options('/api/embed/options')
        .set('Origin', SITE_ORIGIN)
        .set('X-SVC-Publishable-Key', t.testKey);
      expect(pre.status).toBe(204);
    }
    for (let i = 0; i < 59; i++) expect((await poll(t.testKey, t.quoteId)).status).toBe(200);
    expectTooMany(await poll(t.testKey, t.quoteId), 60);
  });
});
