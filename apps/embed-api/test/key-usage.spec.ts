import request from 'supertest';
import { createKeyUsageRecorder } from '@expedition/operators';
import { createHarness, seedTenant, testClock, WIDGET_ORIGIN, type Harness } from './harness';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

const lastUsedAt = async (key: string) =>
  (await h.prisma.publishableKey.findUniqueOrThrow({ where: { key } })).lastUsedAt;

describe('publishable key lastUsedAt', () => {
  it('is written by the gate path at most once per minute per key, never once per request', async () => {
    const clock = testClock('2026-11-23T10:00:00Z');
    const usage = createKeyUsageRecorder(h.prisma, { clock });
    const app = (await createHarness({ db: h.db, deps: { onKeyUsed: (key) => usage.touch(key.keyId) } })).app;
    const { testKey, liveKey } = await seedTenant(h.prisma);
    const updates = jest.spyOn(h.prisma.publishableKey, 'updateMany');
    const poll = (key: string) =>
      request(app)
        .get('/api/embed/options?quoteId=7d1f2c3a-1111-4222-8333-944455556666')
        .set('X-SVC-Publishable-Key', key)
        .set('Origin', WIDGET_ORIGIN);

    expect(await lastUsedAt(testKey)).toBeNull();
    for (let i = 0; i < 5; i++) expect((await poll(testKey)).status).toBe(403);
    await usage.flush();
    expect(updates).toHaveBeenCalledTimes(1);
    expect(await lastUsedAt(testKey)).toEqual(new Date('2026-11-23T10:00:00Z'));
    expect(await lastUsedAt(liveKey)).toBeNull();

    clock.advance(59_999);
    await poll(testKey);
    await usage.flush();
    expect(updates).toHaveBeenCalledTimes(1);

    clock.advance(1);
    await poll(testKey);
    await usage.flush();
    expect(updates).toHaveBeenCalledTimes(2);
    expect(await lastUsedAt(testKey)).toEqual(new Date('2026-11-23T10:01:00Z'));
    updates.mockRestore();
  });

  it('a refused request (unknown key, wrong origin) records nothing', async () => {
    const usage = createKeyUsageRecorder(h.prisma);
    const touch = jest.spyOn(usage, 'touch');
    const app = (await createHarness({ db: h.db, deps: { onKeyUsed: (key) => usage.touch(key.keyId) } })).app;
    const { testKey } = await seedTenant(h.prisma);
    await request(app)
      .get('/api/embed/options?quoteId=x')
      .set('X-SVC-Publishable-Key', testKey)
      .set('Origin', 'https://elsewhere.example');
    expect(touch).not.toHaveBeenCalled();
  });

  it('a failing write never fails the request, and is retried in the next request', async () => {
    const warnings: unknown[] = [];
    const usage = createKeyUsageRecorder(h.prisma, {
      logger: { warn: (fields: unknown) => void warnings.push(fields) },
    });
    const app = (await createHarness({ db: h.db, deps: { onKeyUsed: (key) => usage.touch(key.keyId) } })).app;
    const { testKey } = await seedTenant(h.prisma);
    const updates = jest.spyOn(h.prisma.publishableKey, 'updateMany').mockRejectedValueOnce(new Error('database busy'));
    const poll = () =>
      request(app)
        .get('/api/embed/options?quoteId=7d1f2c3a-1111-4222-8333-944455556666')
        .set('X-SVC-Publishable-Key', testKey)
        .set('Origin', WIDGET_ORIGIN);
    expect((await poll()).status).toBe(403);
    await usage.flush();
    expect(warnings).toHaveLength(1);
    expect((await poll()).status).toBe(403);
    await usage.flush();
    expect(updates).toHaveBeenCalledTimes(2);
    expect(await lastUsedAt(testKey)).not.toBeNull();
    updates.mockRestore();
  });

  it('a throwing hook is caught: the request still succeeds', async () => {
    const app = (
      await createHarness({
        db: h.db,
        deps: {
          onKeyUsed: () => {
            throw new Error('boom');
          },
        },
      })
    ).app;
    const { testKey } = await seedTenant(h.prisma);
    const res = await request(app)
      .get('/api/embed/options?quoteId=7d1f2c3a-1111-4222-8333-944455556666')
      .set('X-SVC-Publishable-Key', testKey)
      .set('Origin', WIDGET_ORIGIN);
    expect(res.status).toBe(403); // admitted by the gate; the unknown quote is the route's bare 403
  });
});
