import express, { type NextFunction, type Request, type Response } from 'express';
import request from 'supertest';
import {
  createCachedKeyResolver,
  createEmbedGate,
  createPreflightHandler,
  type EmbedGateOptions,
  getEmbedContext,
  type KeyRecord,
  mintPublishableKey,
  mintSecretKey,
  sendBareForbidden,
} from '../src';
import { MODES, type Mode } from '@expedition/contracts';
import { createRateLimiter, type RateLimiter } from '@expedition/platform';
import { createFakeKeyStore, keyRecord } from './fake-key-store';

const SHOP = 'https://shop.example.com';
const WIDGET = 'http://localhost:3003';
const PORTAL = 'http://localhost:3004';
const START = Date.parse('2027-03-01T12:00:00Z');

type Overrides = Partial<Pick<EmbedGateOptions, 'rateLimiter' | 'logger' | 'onAdmitted'>> & { ttlMs?: number };

function setup(overrides: Overrides = {}) {
  const store = createFakeKeyStore();
  const clock = { t: START, now: () => new Date(clock.t) };
  const resolver = createCachedKeyResolver(store, { clock, ttlMs: overrides.ttlMs ?? 5000 });
  const gate = createEmbedGate({
    resolveKey: resolver.resolve,
    rateLimiter: overrides.rateLimiter ?? createRateLimiter({ keyPrefix: 'gate-test' }),
    firstPartyOrigins: [WIDGET],
    testDashboardOrigins: [PORTAL],
    allowQueryKey: (req) => req.method === 'GET' && req.path === '/api/embed/options',
    logger: overrides.logger,
    onAdmitted: overrides.onAdmitted,
  });

  const app = express();
  app.use(express.json());
  app.options(['/api/embed/quote', '/api/embed/options'], createPreflightHandler());
  app.post('/api/embed/quote', gate, (req, res) => {
    if (typeof req.body?.destination !== 'string') {
      res.status(400).json({ error: 'Missing or invalid required fields' });
      return;
    }
    res.json({ quoteId: 'q_1', context: getEmbedContext(req) });
  });
  app.get('/api/embed/options', gate, (req, res) => {
    const quoteId = req.query['quoteId'];
    if (!quoteId) {
      res.status(400).json({ error: 'quoteId required' });
      return;
    }
    if (quoteId !== 'q_1') return sendBareForbidden(res);
    res.json({ options: [], pending: true, context: getEmbedContext(req) });
  });
  app.get('/no-gate', (req, res) => {
    res.json({
      ok: (() => {
        try {
          getEmbedContext(req);
          return true;
        } catch {
          return false;
        }
      })(),
    });
  });
  app.use((err: Error, _req: Request, res: Response, _next: NextFunction) => {
    res.status(503).json({ error: err.message });
  });

  function addKey(mode: Mode, overrides: Partial<KeyRecord> = {}): string {
    const key = mintPublishableKey(mode);
    store.put(key, keyRecord({ mode, allowedOrigins: [SHOP], ...overrides }));
    return key;
  }

  const quote = (key: string | null, origin: string | null = SHOP) => {
    let req = request(app).post('/api/embed/quote').send({ destination: 'antarctica' });
    if (key !== null) req = req.set('X-SVC-Publishable-Key', key);
    if (origin !== null) req = req.set('Origin', origin);
    return req;
  };
  const options = (key: string | null, origin: string | null = SHOP, query = 'quoteId=q_1') => {
    let req = request(app).get(`/api/embed/options?${query}`);
    if (key !== null) req = req.set('X-SVC-Publishable-Key', key);
    if (origin !== null) req = req.set('Origin', origin);
    return req;
  };

  return { app, store, clock, resolver, addKey, quote, options };
}

function corsHeaderNames(res: request.Response): string[] {
  return Object.keys(res.headers).filter((h) => h.startsWith('access-control-'));
}

function expectVaryOrigin(res: request.Response) {
  expect(res.headers['vary']).toMatch(/(^|,\s*)Origin(\s*,|$)/);
}

function expectBare(res: request.Response, status: number, body: string) {
  expect(res.status).toBe(status);
  expect(res.text).toBe(body);
  expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
  expect(corsHeaderNames(res)).toEqual([]);
  expectVaryOrigin(res);
}

function expectCors(res: request.Response, origin: string) {
  expect(res.headers['access-control-allow-origin']).toBe(origin);
  expect(res.headers['access-control-allow-methods']).toBe('GET, POST, OPTIONS');
  expect(res.headers['access-control-allow-headers']).toBe('Content-Type, X-SVC-Publishable-Key');
  expect(res.headers['access-control-allow-credentials']).toBeUndefined();
  expectVaryOrigin(res);
}

describe('embed gate: publishable key (401)', () => {
  it('answers 401 Unauthorized without CORS headers when no key is presented', async () => {
    const { quote } = setup();
    expectBare(await quote(null), 401, 'Unauthorized');
  });

  it('answers 401 for an unknown key', async () => {
    const { quote } = setup();
    expectBare(await quote(mintPublishableKey('test')), 401, 'Unauthorized');
  });

  it('answers 401 for a malformed key without asking the store', async () => {
    const { quote, store } = setup();
    expectBare(await quote('pk_op_test_nothex'), 401, 'Unauthorized');
    expectBare(await quote(`PK_OP_${'A'.repeat(48)}`), 401, 'Unauthorized');
    expect(store.calls).toEqual([]);
  });

  it('answers 401 for a secret key, which no route accepts', async () => {
    const { quote, store } = setup();
    expectBare(await quote(mintSecretKey('test').key), 401, 'Unauthorized');
    expect(store.calls).toEqual([]);
  });

  it('answers 401 for a revoked key', async () => {
    const { quote, addKey } = setup();
    expectBare(await quote(addKey('test', { revokedAt: new Date(START - 1000) })), 401, 'Unauthorized');
  });

  it('accepts a rotated key until its grace expiry and answers 401 after it', async () => {
    const { quote, addKey, clock } = setup();
    const key = addKey('live', { expiresAt: new Date(START + 60_000) });
    expect((await quote(key)).status).toBe(200);
    clock.t = START + 60_000;
    expectBare(await quote(key), 401, 'Unauthorized');
  });

  it.each(['suspended', 'pending'] as const)('answers 401 for any key of a %s operator', async (status) => {
    const { quote, addKey } = setup();
    for (const mode of MODES) {
      const key = addKey(mode, { operator: { status, embeddingEnabled: true } });
      expectBare(await quote(key), 401, 'Unauthorized');
    }
  });

  it('answers 401 for a live key whose operator has embedding disabled, 200 once enabled', async () => {
    const { quote, addKey } = setup();
    expectBare(
      await quote(addKey('live', { operator: { status: 'active', embeddingEnabled: false } })),
      401,
      'Unauthorized',
    );
    const res = await quote(addKey('live', { operator: { status: 'active', embeddingEnabled: true } }));
    expect(res.status).toBe(200);
    expect(res.body.context.mode).toBe('live');
  });

  it('accepts a test key before embedding is enabled', async () => {
    const { quote, addKey } = setup();
    const res = await quote(addKey('test', { operator: { status: 'active', embeddingEnabled: false } }));
    expect(res.status).toBe(200);
    expect(res.body.context.mode).toBe('test');
  });

  it('answers 401 before looking at the Origin (key first)', async () => {
    const { quote } = setup();
    expectBare(await quote(null, null), 401, 'Unauthorized');
    expectBare(await quote(mintPublishableKey('test'), 'https://evil.example'), 401, 'Unauthorized');
  });

  it('passes store failures to the error handler instead of answering 401', async () => {
    const { app, store, addKey } = setup();
    const key = addKey('test');
    store.loadKey = async () => {
      throw new Error('db unavailable');
    };
    const res = await request(app).post('/api/embed/quote').set('X-SVC-Publishable-Key', key).set('Origin', SHOP);
    expect(res.status).toBe(503);
    expect(corsHeaderNames(res)).toEqual([]);
  });
});

describe('embed gate: where the key is read', () => {
  it('accepts ?pk= on GET /api/embed/options', async () => {
    const { options, addKey } = setup();
    const key = addKey('test');
    const res = await options(null, SHOP, `quoteId=q_1&pk=${key}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ options: [], pending: true });
  });

  it('reads the header first: a valid header wins over a bad ?pk', async () => {
    const { options, addKey } = setup();
    expect((await options(addKey('test'), SHOP, 'quoteId=q_1&pk=garbage')).status).toBe(200);
  });

  it('reads the header first: a bad header is not rescued by a valid ?pk', async () => {
    const { options, addKey } = setup();
    const key = addKey('test');
    expectBare(await options(mintPublishableKey('test'), SHOP, `quoteId=q_1&pk=${key}`), 401, 'Unauthorized');
  });

  it('trims the header', async () => {
    const { quote, addKey } = setup();
    expect((await quote(`  ${addKey('test')}\t`)).status).toBe(200);
  });

  it('treats a blank header as absent and falls back to ?pk on options', async () => {
    const { options, addKey } = setup();
    expect((await options('   ', SHOP, `quoteId=q_1&pk=${addKey('test')}`)).status).toBe(200);
  });

  it('ignores ?pk on POST /api/embed/quote', async () => {
    const { app, addKey } = setup();
    const res = await request(app)
      .post(`/api/embed/quote?pk=${addKey('test')}`)
      .set('Origin', SHOP)
      .send({ destination: 'antarctica' });
    expectBare(res, 401, 'Unauthorized');
  });

  it('does not accept a repeated ?pk', async () => {
    const { options, addKey } = setup();
    const key = addKey('test');
    expectBare(await options(null, SHOP, `quoteId=q_1&pk=${key}&pk=${key}`), 401, 'Unauthorized');
  });
});

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

describe('embed gate: rate limit (429)', () => {
  it('refuses the 61st request in a window with Retry-After and CORS headers', async () => {
    const { quote, addKey } = setup();
    const key = addKey('test');
    for (let i = 0; i < 60; i++) expect((await quote(key)).status).toBe(200);
    const res = await quote(key);
    expect(res.status).toBe(429);
    expect(res.text).toBe('Too Many Requests');
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.headers['retry-after']).toMatch(/^\d+$/);
    const retryAfter = Number(res.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expectCors(res, SHOP);
  });

  it('shares one budget per key across both routes', async () => {
    const { quote, options, addKey } = setup();
    const key = addKey('test');
    for (let i = 0; i < 30; i++) expect((await quote(key)).status).toBe(200);
    for (let i = 0; i < 30; i++) expect((await options(key)).status).toBe(200);
    expect((await options(key)).status).toBe(429);
    expect((await quote(key)).status).toBe(429);
  });

  it('keeps separate budgets for separate keys', async () => {
    const { quote, addKey } = setup({ rateLimiter: createRateLimiter({ points: 1, keyPrefix: 'sep' }) });
    const [a, b] = [addKey('test'), addKey('test')];
    expect((await quote(a)).status).toBe(200);
    expect((await quote(a)).status).toBe(429);
    expect((await quote(b)).status).toBe(200);
  });

  it('does not count 401s against any budget', async () => {
    const { quote, addKey } = setup({ rateLimiter: createRateLimiter({ points: 1, keyPrefix: 'auth' }) });
    for (let i = 0; i < 3; i++) expect((await quote(mintPublishableKey('test'))).status).toBe(401);
    expect((await quote(addKey('test'))).status).toBe(200);
  });

  describe('window reset', () => {
    // Only Date is faked: the in-memory limiter reads Date.now, while HTTP keeps its real timers.
    beforeEach(() => {
      jest.useFakeTimers({
        now: START,
        doNotFake: [
          'hrtime',
          'nextTick',
          'performance',
          'queueMicrotask',
          'requestAnimationFrame',
          'cancelAnimationFrame',
          'requestIdleCallback',
          'cancelIdleCallback',
          'setImmediate',
          'clearImmediate',
          'setInterval',
          'clearInterval',
          'setTimeout',
          'clearTimeout',
        ],
      });
    });
    afterEach(() => jest.useRealTimers());

    it('admits a fresh 60 after the window has passed and gives Retry-After as the seconds left', async () => {
      const { quote, addKey } = setup();
      const key = addKey('test');
      for (let i = 0; i < 60; i++) expect((await quote(key)).status).toBe(200);
      jest.setSystemTime(START + 15_200);
      const refused = await quote(key);
      expect(refused.status).toBe(429);
      expect(refused.headers['retry-after']).toBe('45');
      jest.setSystemTime(START + 60_000);
      for (let i = 0; i < 60; i++) expect((await quote(key)).status).toBe(200);
      expect((await quote(key)).status).toBe(429);
    });
  });

  it('lets requests through (fail open) and warns if the limiter itself throws', async () => {
    const warn = jest.fn();
    const broken: RateLimiter = { consume: async () => Promise.reject(new Error('limiter down')) };
    const { quote, addKey } = setup({ rateLimiter: broken, logger: { warn, debug: jest.fn() } });
    const res = await quote(addKey('test'));
    expect(res.status).toBe(200);
    expectCors(res, SHOP);
    expect(warn).toHaveBeenCalledTimes(1);
  });
});

describe('embed gate: context and key cache', () => {
  it('attaches { keyId, operatorId, mode, origin, integrationTier } for the route', async () => {
    const { quote, store, addKey } = setup();
    const key = addKey('test', { operator: { status: 'active', embeddingEnabled: true, integrationTier: 2 } });
    const record = store.records.get(key)!;
    const res = await quote(key, WIDGET);
    expect(res.body.context).toEqual({
      keyId: record.keyId,
      operatorId: record.operatorId,
      mode: 'test',
      origin: WIDGET,
      integrationTier: 2,
    });
  });

  it('getEmbedContext throws where the gate did not run', async () => {
    const { app } = setup();
    expect((await request(app).get('/no-gate')).body).toEqual({ ok: false });
  });

  it('asks the store once for many requests with the same key', async () => {
    const { quote, options, addKey, store } = setup();
    const key = addKey('test');
    for (let i = 0; i < 5; i++) {
      expect((await quote(key)).status).toBe(200);
      expect((await options(key)).status).toBe(200);
    }
    expect(store.calls).toEqual([key]);
  });

  it('makes a revocation visible once the cache ttl has passed', async () => {
    const { quote, addKey, store, clock } = setup({ ttlMs: 5000 });
    const key = addKey('test');
    expect((await quote(key)).status).toBe(200);
    store.update(key, { revokedAt: new Date(clock.t) });
    clock.t += 4000;
    expect((await quote(key)).status).toBe(200);
    clock.t += 1000;
    expectBare(await quote(key), 401, 'Unauthorized');
  });

  it('caches unknown keys (negative caching)', async () => {
    const { quote, store } = setup();
    const unknown = mintPublishableKey('live');
    for (let i = 0; i < 3; i++) expect((await quote(unknown)).status).toBe(401);
    expect(store.calls).toEqual([unknown]);
  });

  it('never logs a full key', async () => {
    const debug = jest.fn();
    const { quote, addKey } = setup({ logger: { warn: jest.fn(), debug } });
    const revoked = addKey('test', { revokedAt: new Date(START) });
    const secret = mintSecretKey('live').key;
    await quote(revoked);
    await quote(secret);
    await quote(addKey('test'), 'https://evil.example');
    expect(debug).toHaveBeenCalled();
    const logged = JSON.stringify(debug.mock.calls);
    expect(logged).not.toContain(revoked);
    expect(logged).not.toContain(secret);
    expect(logged).toContain(`pk_op_test_…${revoked.slice(-4)}`);
  });
});

describe('createEmbedGate configuration', () => {
  it('refuses an invalid configured origin', () => {
    const store = createFakeKeyStore();
    expect(() =>
      createEmbedGate({
        resolveKey: createCachedKeyResolver(store).resolve,
        rateLimiter: createRateLimiter(),
        firstPartyOrigins: ['localhost:3003'],
        testDashboardOrigins: [],
        allowQueryKey: () => false,
      }),
    ).toThrow(/firstPartyOrigins/);
  });
});

describe('embed gate: onAdmitted (e.g. the key lastUsedAt recorder)', () => {
  it('is called once per admitted request with the resolved key, never for a refused one', async () => {
    const admitted: string[] = [];
    const { quote, addKey, store } = setup({
      onAdmitted: (key) => void admitted.push(key.keyId),
      rateLimiter: createRateLimiter({ points: 1, durationSec: 60, keyPrefix: 'gate-admitted' }),
    });
    const key = addKey('test');
    expect((await quote(key)).status).toBe(200);
    expect(admitted).toEqual([store.records.get(key)!.keyId]);
    expect((await quote(key, 'https://evil.example')).status).toBe(403);
    expect((await quote(mintPublishableKey('test'))).status).toBe(401);
    expect((await quote(key)).status).toBe(429);
    expect(admitted).toHaveLength(1);
  });

  it('a throwing hook is logged and the request still passes', async () => {
    const warn = jest.fn();
    const { quote, addKey } = setup({
      onAdmitted: () => {
        throw new Error('boom');
      },
      logger: { warn, debug: jest.fn() },
    });
    expect((await quote(addKey('test'))).status).toBe(200);
    expect(warn).toHaveBeenCalledTimes(1);
  });
});
