import request from 'supertest';
import { createHarness, fullQuote, seedTenant, SITE_ORIGIN, type Harness } from './harness';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

describe('platform behaviour', () => {
  it('serves /healthz and /readyz', async () => {
    expect((await request(h.app).get('/healthz')).body).toEqual({ status: 'ok' });
    expect((await request(h.app).get('/readyz')).body).toEqual({ status: 'ready' });
  });

  it('answers a key-store outage with 500, never a 401 that would look like a revoked key', async () => {
    const { testKey } = await seedTenant(h.prisma);
    const broken = await createHarness({
      db: h.db,
      deps: { resolveKey: () => Promise.reject(new Error('database unavailable')) },
    });
    const res = await request(broken.app)
      .post('/api/embed/quote')
      .set('X-SVC-Publishable-Key', testKey)
      .set('Origin', SITE_ORIGIN)
      .send(fullQuote);
    expect(res.status).toBe(500);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    expect(JSON.stringify(res.body)).not.toContain('database unavailable');
  });

  it('does not answer other methods on the embed paths as if they were the routes', async () => {
    const { testKey } = await seedTenant(h.prisma);
    const res = await request(h.app)
      .get('/api/embed/quote')
      .set('X-SVC-Publishable-Key', testKey)
      .set('Origin', SITE_ORIGIN);
    expect(res.status).toBe(404);
  });
});
