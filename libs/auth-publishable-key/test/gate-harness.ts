import express, { type NextFunction, type Request, type Response } from 'express';
import request from 'supertest';
import type { Mode } from '@expedition/contracts';
import { createRateLimiter } from '@expedition/platform';
import { sendBareForbidden } from '../src/cors';
import { createEmbedGate, createPreflightHandler, getEmbedContext, type EmbedGateOptions } from '../src/embed-gate';
import { createCachedKeyResolver, type KeyRecord } from '../src/key-resolver';
import { mintPublishableKey } from '../src/publishable-key';
import { createFakeKeyStore, keyRecord } from './fake-key-store';

/**
 * The embed gate's test app (embed-gate-*.spec.ts): the gate over a fake key store and an in-memory limiter, in front
 * of stand-ins for the quote and options routes, and the header checks the specs share.
 */
export const SHOP = 'https://shop.example.com';
export const WIDGET = 'http://localhost:3003';
export const PORTAL = 'http://localhost:3004';
export const START = Date.parse('2027-03-01T12:00:00Z');

export type Overrides = Partial<Pick<EmbedGateOptions, 'rateLimiter' | 'logger' | 'onAdmitted'>> & { ttlMs?: number };

export function setup(overrides: Overrides = {}) {
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

export function corsHeaderNames(res: request.Response): string[] {
  return Object.keys(res.headers).filter((h) => h.startsWith('access-control-'));
}

export function expectVaryOrigin(res: request.Response) {
  expect(res.headers['vary']).toMatch(/(^|,\s*)Origin(\s*,|$)/);
}

export function expectBare(res: request.Response, status: number, body: string) {
  expect(res.status).toBe(status);
  expect(res.text).toBe(body);
  expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
  expect(corsHeaderNames(res)).toEqual([]);
  expectVaryOrigin(res);
}

export function expectCors(res: request.Response, origin: string) {
  expect(res.headers['access-control-allow-origin']).toBe(origin);
  expect(res.headers['access-control-allow-methods']).toBe('GET, POST, OPTIONS');
  expect(res.headers['access-control-allow-headers']).toBe('Content-Type, X-SVC-Publishable-Key');
  expect(res.headers['access-control-allow-credentials']).toBeUndefined();
  expectVaryOrigin(res);
}
