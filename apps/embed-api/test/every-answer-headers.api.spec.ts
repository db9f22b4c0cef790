import request from 'supertest';
import { createHarness, fullQuote, seedTenant, SITE_ORIGIN, type Harness } from './harness';

/** Every answer carries X-Content-Type-Options: nosniff (libs/http-kit security-headers.ts; docs/security.md). */

let h: Harness;
let tenant: Awaited<ReturnType<typeof seedTenant>>;
beforeAll(async () => {
  h = await createHarness();
  tenant = await seedTenant(h.prisma);
});
afterAll(() => h.close());

const quote = (key: string) =>
  request(h.app).post('/api/embed/quote').set('X-SVC-Publishable-Key', key).set('Origin', SITE_ORIGIN).send(fullQuote);

describe('X-Content-Type-Options on every embed-api answer', () => {
  it('a quote (200), its options poll, an unknown key (401) and an unknown route (404) carry nosniff', async () => {
    const created = await quote(tenant.testKey);
    expect(created.status).toBe(200);
    const options = await request(h.app)
      .get(`/api/embed/options?quoteId=${created.body.quoteId}`)
      .set('X-SVC-Publishable-Key', tenant.testKey)
      .set('Origin', SITE_ORIGIN);
    const unauthorized = await quote('pk_test_unknown0000000000000000');
    expect(unauthorized.status).toBe(401);
    const missing = await request(h.app).get('/api/embed/no-such-route');
    expect(missing.status).toBe(404);
    const health = await request(h.app).get('/healthz');
    for (const res of [created, options, unauthorized, missing, health]) {
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    }
  });
});
