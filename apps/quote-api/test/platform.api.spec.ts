import { PLATFORM_ICON_SVG } from '@expedition/http-kit';
import request from 'supertest';
import { listDestinations } from '@expedition/domain-pricing';
import { createRateLimiter } from '@expedition/platform';
import { createHarness, type Harness } from './harness';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

describe('health, OpenAPI, request ids and limits', () => {
  it('answers /healthz and /readyz', async () => {
    expect((await request(h.app).get('/healthz')).body).toEqual({ status: 'ok' });
    expect((await request(h.app).get('/readyz')).status).toBe(200);
  });

  it('answers /favicon.ico with the platform icon, cached for 30 days, instead of a 404', async () => {
    const res = await request(h.app).get('/favicon.ico');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(res.headers['cache-control']).toBe('public, max-age=2592000');
    expect(res.body.toString()).toBe(PLATFORM_ICON_SVG);
  });

  it('answers 503 on /readyz when the database does not answer', async () => {
    const down = await createHarness({ ready: () => Promise.reject(new Error('down')) });
    expect((await request(down.app).get('/readyz')).status).toBe(503);
    await down.close();
  });

  it('serves the OpenAPI document at /api/v1/openapi.json', async () => {
    const res = await request(h.app).get('/api/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    expect(res.body.info.version).toBe('1.0.0');
    expect(res.body.servers[0].url).toBe('http://quote.test');
  });

  it("writes the catalog's destinations and default durations into the agent rules", async () => {
    const { description } = (await request(h.app).get('/api/v1/openapi.json')).body.info;
    for (const d of listDestinations()) expect(description).toContain(`${d.name} ${d.defaultDurationDays}`);
    expect(description).toMatch(/Antarctica 14 days, Arctic 10, .*African Safari 12/);
  });

  it('sets X-Request-Id on every response and in error bodies', async () => {
    const res = await request(h.app).get('/api/v1/products/none').set('X-Request-Id', 'agent-42');
    expect(res.headers['x-request-id']).toBe('agent-42');
    expect(res.body.requestId).toBe('agent-42');
  });

  it('answers unknown routes with a JSON 404', async () => {
    const res = await request(h.app).get('/api/v1/nothing-here');
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
  });

  it('limits each client per minute with 429 and Retry-After', async () => {
    const limited = await createHarness({
      rateLimiter: createRateLimiter({ points: 3, durationSec: 60 }),
      rateLimitPerMinute: 3,
    });
    for (let i = 0; i < 3; i++) expect((await request(limited.app).get('/api/v1/destinations')).status).toBe(200);
    const res = await request(limited.app).get('/api/v1/destinations');
    expect(res.status).toBe(429);
    expect(res.body.code).toBe('rate_limited');
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number.isInteger(Number(res.headers['retry-after']))).toBe(true);
    expect(res.headers['ratelimit-limit']).toBe('3');
    expect((await request(limited.app).get('/healthz')).status).toBe(200);
    await limited.close();
  });
});
