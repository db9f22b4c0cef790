import request from 'supertest';
import { mintPublishableKey } from '@expedition/auth-publishable-key';
import { createPrismaKeyStore } from '@expedition/operators';
import {
  createHarness,
  OTHER_SITE_ORIGIN,
  seedKey,
  seedOperator,
  seedTenant,
  SITE_ORIGIN,
  type Harness,
} from './harness';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ keyCacheTtlMs: 5_000 });
});
afterAll(() => h.close());

describe('createPrismaKeyStore', () => {
  it('loads the key, its operator and all allowed origins in one statement, with exact instants', async () => {
    const operatorId = await seedOperator(h.prisma, {
      status: 'suspended',
      embeddingEnabled: true,
      origins: [SITE_ORIGIN, OTHER_SITE_ORIGIN],
    });
    const revokedAt = new Date('2026-11-01T12:34:56.789Z');
    const expiresAt = new Date('2026-12-24T23:59:59.001Z');
    const key = await seedKey(h.prisma, operatorId, 'live', { revokedAt, expiresAt });
    const keyId = (await h.prisma.publishableKey.findUniqueOrThrow({ where: { key } })).id;

    const queries = jest.spyOn(h.prisma, '$queryRaw');
    const record = await createPrismaKeyStore(h.prisma).loadKey(key);
    expect(queries).toHaveBeenCalledTimes(1);
    queries.mockRestore();

    expect(record).toEqual({
      keyId,
      operatorId,
      mode: 'live',
      revokedAt,
      expiresAt,
      operator: { status: 'suspended', embeddingEnabled: true, integrationTier: 3, name: 'Polar Voyages' },
      allowedOrigins: [OTHER_SITE_ORIGIN, SITE_ORIGIN].sort(),
    });
  });

  it('drops loopback origins for live keys only (localhost is for test keys)', async () => {
    const operatorId = await seedOperator(h.prisma, {
      embeddingEnabled: true,
      origins: [SITE_ORIGIN, 'http://localhost:4200', 'http://127.0.0.1:4200'],
    });
    const store = createPrismaKeyStore(h.prisma);
    const live = await store.loadKey(await seedKey(h.prisma, operatorId, 'live'));
    const test = await store.loadKey(await seedKey(h.prisma, operatorId, 'test'));
    expect(live?.allowedOrigins).toEqual([SITE_ORIGIN]);
    expect([...(test?.allowedOrigins ?? [])].sort()).toEqual(
      ['http://127.0.0.1:4200', 'http://localhost:4200', SITE_ORIGIN].sort(),
    );
  });

  it('answers null for an unknown key and [] for an operator without origins', async () => {
    const store = createPrismaKeyStore(h.prisma);
    expect(await store.loadKey(mintPublishableKey('test'))).toBeNull();
    const operatorId = await seedOperator(h.prisma, { origins: [] });
    const key = await seedKey(h.prisma, operatorId, 'test');
    expect(await store.loadKey(key)).toMatchObject({
      mode: 'test',
      revokedAt: null,
      expiresAt: null,
      allowedOrigins: [],
    });
  });
});

describe('revocation bound (EMBED_KEY_CACHE_TTL_MS, 5 s here)', () => {
  const poll = (key: string, origin = SITE_ORIGIN) =>
    request(h.app)
      .get('/api/embed/options?quoteId=7d1f2c3a-1111-4222-8333-944455556666')
      .set('X-SVC-Publishable-Key', key)
      .set('Origin', origin);

  it('a revoked key keeps working for at most the ttl, then is refused', async () => {
    const { testKey } = await seedTenant(h.prisma);
    expect((await poll(testKey)).status).toBe(403); // admitted by the gate (the quote is unknown)
    await h.prisma.publishableKey.update({ where: { key: testKey }, data: { revokedAt: h.clock.now() } });
    h.clock.advance(4_999);
    expect((await poll(testKey)).status).toBe(403);
    h.clock.advance(1);
    expect((await poll(testKey)).status).toBe(401);
  });

  it('suspending the operator, disabling embedding and removing an origin take effect within the ttl', async () => {
    const suspended = await seedTenant(h.prisma);
    const disabled = await seedTenant(h.prisma);
    const narrowed = await seedTenant(h.prisma, { origins: [SITE_ORIGIN, OTHER_SITE_ORIGIN] });
    expect((await poll(suspended.testKey)).status).toBe(403);
    expect((await poll(disabled.liveKey)).status).toBe(403);
    expect((await poll(narrowed.testKey, OTHER_SITE_ORIGIN)).status).toBe(403);
    expect((await poll(narrowed.testKey, OTHER_SITE_ORIGIN)).text).toBe('Forbidden');

    await h.prisma.operator.update({ where: { id: suspended.operatorId }, data: { status: 'suspended' } });
    await h.prisma.operator.update({ where: { id: disabled.operatorId }, data: { embeddingEnabled: false } });
    await h.prisma.allowedOrigin.deleteMany({ where: { operatorId: narrowed.operatorId, origin: OTHER_SITE_ORIGIN } });
    h.clock.advance(5_000);

    expect((await poll(suspended.testKey)).status).toBe(401);
    expect((await poll(disabled.liveKey)).status).toBe(401);
    expect((await poll(disabled.testKey)).status).toBe(403); // test keys do not need embedding enabled
    const refused = await poll(narrowed.testKey, OTHER_SITE_ORIGIN);
    expect(refused.status).toBe(403);
    expect(refused.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('hits the database once per key per ttl, not once per request', async () => {
    const { testKey } = await seedTenant(h.prisma);
    h.clock.advance(10_000);
    const queries = jest.spyOn(h.prisma, '$queryRaw');
    for (let i = 0; i < 10; i++) await poll(testKey);
    expect(queries).toHaveBeenCalledTimes(1);
    queries.mockRestore();
  });
});
