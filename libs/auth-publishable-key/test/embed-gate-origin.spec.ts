import express from 'express';
import request from 'supertest';
import { MODES } from '@expedition/contracts';
import { createCachedKeyResolver, createEmbedGate, mintPublishableKey } from '../src';
import { createRateLimiter } from '@expedition/platform';
import { createFakeKeyStore, keyRecord } from './fake-key-store';
import { SHOP, WIDGET, PORTAL, setup, expectBare, expectCors } from './gate-harness';

describe('embed gate: Origin allowlist (403)', () => {
  it('answers 403 Forbidden without CORS headers when Origin is missing', async () => {
    const { quote, options, addKey } = setup();
    const key = addKey('test');
    expectBare(await quote(key, null), 403, 'Forbidden');
    expectBare(await options(key, null), 403, 'Forbidden');
  });

  it('answers 403 for an Origin outside the allowlist, and for the opaque origin', async () => {
    const { quote, addKey } = setup();
    const key = addKey('test');
    expectBare(await quote(key, 'https://evil.example'), 403, 'Forbidden');
    expectBare(await quote(key, 'https://shop.example.com.evil.example'), 403, 'Forbidden');
    expectBare(await quote(key, 'http://shop.example.com'), 403, 'Forbidden');
    expectBare(await quote(key, 'null'), 403, 'Forbidden');
  });

  it('answers 403 for an origin allowed for another operator', async () => {
    const { quote, addKey } = setup();
    addKey('test', { allowedOrigins: ['https://other.example'] });
    expectBare(await quote(addKey('test'), 'https://other.example'), 403, 'Forbidden');
  });

  it('admits an allowed Origin on each route with the matched origin in Access-Control-Allow-Origin', async () => {
    const { quote, options, addKey } = setup();
    const key = addKey('live');
    const q = await quote(key);
    expect(q.status).toBe(200);
    expect(q.body).toMatchObject({ quoteId: 'q_1' });
    expectCors(q, SHOP);
    const o = await options(key);
    expect(o.status).toBe(200);
    expectCors(o, SHOP);
  });

  it('accepts the first-party widget origin for any valid key', async () => {
    const { quote, addKey } = setup();
    for (const mode of MODES) {
      const res = await quote(addKey(mode, { allowedOrigins: [] }), WIDGET);
      expect(res.status).toBe(200);
      expectCors(res, WIDGET);
    }
  });

  it('accepts the dashboard origin for test keys only', async () => {
    const { quote, addKey } = setup();
    const test = await quote(addKey('test'), PORTAL);
    expect(test.status).toBe(200);
    expectCors(test, PORTAL);
    expectBare(await quote(addKey('live'), PORTAL), 403, 'Forbidden');
  });

  it('matches normalized origins: case and default port, both in the request and in the stored list', async () => {
    const { quote, addKey } = setup();
    const res = await quote(addKey('test'), 'HTTPS://Shop.Example.COM:443');
    expect(res.status).toBe(200);
    expectCors(res, SHOP);
    const stored = addKey('test', { allowedOrigins: ['http://Demo.Example:80'] });
    const res2 = await quote(stored, 'http://demo.example');
    expect(res2.status).toBe(200);
    expectCors(res2, 'http://demo.example');
  });

  it('does not count requests refused at the Origin check against the budget (origin before rate limit)', async () => {
    const { quote, addKey } = setup({ rateLimiter: createRateLimiter({ points: 2, keyPrefix: 'order' }) });
    const key = addKey('test');
    for (let i = 0; i < 5; i++) expectBare(await quote(key, 'https://evil.example'), 403, 'Forbidden');
    expect((await quote(key)).status).toBe(200);
    expect((await quote(key)).status).toBe(200);
    expect((await quote(key)).status).toBe(429);
  });
});

describe('embed gate: CORS headers by status', () => {
  it('carries CORS headers on a route 400', async () => {
    const { app, addKey, options } = setup();
    const key = addKey('test');
    const res = await request(app)
      .post('/api/embed/quote')
      .set('X-SVC-Publishable-Key', key)
      .set('Origin', SHOP)
      .send({});
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'Missing or invalid required fields' });
    expectCors(res, SHOP);
    const o = await options(key, SHOP, '');
    expect(o.status).toBe(400);
    expect(o.body).toEqual({ error: 'quoteId required' });
    expectCors(o, SHOP);
  });

  it('lets the route answer a bare 403 (no existence oracle) after the gate set CORS headers', async () => {
    const { options, addKey } = setup();
    expectBare(await options(addKey('test'), SHOP, 'quoteId=someone-elses'), 403, 'Forbidden');
  });

  it('never sends Access-Control-Allow-Credentials, even when cookies are sent', async () => {
    const { app, addKey } = setup();
    const key = addKey('test');
    const res = await request(app)
      .post('/api/embed/quote')
      .set('X-SVC-Publishable-Key', key)
      .set('Origin', SHOP)
      .set('Cookie', 'session=abc; pk=whatever')
      .send({ destination: 'x' });
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    const pre = await request(app).options('/api/embed/quote').set('Origin', SHOP).set('Cookie', 'session=abc');
    expect(pre.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it('ignores a key presented only as a cookie', async () => {
    const { app, addKey } = setup();
    const res = await request(app)
      .get('/api/embed/options?quoteId=q_1')
      .set('Origin', SHOP)
      .set('Cookie', `pk=${addKey('test')}`);
    expectBare(res, 401, 'Unauthorized');
  });

  it('strips Access-Control-* headers set by an earlier app-wide middleware from 401 and 403', async () => {
    const store = createFakeKeyStore();
    const key = mintPublishableKey('test');
    store.put(key, keyRecord({ allowedOrigins: [SHOP] }));
    const app = express();
    app.use((_req, res, next) => {
      res.setHeader('Access-Control-Allow-Origin', '*');
      next();
    });
    const gate = createEmbedGate({
      resolveKey: createCachedKeyResolver(store).resolve,
      rateLimiter: createRateLimiter(),
      firstPartyOrigins: [],
      testDashboardOrigins: [],
      allowQueryKey: () => false,
    });
    app.post('/api/embed/quote', gate, (_req, res) => void res.json({}));
    expectBare(await request(app).post('/api/embed/quote').set('Origin', SHOP), 401, 'Unauthorized');
    const forbidden = await request(app)
      .post('/api/embed/quote')
      .set('X-SVC-Publishable-Key', key)
      .set('Origin', 'https://evil.example');
    expectBare(forbidden, 403, 'Forbidden');
  });
});

describe('embed preflight (OPTIONS)', () => {
  it('answers 204 reflecting the normalized Origin with Max-Age 86400 and no key', async () => {
    const { app } = setup();
    for (const path of ['/api/embed/quote', '/api/embed/options']) {
      const res = await request(app)
        .options(path)
        .set('Origin', 'HTTPS://Anyone.Example:443')
        .set('Access-Control-Request-Method', 'POST')
        .set('Access-Control-Request-Headers', 'content-type, x-svc-publishable-key');
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      expectCors(res, 'https://anyone.example');
      expect(res.headers['access-control-max-age']).toBe('86400');
    }
  });

  it('answers 403 Forbidden without CORS headers when Origin is missing', async () => {
    const { app } = setup();
    expectBare(await request(app).options('/api/embed/quote'), 403, 'Forbidden');
  });

  it('is also what the gate itself does for OPTIONS, so mounting order cannot require a key for a preflight', async () => {
    const store = createFakeKeyStore();
    const app = express();
    app.use(
      '/api/embed',
      createEmbedGate({
        resolveKey: createCachedKeyResolver(store).resolve,
        rateLimiter: createRateLimiter(),
        firstPartyOrigins: [],
        testDashboardOrigins: [],
        allowQueryKey: () => false,
      }),
    );
    const res = await request(app).options('/api/embed/quote').set('Origin', SHOP);
    expect(res.status).toBe(204);
    expectCors(res, SHOP);
    expect(res.headers['access-control-max-age']).toBe('86400');
    expectBare(await request(app).options('/api/embed/quote'), 403, 'Forbidden');
    expect(store.calls).toEqual([]);
  });
});
