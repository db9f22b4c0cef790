import request from 'supertest';
import { createCachedKeyResolver, createEmbedGate, mintPublishableKey, mintSecretKey } from '../src';
import { createRateLimiter } from '@expedition/platform';
import { createFakeKeyStore } from './fake-key-store';
import { WIDGET, START, setup, expectBare } from './gate-harness';

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
