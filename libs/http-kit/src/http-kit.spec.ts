import express from 'express';
import request from 'supertest';
import { z } from 'zod';
import pino from 'pino';
import { createRateLimiter } from '@expedition/platform';
import {
  AppError,
  clientRateLimit,
  errorHandler,
  healthRoutes,
  httpLogger,
  notFound,
  parseOrThrow,
  requestId,
} from './index';
import { redactPath } from './logger';

const silent = pino({ level: 'silent' });

function app(ready = async () => undefined) {
  const a = express();
  a.use(requestId());
  a.use(express.json({ limit: '1kb' }));
  a.use(healthRoutes({ ready }));
  a.post('/echo', (req, res) => {
    const body = parseOrThrow(z.object({ name: z.string(), age: z.number().int() }), req.body);
    res.json(body);
  });
  a.get('/boom', () => {
    throw new Error('secret internals');
  });
  a.get('/db-down', () => {
    // What Prisma throws (driver adapter) when PostgreSQL is restarting or unreachable.
    throw Object.assign(new Error("Can't reach database server at 10.0.0.5:5432"), {
      code: 'P1001',
      meta: { driverAdapterError: { name: 'DriverAdapterError', cause: { kind: 'DatabaseNotReachable' } } },
    });
  });
  a.get('/pg-shutdown', () => {
    throw new Error('query failed', {
      cause: Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
    });
  });
  a.get('/gone', () => {
    throw new AppError(410, 'quote_expired', 'The quote has expired');
  });
  a.use(notFound());
  a.use(errorHandler(silent));
  return a;
}

describe('http-kit', () => {
  it('names missing fields in a 400 body with details', async () => {
    const res = await request(app()).post('/echo').send({ age: 3 });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'invalid_request', error: 'Missing required field: name' });
    expect(res.body.details).toEqual([{ path: 'name', message: 'is required' }]);
  });

  it('answers 400 invalid_json for unparseable bodies and 413 for oversized ones', async () => {
    const bad = await request(app()).post('/echo').set('Content-Type', 'application/json').send('{"name":');
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('invalid_json');
    const big = await request(app())
      .post('/echo')
      .send({ name: 'x'.repeat(2000), age: 1 });
    expect(big.status).toBe(413);
    expect(big.body.code).toBe('payload_too_large');
  });

  it('hides internals of unexpected errors behind a 500', async () => {
    const res = await request(app()).get('/boom');
    expect(res.status).toBe(500);
    expect(res.body).toMatchObject({ code: 'internal_error', error: 'Internal server error' });
    expect(JSON.stringify(res.body)).not.toMatch(/secret internals|at /);
  });

  it('answers 503 with Retry-After, not 500, while the database cannot be reached', async () => {
    for (const path of ['/db-down', '/pg-shutdown']) {
      const res = await request(app()).get(path);
      expect([path, res.status, res.headers['retry-after']]).toEqual([path, 503, '5']);
      expect(res.body).toMatchObject({
        code: 'internal_error',
        error: expect.stringMatching(/briefly unavailable.*Retry-After/),
      });
      expect(JSON.stringify(res.body)).not.toMatch(/10\.0\.0\.5|administrator|at /);
    }
  });

  it('renders AppError with its status and a 404 for unknown routes', async () => {
    expect((await request(app()).get('/gone')).status).toBe(410);
    const res = await request(app()).get('/nope');
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
  });

  it('echoes a safe X-Request-Id and replaces an unsafe one', async () => {
    const ok = await request(app()).get('/healthz').set('X-Request-Id', 'abc-123');
    expect(ok.headers['x-request-id']).toBe('abc-123');
    const unsafe = await request(app()).get('/healthz').set('X-Request-Id', 'a b;'.repeat(50));
    expect(unsafe.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('reports readiness from its dependency', async () => {
    expect((await request(app()).get('/readyz')).status).toBe(200);
    const down = await request(app(async () => Promise.reject(new Error('db down')))).get('/readyz');
    expect(down.status).toBe(503);
  });

  it('reports not ready when its dependency hangs, instead of never answering', async () => {
    const a = express();
    a.use(healthRoutes({ ready: () => new Promise<void>(() => undefined), readyTimeoutMs: 20 }));
    const res = await request(a).get('/readyz');
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ status: 'unavailable' });
  });

  it('limits a client and says when to retry', async () => {
    let hits = 0;
    const a = express();
    a.use(
      clientRateLimit({ consume: async () => ({ allowed: ++hits <= 2, retryAfterSec: 17, remaining: 2 - hits }) }, 2),
    );
    a.get('/', (_req, res) => res.json({ ok: true }));
    a.use(errorHandler(silent));
    expect((await request(a).get('/')).headers['ratelimit-limit']).toBe('2');
    await request(a).get('/');
    const limited = await request(a).get('/');
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toBe('17');
    expect(limited.body.code).toBe('rate_limited');
  });

  it('counts every address of one IPv6 /64 as one client (55 addresses of a /64 share one budget)', async () => {
    const a = express();
    a.set('trust proxy', true);
    a.use(clientRateLimit(createRateLimiter({ points: 50, durationSec: 60, keyPrefix: 'v6' }), 50));
    a.get('/', (_req, res) => res.json({ ok: true }));
    a.use(errorHandler(silent));
    const statuses: number[] = [];
    for (let i = 1; i <= 55; i++) {
      statuses.push(
        (
          await request(a)
            .get('/')
            .set('X-Forwarded-For', `2001:db8:7:7::${i.toString(16)}`)
        ).status,
      );
    }
    expect(statuses.filter((s) => s === 429)).toHaveLength(5);
    expect((await request(a).get('/').set('X-Forwarded-For', '2001:db8:7:8::1')).status).toBe(200);
  });
});

describe('httpLogger', () => {
  it('writes one line per request with id, path without query, status and duration, and offers req.log', async () => {
    const lines: Record<string, unknown>[] = [];
    const logger = pino({ level: 'info' }, { write: (l: string) => lines.push(JSON.parse(l)) });
    const a = express();
    a.use(requestId());
    a.use(httpLogger(logger));
    a.get('/x', (req, res) => {
      req.log?.info({ extra: 1 }, 'inside');
      res.status(404).json({});
    });
    await request(a).get('/x?pk=pk_op_test_secretish').set('X-Request-Id', 'r-1');
    const done = lines.find((l) => l['msg'] === 'request completed')!;
    expect(done).toMatchObject({ reqId: 'r-1', method: 'GET', path: '/x', status: 404, level: 30 });
    expect(typeof done['ms']).toBe('number');
    expect(lines.find((l) => l['msg'] === 'inside')).toMatchObject({ reqId: 'r-1', extra: 1 });
    expect(JSON.stringify(lines)).not.toContain('secretish');
  });

  it('logs expected refusals (4xx) at info and only 5xx at error, so a warn-level console shows real trouble only', async () => {
    const lines: Record<string, unknown>[] = [];
    const logger = pino({ level: 'warn' }, { write: (l: string) => lines.push(JSON.parse(l)) });
    const a = express();
    a.use(httpLogger(logger));
    a.post('/purchase', (_req, res) => res.status(402).json({ type: 'payment-required' }));
    a.post('/pay', (_req, res) => res.status(400).json({ error: 'Your card was declined' }));
    a.get('/limited', (_req, res) => res.status(429).send('Too Many Requests'));
    a.get('/down', (_req, res) => res.status(503).json({}));
    await request(a).post('/purchase');
    await request(a).post('/pay');
    await request(a).get('/limited');
    await request(a).get('/down');
    expect(lines.map((l) => [l['path'], l['level']])).toEqual([['/down', 50]]);
  });

  it('never writes a checkout-link token (or another bearer token in the path) to the log line', async () => {
    const lines: Record<string, unknown>[] = [];
    const logger = pino({ level: 'info' }, { write: (l: string) => lines.push(JSON.parse(l)) });
    const a = express();
    a.use(requestId());
    a.use(httpLogger(logger));
    a.get('/checkout/:token', (_req, res) => res.send('page'));
    a.post('/checkout/:token/pay', (_req, res) => res.status(303).end());
    const token = 'cs_Zq8vJ2kP0tLw3yNb5xRc7dFh9gMs1aUe4iOo6pQr';

    await request(a).get(`/checkout/${token}`);
    await request(a).post(`/checkout/${token}/pay`);
    await request(a).get(`/checkout/${encodeURIComponent(token).replace('cs_', 'cs%5F')}`);

    const paths = lines.filter((l) => l['msg'] === 'request completed').map((l) => l['path']);
    expect(paths).toEqual(['/checkout/cs_[redacted]', '/checkout/cs_[redacted]/pay', '/checkout/cs_[redacted]']);
    expect(JSON.stringify(lines)).not.toContain(token.slice(3));
  });

  it("never writes a policy access token to the log line: not from the certificate link's query, nor a path, nor a header", async () => {
    const lines: Record<string, unknown>[] = [];
    const logger = pino({ level: 'info' }, { write: (l: string) => lines.push(JSON.parse(l)) });
    const a = express();
    a.use(requestId());
    a.use(httpLogger(logger));
    a.get('/api/v1/policies/:policyNumber/certificate.pdf', (req, res) => {
      req.log?.info({ headers: req.headers }, 'inside');
      res.status(404).json({});
    });
    a.get('/api/v1/policies/:policyNumber', (_req, res) => res.status(404).json({}));
    const token = 'pat_Zq8vJ2kP0tLw3yNb5xRc7dFh9gMs1aUe4iOo6pQrXy';

    await request(a).get(`/api/v1/policies/POL-2026-ABCDEF/certificate.pdf?access_token=${token}`);
    await request(a).get(
      `/api/v1/policies/POL-2026-ABCDEF/certificate.pdf?x=1&access_token=${encodeURIComponent(token)}`,
    );
    await request(a).get(`/api/v1/policies/${token}`);

    const paths = lines.filter((l) => l['msg'] === 'request completed').map((l) => l['path']);
    expect(paths).toEqual([
      '/api/v1/policies/POL-2026-ABCDEF/certificate.pdf',
      '/api/v1/policies/POL-2026-ABCDEF/certificate.pdf',
      '/api/v1/policies/pat_[redacted]',
    ]);
    expect(JSON.stringify(lines)).not.toContain(token.slice(4));
  });
});

describe('redactPath', () => {
  it.each([
    ['/checkout/cs_abc123', '/checkout/cs_[redacted]'],
    ['/checkout/cs_abc123/pay?x=1', '/checkout/cs_[redacted]/pay'],
    ['/v1/keys/sk_op_test_0123abcd', '/v1/keys/sk_[redacted]'],
    ['/hooks/whsec_0123', '/hooks/whsec_[redacted]'],
    ['/pay/pi_123_secret_456', '/pay/[redacted]'],
    ['/api/embed/options?quoteId=q&pk=pk_op_test_abc', '/api/embed/options'],
    ['/api/v1/products/meridian-expedition-standard', '/api/v1/products/meridian-expedition-standard'],
    ['/widget/pk_op_test_abc', '/widget/pk_op_test_abc'],
    [
      '/api/v1/policies/POL-2026-ABCDEF/certificate.pdf?access_token=pat_abc',
      '/api/v1/policies/POL-2026-ABCDEF/certificate.pdf',
    ],
    ['/api/v1/policies/pat_abc', '/api/v1/policies/pat_[redacted]'],
  ])('%s is logged as %s', (url, logged) => {
    expect(redactPath(url)).toBe(logged);
  });
});
