import request from 'supertest';
import { mintPublishableKey, mintSecretKey } from '@expedition/auth-publishable-key';
import {
  createHarness,
  expectCors,
  expectNoCors,
  fullQuote,
  OTHER_SITE_ORIGIN,
  PORTAL_ORIGIN,
  seedKey,
  seedOperator,
  seedTenant,
  SITE_ORIGIN,
  WIDGET_ORIGIN,
  type Harness,
} from './harness';

let h: Harness;
let tenant: Awaited<ReturnType<typeof seedTenant>>;
let quoteId: string;

beforeAll(async () => {
  h = await createHarness();
  tenant = await seedTenant(h.prisma);
  const created = await postQuote(tenant.testKey, SITE_ORIGIN);
  expect(created.status).toBe(200);
  quoteId = created.body.quoteId;
});
afterAll(() => h.close());

function postQuote(key: string | undefined, origin: string | undefined, path = '/api/embed/quote') {
  let req = request(h.app).post(path);
  if (key !== undefined) req = req.set('X-SVC-Publishable-Key', key);
  if (origin !== undefined) req = req.set('Origin', origin);
  return req.send(fullQuote);
}

function getOptions(opts: { key?: string; pk?: string; origin?: string; id?: string }) {
  const query = new URLSearchParams({ quoteId: opts.id ?? quoteId });
  if (opts.pk !== undefined) query.set('pk', opts.pk);
  let req = request(h.app).get(`/api/embed/options?${query}`);
  if (opts.key !== undefined) req = req.set('X-SVC-Publishable-Key', opts.key);
  if (opts.origin !== undefined) req = req.set('Origin', opts.origin);
  return req;
}

/** Both routes with the same key and origin; the options call polls a quote of the key's operator when it has one. */
async function bothRoutes(key: string | undefined, origin: string | undefined) {
  return [await postQuote(key, origin), await getOptions({ key, origin })];
}

function expectUnauthorized(res: request.Response) {
  expect(res.status).toBe(401);
  expect(res.text).toBe('Unauthorized');
  expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
  expectNoCors(res);
}

function expectForbidden(res: request.Response) {
  expect(res.status).toBe(403);
  expect(res.text).toBe('Forbidden');
  expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
  expectNoCors(res);
}

describe('publishable key (401, no CORS)', () => {
  it('refuses a request without a key on both routes', async () => {
    for (const res of await bothRoutes(undefined, SITE_ORIGIN)) expectUnauthorized(res);
  });

  it('treats a blank key header as no key', async () => {
    for (const res of await bothRoutes('   ', SITE_ORIGIN)) expectUnauthorized(res);
  });

  it('refuses malformed keys and secret keys', async () => {
    for (const key of ['pk_op_test_123', tenant.testKey.toUpperCase(), mintSecretKey('test').key, 'garbage']) {
      for (const res of await bothRoutes(key, SITE_ORIGIN)) expectUnauthorized(res);
    }
  });

  it('refuses a well-formed key that does not exist', async () => {
    for (const res of await bothRoutes(mintPublishableKey('test'), SITE_ORIGIN)) expectUnauthorized(res);
    for (const res of await bothRoutes(mintPublishableKey('live'), SITE_ORIGIN)) expectUnauthorized(res);
  });

  it('refuses a revoked key', async () => {
    const revoked = await seedKey(h.prisma, tenant.operatorId, 'test', { revokedAt: new Date('2026-11-01T00:00:00Z') });
    for (const res of await bothRoutes(revoked, SITE_ORIGIN)) expectUnauthorized(res);
  });

  it('honours a rotation grace period exactly (works before expiresAt, 401 after)', async () => {
    const inGrace = await seedKey(h.prisma, tenant.operatorId, 'test', { expiresAt: new Date('2026-11-21T11:00:00Z') });
    const lapsed = await seedKey(h.prisma, tenant.operatorId, 'test', { expiresAt: new Date('2026-11-21T09:59:59Z') });
    expect((await getOptions({ key: inGrace, origin: SITE_ORIGIN })).status).toBe(200);
    expectUnauthorized(await getOptions({ key: lapsed, origin: SITE_ORIGIN }));
  });

  it.each(['suspended', 'pending'] as const)('refuses every key of a %s operator', async (status) => {
    const inactive = await seedTenant(h.prisma, { status });
    for (const key of [inactive.testKey, inactive.liveKey]) {
      for (const res of await bothRoutes(key, SITE_ORIGIN)) expectUnauthorized(res);
    }
  });

  it('refuses a live key while embedding is disabled, and admits it once enabled', async () => {
    const operatorId = await seedOperator(h.prisma, { embeddingEnabled: false });
    const live = await seedKey(h.prisma, operatorId, 'live');
    expectUnauthorized(await postQuote(live, SITE_ORIGIN));
    expectUnauthorized(await getOptions({ key: live, origin: SITE_ORIGIN }));

    const enabled = await seedTenant(h.prisma, { embeddingEnabled: true });
    const res = await postQuote(enabled.liveKey, SITE_ORIGIN);
    expect(res.status).toBe(200);
    expect(await h.prisma.quote.findUniqueOrThrow({ where: { id: res.body.quoteId } })).toMatchObject({ mode: 'live' });
  });

  it('admits a test key before live approval (embedding disabled) on both routes', async () => {
    const operatorId = await seedOperator(h.prisma, { embeddingEnabled: false });
    const test = await seedKey(h.prisma, operatorId, 'test');
    const created = await postQuote(test, SITE_ORIGIN);
    expect(created.status).toBe(200);
    expectCors(created, SITE_ORIGIN);
    const polled = await getOptions({ key: test, origin: SITE_ORIGIN, id: created.body.quoteId });
    expect(polled.status).toBe(200);
    expectCors(polled, SITE_ORIGIN);
  });

  it('never reads a key from cookies', async () => {
    const res = await request(h.app)
      .get(`/api/embed/options?quoteId=${quoteId}`)
      .set('Origin', SITE_ORIGIN)
      .set('Cookie', `pk=${tenant.testKey}; X-SVC-Publishable-Key=${tenant.testKey}`);
    expectUnauthorized(res);
  });

  it('checks the key before the origin: no key and a wrong origin is 401, not 403', async () => {
    expectUnauthorized(await postQuote(undefined, OTHER_SITE_ORIGIN));
    expectUnauthorized(await getOptions({ origin: undefined }));
  });
});

describe('header vs ?pk', () => {
  it('accepts ?pk on GET /api/embed/options when no header is sent', async () => {
    const res = await getOptions({ pk: tenant.testKey, origin: SITE_ORIGIN });
    expect(res.status).toBe(200);
    expectCors(res, SITE_ORIGIN);
  });

  it('reads the header first: a valid header wins over a bad ?pk', async () => {
    const res = await getOptions({ key: tenant.testKey, pk: 'garbage', origin: SITE_ORIGIN });
    expect(res.status).toBe(200);
  });

  it('reads the header first: a bad header is not rescued by a valid ?pk', async () => {
    expectUnauthorized(await getOptions({ key: mintPublishableKey('test'), pk: tenant.testKey, origin: SITE_ORIGIN }));
  });

  it('trims the header and treats a blank header as absent (then ?pk applies)', async () => {
    expect((await getOptions({ key: `  ${tenant.testKey}  `, origin: SITE_ORIGIN })).status).toBe(200);
    expect((await getOptions({ key: '  ', pk: tenant.testKey, origin: SITE_ORIGIN })).status).toBe(200);
  });

  it('ignores ?pk on POST /api/embed/quote', async () => {
    const before = await h.prisma.quote.count();
    expectUnauthorized(await postQuote(undefined, SITE_ORIGIN, `/api/embed/quote?pk=${tenant.testKey}`));
    expect(await h.prisma.quote.count()).toBe(before);
  });

  it('does not accept a repeated ?pk', async () => {
    const res = await request(h.app)
      .get(`/api/embed/options?quoteId=${quoteId}&pk=${tenant.testKey}&pk=${tenant.testKey}`)
      .set('Origin', SITE_ORIGIN);
    expectUnauthorized(res);
  });
});

describe('Origin allowlist (403, no CORS)', () => {
  it('refuses a request without Origin on both routes', async () => {
    for (const res of await bothRoutes(tenant.testKey, undefined)) expectForbidden(res);
  });

  it('refuses an origin that is not on the operator list, including near misses and `null`', async () => {
    for (const origin of [
      OTHER_SITE_ORIGIN,
      'http://tours.example',
      'https://tours.example:8443',
      'https://sub.tours.example',
      'null',
    ]) {
      for (const res of await bothRoutes(tenant.testKey, origin)) expectForbidden(res);
    }
  });

  it("refuses another operator's site origin", async () => {
    const other = await seedTenant(h.prisma, { origins: [OTHER_SITE_ORIGIN] });
    for (const res of await bothRoutes(tenant.testKey, OTHER_SITE_ORIGIN)) expectForbidden(res);
    expect((await postQuote(other.testKey, OTHER_SITE_ORIGIN)).status).toBe(200);
  });

  it('admits the right origin on each route with CORS for exactly that origin', async () => {
    const created = await postQuote(tenant.testKey, SITE_ORIGIN);
    expect(created.status).toBe(200);
    expectCors(created, SITE_ORIGIN);
    const polled = await getOptions({ key: tenant.testKey, origin: SITE_ORIGIN });
    expect(polled.status).toBe(200);
    expectCors(polled, SITE_ORIGIN);
    expect(created.headers['access-control-allow-origin']).not.toBe('*');
  });

  it('admits the widget (first-party) origin for test and live keys of any operator', async () => {
    const bare = await seedTenant(h.prisma, { origins: [] });
    for (const key of [tenant.testKey, tenant.liveKey, bare.testKey, bare.liveKey]) {
      const res = await postQuote(key, WIDGET_ORIGIN);
      expect(res.status).toBe(200);
      expectCors(res, WIDGET_ORIGIN);
    }
    const polled = await getOptions({ key: tenant.liveKey, origin: WIDGET_ORIGIN });
    expect(polled.status).toBe(200);
    expectCors(polled, WIDGET_ORIGIN);
  });

  it('admits the portal (dashboard) origin for test keys only', async () => {
    const test = await postQuote(tenant.testKey, PORTAL_ORIGIN);
    expect(test.status).toBe(200);
    expectCors(test, PORTAL_ORIGIN);
    expect((await getOptions({ key: tenant.testKey, origin: PORTAL_ORIGIN })).status).toBe(200);
    expectForbidden(await postQuote(tenant.liveKey, PORTAL_ORIGIN));
    expectForbidden(await getOptions({ key: tenant.liveKey, origin: PORTAL_ORIGIN }));
  });
});

describe('CORS and common headers per status', () => {
  it('puts CORS headers on 400s of both routes', async () => {
    const badBody = await request(h.app)
      .post('/api/embed/quote')
      .set('X-SVC-Publishable-Key', tenant.testKey)
      .set('Origin', SITE_ORIGIN)
      .send({ destination: 'Antarctica' });
    expect(badBody.status).toBe(400);
    expectCors(badBody, SITE_ORIGIN);
    const noId = await request(h.app)
      .get('/api/embed/options')
      .set('X-SVC-Publishable-Key', tenant.testKey)
      .set('Origin', SITE_ORIGIN);
    expect(noId.status).toBe(400);
    expect(noId.body).toEqual({ error: 'quoteId required' });
    expectCors(noId, SITE_ORIGIN);
  });

  it('marks every embed response no-store and carries a request id', async () => {
    const responses = [
      await postQuote(tenant.testKey, SITE_ORIGIN), // 200
      await getOptions({ key: tenant.testKey, origin: SITE_ORIGIN }), // 200
      await getOptions({ key: tenant.testKey, origin: SITE_ORIGIN, id: '' }), // 400
      await getOptions({ origin: SITE_ORIGIN }), // 401
      await getOptions({ key: tenant.testKey, origin: OTHER_SITE_ORIGIN }), // 403
    ];
    expect(responses.map((r) => r.status)).toEqual([200, 200, 400, 401, 403]);
    for (const res of responses) {
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['x-request-id']).toEqual(expect.any(String));
      expect(res.headers['access-control-allow-credentials']).toBeUndefined();
      expect(res.headers['set-cookie']).toBeUndefined();
    }
  });
});

describe('preflight (OPTIONS) on both routes', () => {
  it.each(['/api/embed/quote', '/api/embed/options'])('%s: 204 reflecting any Origin, no key needed', async (path) => {
    for (const origin of [SITE_ORIGIN, OTHER_SITE_ORIGIN, WIDGET_ORIGIN]) {
      const res = await request(h.app)
        .options(path)
        .set('Origin', origin)
        .set('Access-Control-Request-Method', 'POST')
        .set('Access-Control-Request-Headers', 'content-type, x-svc-publishable-key');
      expect(res.status).toBe(204);
      expectCors(res, origin);
      expect(res.headers['access-control-max-age']).toBe('86400');
      expect(res.text).toBe('');
    }
  });

  it.each(['/api/embed/quote', '/api/embed/options'])('%s: 403 without Origin, no CORS', async (path) => {
    const res = await request(h.app).options(path).set('Access-Control-Request-Method', 'GET');
    expectForbidden(res);
  });

  it('does not look at the key (a revoked key still gets its preflight)', async () => {
    const revoked = await seedKey(h.prisma, tenant.operatorId, 'test', { revokedAt: new Date('2026-11-01T00:00:00Z') });
    const res = await request(h.app)
      .options('/api/embed/options')
      .set('Origin', SITE_ORIGIN)
      .set('X-SVC-Publishable-Key', revoked);
    expect(res.status).toBe(204);
  });
});
