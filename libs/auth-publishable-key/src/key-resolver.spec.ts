import { createCachedKeyResolver, type KeyRecord, verifyKeyRecord } from './key-resolver';
import { mintPublishableKey } from './publishable-key';
import { createFakeKeyStore, keyRecord } from '../test/fake-key-store';

const NOW = Date.parse('2027-03-01T12:00:00Z');

describe('verifyKeyRecord', () => {
  const valid = keyRecord({ mode: 'live', allowedOrigins: ['HTTPS://Shop.Example.com:443', 'null'] });

  it('resolves a valid key with normalized origins', () => {
    expect(verifyKeyRecord(valid, NOW)).toEqual({
      keyId: valid.keyId,
      operatorId: valid.operatorId,
      mode: 'live',
      allowedOrigins: ['https://shop.example.com'],
      integrationTier: 1,
      operatorName: '',
    });
  });

  it('carries the operator integration tier (clamped to 1..3) and name', () => {
    const record = (integrationTier: number | undefined) =>
      keyRecord({ operator: { status: 'active', embeddingEnabled: true, integrationTier, name: 'Polar Voyages' } });
    expect(verifyKeyRecord(record(3), NOW)).toMatchObject({ integrationTier: 3, operatorName: 'Polar Voyages' });
    expect(verifyKeyRecord(record(2), NOW)?.integrationTier).toBe(2);
    for (const corrupt of [undefined, 0, 4, 2.5, -1])
      expect(verifyKeyRecord(record(corrupt), NOW)?.integrationTier).toBe(1);
  });

  it('accepts a Date for now', () => {
    expect(verifyKeyRecord(valid, new Date(NOW))).not.toBeNull();
  });

  it.each<[string, Partial<KeyRecord>]>([
    ['revoked', { revokedAt: new Date(NOW - 1) }],
    ['revoked in the future (any revokedAt revokes)', { revokedAt: new Date(NOW + 60_000) }],
    ['past its rotation-grace expiry', { expiresAt: new Date(NOW - 1) }],
    ['exactly at its expiry', { expiresAt: new Date(NOW) }],
    ['of a suspended operator', { operator: { status: 'suspended', embeddingEnabled: true } }],
    ['of a pending operator', { operator: { status: 'pending', embeddingEnabled: true } }],
    ['live without embedding enabled', { mode: 'live', operator: { status: 'active', embeddingEnabled: false } }],
  ])('rejects a key %s', (_label, patch) => {
    expect(verifyKeyRecord({ ...valid, ...patch }, NOW)).toBeNull();
  });

  it('accepts a key inside its rotation grace', () => {
    expect(verifyKeyRecord({ ...valid, expiresAt: new Date(NOW + 1) }, NOW)).not.toBeNull();
  });

  it('accepts a test key before embedding is enabled', () => {
    const record = {
      ...valid,
      mode: 'test' as const,
      operator: { status: 'active' as const, embeddingEnabled: false },
    };
    expect(verifyKeyRecord(record, NOW)?.mode).toBe('test');
  });

  it('rejects a test key of a pending operator too', () => {
    const record = {
      ...valid,
      mode: 'test' as const,
      operator: { status: 'pending' as const, embeddingEnabled: false },
    };
    expect(verifyKeyRecord(record, NOW)).toBeNull();
  });
});

describe('createCachedKeyResolver', () => {
  function setup(options: { ttlMs?: number; maxEntries?: number; maxNegativeEntries?: number } = {}) {
    const store = createFakeKeyStore();
    const clock = { t: NOW, now: () => new Date(clock.t) };
    const resolver = createCachedKeyResolver(store, { ...options, clock });
    const key = mintPublishableKey('test');
    store.put(key, keyRecord());
    return { store, clock, resolver, key };
  }

  it('calls the store once for many lookups within the ttl', async () => {
    const { store, resolver, key, clock } = setup();
    for (let i = 0; i < 20; i++) {
      clock.t += 100;
      expect(await resolver.resolve(key)).not.toBeNull();
    }
    expect(store.calls).toEqual([key]);
  });

  it('coalesces concurrent lookups of one key into one store call', async () => {
    const { store, resolver, key } = setup();
    const results = await Promise.all(Array.from({ length: 10 }, () => resolver.resolve(key)));
    expect(results.every((r) => r?.keyId === results[0]?.keyId && r !== null)).toBe(true);
    expect(store.calls).toHaveLength(1);
  });

  it('makes a revocation visible once the ttl has passed, not before', async () => {
    const { store, resolver, key, clock } = setup({ ttlMs: 5000 });
    expect(await resolver.resolve(key)).not.toBeNull();
    store.update(key, { revokedAt: new Date(clock.t) });
    clock.t += 4999;
    expect(await resolver.resolve(key)).not.toBeNull();
    clock.t += 1;
    expect(await resolver.resolve(key)).toBeNull();
    expect(store.calls).toHaveLength(2);
  });

  it('applies a rotation-grace expiry exactly, even from the cache', async () => {
    const { store, resolver, key, clock } = setup({ ttlMs: 60_000 });
    store.update(key, { expiresAt: new Date(clock.t + 1000) });
    expect(await resolver.resolve(key)).not.toBeNull();
    clock.t += 1000;
    expect(await resolver.resolve(key)).toBeNull();
    expect(store.calls).toHaveLength(1);
  });

  it('caches unknown keys too (negative caching) until the ttl passes', async () => {
    const { store, resolver, clock } = setup({ ttlMs: 5000 });
    const unknown = mintPublishableKey('live');
    expect(await resolver.resolve(unknown)).toBeNull();
    expect(await resolver.resolve(unknown)).toBeNull();
    expect(store.calls).toEqual([unknown]);
    store.put(unknown, keyRecord({ mode: 'live' }));
    clock.t += 5000;
    expect(await resolver.resolve(unknown)).not.toBeNull();
    expect(store.calls).toEqual([unknown, unknown]);
  });

  it('never asks the store about malformed keys or secret keys', async () => {
    const { store, resolver } = setup();
    expect(await resolver.resolve('garbage')).toBeNull();
    expect(await resolver.resolve(`sk_op_test_${'ab'.repeat(32)}`)).toBeNull();
    expect(store.calls).toEqual([]);
    expect(resolver.size()).toBe(0);
  });

  it('rejects a record whose mode disagrees with the key prefix', async () => {
    const { store, resolver } = setup();
    const live = mintPublishableKey('live');
    store.put(live, keyRecord({ mode: 'test' }));
    expect(await resolver.resolve(live)).toBeNull();
  });

  it('does not cache store errors and rethrows them to every waiter', async () => {
    const { store, resolver, key } = setup();
    let fail = true;
    const load = store.loadKey;
    store.loadKey = async (k) => {
      if (fail) throw new Error('db down');
      return load(k);
    };
    await expect(Promise.all([resolver.resolve(key), resolver.resolve(key)])).rejects.toThrow('db down');
    fail = false;
    expect(await resolver.resolve(key)).not.toBeNull();
  });

  it('answers a cached key as a value and only a store round trip as a promise', async () => {
    const { resolver, key } = setup();
    const first = resolver.resolve(key);
    expect(first).toBeInstanceOf(Promise);
    const resolved = await first;
    expect(resolved).not.toBeNull();
    expect(resolver.resolve(key)).toBe(resolved);
    expect(resolver.resolve('garbage')).toBeNull();
  });

  it('turns a store that throws synchronously into a rejection, never a throw', async () => {
    const { store, resolver, key } = setup();
    store.loadKey = () => {
      throw new Error('driver bug');
    };
    const answer = resolver.resolve(key);
    expect(answer).toBeInstanceOf(Promise);
    await expect(answer).rejects.toThrow('driver bug');
  });

  it('evicts the least recently used entry beyond maxEntries', async () => {
    const { store, resolver } = setup({ maxEntries: 2 });
    const [a, b, c] = [mintPublishableKey('test'), mintPublishableKey('test'), mintPublishableKey('test')];
    for (const k of [a, b, c]) store.put(k, keyRecord());
    await resolver.resolve(a);
    await resolver.resolve(b);
    await resolver.resolve(a); // a is now the most recently used
    await resolver.resolve(c); // evicts b
    expect(resolver.size()).toBe(2);
    store.calls.length = 0;
    await resolver.resolve(a);
    await resolver.resolve(b);
    expect(store.calls).toEqual([b]);
  });

  it('keeps the order when the most recently used key is read again, and after it is invalidated', async () => {
    const { store, resolver } = setup({ maxEntries: 2 });
    const [a, b, c, d] = [1, 2, 3, 4].map(() => mintPublishableKey('test')) as [string, string, string, string];
    for (const k of [a, b, c, d]) store.put(k, keyRecord());
    await resolver.resolve(a);
    await resolver.resolve(b);
    expect(await resolver.resolve(b)).not.toBeNull(); // b is already the most recent: served, nothing moves
    await resolver.resolve(c); // evicts a
    resolver.invalidate(c);
    await resolver.resolve(b); // b is the most recent again
    await resolver.resolve(d);
    await resolver.resolve(a); // the cache held b, d: a evicts b, the least recent
    store.calls.length = 0;
    await resolver.resolve(d);
    await resolver.resolve(a);
    await resolver.resolve(b);
    expect(store.calls).toEqual([b]);
  });

  it('keeps known keys cached while unknown keys flood the negative cache', async () => {
    const { store, resolver, key } = setup({ maxEntries: 1, maxNegativeEntries: 3 });
    await resolver.resolve(key);
    for (let i = 0; i < 10; i++) await resolver.resolve(mintPublishableKey('test'));
    store.calls.length = 0;
    await resolver.resolve(key);
    expect(store.calls).toEqual([]);
    expect(resolver.size()).toBe(4);
  });

  it('invalidate forces the next lookup to the store', async () => {
    const { store, resolver, key } = setup();
    await resolver.resolve(key);
    resolver.invalidate(key);
    await resolver.resolve(key);
    expect(store.calls).toHaveLength(2);
  });
});
