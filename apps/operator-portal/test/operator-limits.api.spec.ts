import { OPERATOR_LIMITS } from '@expedition/operators';
import { createPortalThrottles, PORTAL_THROTTLE_LIMITS } from '../src/accounts/throttles';
import {
  addMember,
  API,
  createPortalHarness,
  h,
  providerAdmin,
  signUp,
  uniqueEmail,
  usePortalHarness,
} from './harness';

usePortalHarness();

describe('a suspended operator is read-only and gets no keys (issue 20 item 7)', () => {
  it('every write is 403 operator_suspended and changes nothing; reads still work', async () => {
    const { client, operator } = await signUp(h);
    const member = await addMember(h, client, 'member');
    const admin = await providerAdmin(h);
    const patched = await admin.client.patch(`${API}/admin/operators/${operator.id}`, { status: 'suspended' });
    expect(patched.status).toBe(200);
    const keysBefore = await h.prisma.publishableKey.count({ where: { operatorId: operator.id } });

    const writes = [
      () => client.post(`${API}/operator/keys`, { mode: 'test' }),
      () => client.post(`${API}/operator/keys`, { mode: 'live' }),
      () => client.post(`${API}/operator/secret-keys`, { mode: 'test' }),
      () => client.post(`${API}/operator/origins`, { origin: 'https://shop.example' }),
      () => client.post(`${API}/team/invites`, { email: uniqueEmail('late'), role: 'member' }),
      () => client.delete(`${API}/team/members/${member.user.id}`),
      () => member.client.post(`${API}/operator/keys`, { mode: 'test' }),
    ];
    for (const write of writes) {
      const res = await write();
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('operator_suspended');
      expect(res.body.requestId).toEqual(expect.any(String));
    }
    expect(await h.prisma.publishableKey.count({ where: { operatorId: operator.id } })).toBe(keysBefore);
    expect(await h.prisma.secretKey.count({ where: { operatorId: operator.id } })).toBe(0);
    expect(await h.prisma.allowedOrigin.count({ where: { operatorId: operator.id } })).toBe(0);
    expect(await h.prisma.operatorUser.count({ where: { operatorId: operator.id } })).toBe(2);

    expect((await client.get(`${API}/operator`)).body.operator.status).toBe('suspended');
    expect((await client.get(`${API}/operator/keys`)).status).toBe(200);
    expect((await client.post(`${API}/operator/origins/test`, { origin: 'https://shop.example' })).status).toBe(200);
  });

  it('the keys service itself refuses a new or rotated key of a suspended operator', async () => {
    const { operator } = await signUp(h);
    const [key] = await h.operators.listKeys(operator.id);
    await h.operators.setStatus(operator.id, 'suspended');
    await expect(h.operators.mintPublishableKey(operator.id, 'test')).rejects.toMatchObject({ code: 'suspended' });
    await expect(h.operators.mintSecretKey(operator.id, 'live')).rejects.toMatchObject({ code: 'suspended' });
    await expect(h.operators.rotateKey(key!.id)).rejects.toMatchObject({ code: 'suspended' });
    await h.operators.setStatus(operator.id, 'active');
    expect((await h.operators.mintPublishableKey(operator.id, 'test')).state).toBe('active');
  });
});

describe('caps on writes (issue 20 item 8)', () => {
  it(`at most ${OPERATOR_LIMITS.publishableKeys} working publishable keys: then 409 limit_reached; revoking one makes room`, async () => {
    const { client, operator } = await signUp(h); // sign-up made the first one
    for (let i = 1; i < OPERATOR_LIMITS.publishableKeys; i++) {
      expect((await client.post(`${API}/operator/keys`, { mode: i % 2 ? 'test' : 'live' })).status).toBe(201);
    }
    const refused = await client.post(`${API}/operator/keys`, { mode: 'test' });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('limit_reached');
    expect(refused.body.error).toMatch(/at most 20 publishable keys/);
    expect(await h.prisma.publishableKey.count({ where: { operatorId: operator.id } })).toBe(
      OPERATOR_LIMITS.publishableKeys,
    );
    const [first] = (await client.get(`${API}/operator/keys`)).body.keys;
    expect((await client.post(`${API}/operator/keys/${first.id}/revoke`)).status).toBe(200);
    expect((await client.post(`${API}/operator/keys`, { mode: 'test' })).status).toBe(201);
  });

  it(`at most ${OPERATOR_LIMITS.secretKeys} unrevoked secret keys and ${OPERATOR_LIMITS.allowedOrigins} origins`, async () => {
    const { client, operator } = await signUp(h);
    for (let i = 0; i < OPERATOR_LIMITS.secretKeys; i++)
      expect((await client.post(`${API}/operator/secret-keys`, { mode: 'test' })).status).toBe(201);
    const secret = await client.post(`${API}/operator/secret-keys`, { mode: 'test' });
    expect(secret.status).toBe(409);
    expect(secret.body.code).toBe('limit_reached');
    for (let i = 0; i < OPERATOR_LIMITS.allowedOrigins; i++) {
      expect((await client.post(`${API}/operator/origins`, { origin: `https://shop${i}.example` })).status).toBe(201);
    }
    const origin = await client.post(`${API}/operator/origins`, { origin: 'https://one-too-many.example' });
    expect(origin.status).toBe(409);
    expect(origin.body.code).toBe('limit_reached');
    expect(await h.prisma.allowedOrigin.count({ where: { operatorId: operator.id } })).toBe(
      OPERATOR_LIMITS.allowedOrigins,
    );
    // Re-adding a listed origin is still the idempotent 200.
    expect((await client.post(`${API}/operator/origins`, { origin: 'https://shop0.example' })).status).toBe(200);
  });

  it('concurrent additions cannot overshoot a cap', async () => {
    const { client, operator } = await signUp(h);
    for (let i = 0; i < OPERATOR_LIMITS.secretKeys - 2; i++)
      await client.post(`${API}/operator/secret-keys`, { mode: 'test' });
    const results = await Promise.all(
      Array.from({ length: 6 }, () => client.post(`${API}/operator/secret-keys`, { mode: 'test' })),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(2);
    expect(await h.prisma.secretKey.count({ where: { operatorId: operator.id } })).toBe(OPERATOR_LIMITS.secretKeys);
  });

  it('per minute: 60 writes per operator, then 429 rate_limited with Retry-After; test events 5 a minute', async () => {
    const limited = await createPortalHarness({ db: h.db, throttles: createPortalThrottles() });
    const { client, operator } = await signUp(limited);
    await limited.operators.setWebhookUrl(operator.id, 'https://hooks.example/expedition');
    const { points: testEvents } = PORTAL_THROTTLE_LIMITS.testEventsPerOperator;
    for (let i = 0; i < testEvents; i++)
      expect((await client.post(`${API}/operator/webhook-events/test`)).status).toBe(201);
    const sixth = await client.post(`${API}/operator/webhook-events/test`);
    expect(sixth.status).toBe(429);
    expect(sixth.body.code).toBe('rate_limited');
    expect(Number(sixth.headers['retry-after'])).toBeGreaterThan(0);
    expect(await limited.prisma.webhookEvent.count({ where: { operatorId: operator.id } })).toBe(testEvents);

    const { points: writes } = PORTAL_THROTTLE_LIMITS.writesPerOperator;
    // The refused 6th test event counted as a write too. Add and remove one origin, again and again: each is a write.
    const write = (i: number) =>
      (i - testEvents - 1) % 2 === 0
        ? client.post(`${API}/operator/origins`, { origin: 'https://w.example' })
        : client.delete(`${API}/operator/origins?origin=${encodeURIComponent('https://w.example')}`);
    for (let i = testEvents + 1; i < writes; i++) expect((await write(i)).status).toBeLessThan(300);
    const over = await write(writes);
    expect(over.status).toBe(429);
    expect(Number(over.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect((await client.get(`${API}/operator/origins`)).status).toBe(200);
  });
});
