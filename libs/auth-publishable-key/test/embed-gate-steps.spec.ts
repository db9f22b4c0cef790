import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import express from 'express';
import type { Mode } from '@expedition/contracts';
import type { RateLimiter } from '@expedition/platform';
import {
  createCachedKeyResolver,
  createEmbedGate,
  createEmbedGateSteps,
  mintPublishableKey,
  type ResolveKey,
} from '../src';
import { createFakeKeyStore, keyRecord } from './fake-key-store';
import { PORTAL, SHOP, START, WIDGET } from './gate-harness';

/*
 * createEmbedGateSteps: the gate for a caller that answers before Express (embed-api's ready poll). `admissible` must
 * decide exactly as the gate's key and Origin steps and leave no trace; `admit` must answer the gate's 429 byte for
 * byte.
 */

function fixture(options: { limiter?: RateLimiter; resolveKey?: ResolveKey; onAdmitted?: () => void } = {}) {
  const store = createFakeKeyStore();
  const resolver = createCachedKeyResolver(store, { clock: { now: () => new Date(START) } });
  const gateOptions = {
    resolveKey: options.resolveKey ?? resolver.resolve,
    rateLimiter: options.limiter ?? { consume: async () => ({ allowed: true, retryAfterSec: 0, remaining: 9 }) },
    firstPartyOrigins: [WIDGET],
    testDashboardOrigins: [PORTAL],
    onAdmitted: options.onAdmitted,
  };
  const addKey = (mode: Mode) => {
    const key = mintPublishableKey(mode);
    store.put(key, keyRecord({ mode, allowedOrigins: [SHOP] }));
    return key;
  };
  return { steps: createEmbedGateSteps(gateOptions), gateOptions, addKey };
}

function requestWith(headers: Record<string, string>): IncomingMessage {
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  return { headers: lower } as IncomingMessage;
}

describe('createEmbedGateSteps: admissible', () => {
  it('passes what the gate lets on to the rate limit, with the normalized origin', async () => {
    const { steps, addKey } = fixture();
    const test = addKey('test');
    const live = addKey('live');
    const admissible = (key: string, origin: string) =>
      steps.admissible(requestWith({ 'X-SVC-Publishable-Key': key, Origin: origin }), undefined);
    expect(await admissible(test, 'HTTPS://SHOP.EXAMPLE.COM')).toMatchObject({ origin: SHOP });
    expect(await admissible(test, WIDGET)).toMatchObject({ origin: WIDGET });
    expect(await admissible(test, PORTAL)).toMatchObject({ origin: PORTAL });
    expect(await admissible(live, SHOP)).toMatchObject({ origin: SHOP, key: { mode: 'live' } });
  });

  it('is null for everything the gate refuses: no key, unknown, malformed, origin not allowed, live key on the dashboard', async () => {
    const { steps, addKey } = fixture();
    const test = addKey('test');
    const live = addKey('live');
    const cases: [Record<string, string>, (() => unknown) | undefined][] = [
      [{ Origin: SHOP }, undefined],
      [{ Origin: SHOP }, () => [test, test]],
      [{ 'X-SVC-Publishable-Key': mintPublishableKey('test'), Origin: SHOP }, undefined],
      [{ 'X-SVC-Publishable-Key': 'pk_op_test_x', Origin: SHOP }, undefined],
      [{ 'X-SVC-Publishable-Key': test, Origin: 'https://elsewhere.example' }, undefined],
      [{ 'X-SVC-Publishable-Key': test }, undefined],
      [{ 'X-SVC-Publishable-Key': live, Origin: PORTAL }, undefined],
    ];
    for (const [headers, queryKey] of cases) expect(await steps.admissible(requestWith(headers), queryKey)).toBeNull();
  });

  it('reads ?pk only when given a reader, and the header first', async () => {
    const { steps, addKey } = fixture();
    const key = addKey('test');
    expect(await steps.admissible(requestWith({ Origin: SHOP }), () => ` ${key} `)).not.toBeNull();
    expect(
      await steps.admissible(requestWith({ 'X-SVC-Publishable-Key': ' ', Origin: SHOP }), () => key),
    ).not.toBeNull();
    const headerOnly = await steps.admissible(requestWith({ 'X-SVC-Publishable-Key': key, Origin: SHOP }), undefined);
    const both = await steps.admissible(requestWith({ 'X-SVC-Publishable-Key': key, Origin: SHOP }), () =>
      addKey('test'),
    );
    expect(both?.key.keyId).toBe(headerOnly?.key.keyId);
  });

  it('is null when the key store fails (the caller hands the request to the gate, which reports the error)', async () => {
    const { steps } = fixture({ resolveKey: () => Promise.reject(new Error('store down')) });
    const req = requestWith({ 'X-SVC-Publishable-Key': mintPublishableKey('test'), Origin: SHOP });
    expect(await steps.admissible(req, undefined)).toBeNull();
  });

  it('consumes no budget and calls no hook', async () => {
    const consume = jest.fn();
    const onAdmitted = jest.fn();
    const { steps, addKey } = fixture({ limiter: { consume }, onAdmitted });
    await steps.admissible(requestWith({ 'X-SVC-Publishable-Key': addKey('test'), Origin: SHOP }), undefined);
    expect(consume).not.toHaveBeenCalled();
    expect(onAdmitted).not.toHaveBeenCalled();
  });
});

describe('createEmbedGateSteps: admit', () => {
  /** The raw response of a server whose handler is `handle`, with the Date line removed. */
  async function rawResponse(
    handle: (req: IncomingMessage, res: ServerResponse) => void,
    headers: Record<string, string> = {},
  ) {
    const server = createServer(handle);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      return await new Promise<string>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1');
        const chunks: Buffer[] = [];
        socket.on('data', (c) => chunks.push(c));
        socket.on('end', () =>
          resolve(
            Buffer.concat(chunks)
              .toString('latin1')
              .replace(/^Date: [^\r]*\r\n/m, ''),
          ),
        );
        socket.on('error', reject);
        const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
        socket.write(`GET /api/embed/options HTTP/1.1\r\nHost: x\r\nConnection: close\r\n${lines.join('')}\r\n`);
      });
    } finally {
      server.close();
    }
  }

  it("answers over budget with the gate's 429, byte for byte, and runs no hook", async () => {
    const onAdmitted = jest.fn();
    const limiter = { consume: async () => ({ allowed: false, retryAfterSec: 7, remaining: 0 }) };
    const { steps, gateOptions, addKey } = fixture({ limiter, onAdmitted });
    const key = addKey('test');
    const headers = { 'X-SVC-Publishable-Key': key, Origin: SHOP };

    const app = express();
    app.set('etag', false);
    app.disable('x-powered-by');
    app.get('/api/embed/options', createEmbedGate({ ...gateOptions, allowQueryKey: () => true }));
    const viaGate = await rawResponse((req, res) => app(req, res), headers);
    const viaSteps = await rawResponse((req, res) => {
      void steps.admissible(req, undefined).then(async (admissible) => {
        expect(await steps.admit(res, admissible!)).toBe(false);
      });
    }, headers);
    expect(viaSteps).toBe(viaGate);
    expect(viaSteps).toMatch(/^HTTP\/1\.1 429 Too Many Requests\r\n/);
    expect(onAdmitted).not.toHaveBeenCalled();
  });

  it('sets the CORS headers, runs the hook and leaves the answer to the caller when admitted', async () => {
    const onAdmitted = jest.fn();
    const { steps, addKey } = fixture({ onAdmitted });
    const raw = await rawResponse((_req, res) => {
      void steps
        .admissible(requestWith({ 'X-SVC-Publishable-Key': addKey('test'), Origin: SHOP }), undefined)
        .then(async (admissible) => {
          expect(await steps.admit(res, admissible!)).toBe(true);
          expect(res.headersSent).toBe(false);
          res.end('route');
        });
    });
    expect(raw).toContain(`\r\nVary: Origin\r\nAccess-Control-Allow-Origin: ${SHOP}\r\n`);
    expect(raw).toContain('\r\nAccess-Control-Expose-Headers: Retry-After\r\n');
    expect(raw.endsWith('route')).toBe(true);
    expect(onAdmitted).toHaveBeenCalledTimes(1);
  });
});
