import { parsePublishableKey } from '@expedition/auth-publishable-key';
import type { OperatorError } from '../src/lib/operator-error';
import type { OperatorProfileService } from '../src/lib/operator-profile.service';
import type { PublishableKeyService } from '../src/lib/publishable-key.service';
import { expectOperatorError, activeOperator, useOperatorFixture } from './operator-fixture';
import { gateAccepts } from './helpers';

const f = useOperatorFixture();
let profiles: OperatorProfileService;
let keys: PublishableKeyService;
beforeEach(() => {
  ({ profiles, publishableKeys: keys } = f.services);
});

describe('publishable keys', () => {
  it('mints test and live keys in the spec formats and stores them', async () => {
    const op = await activeOperator(f);
    const test = await keys.mintPublishableKey(op.id, 'test', 'staging site');
    f.clock.advance(1000);
    const live = await keys.mintPublishableKey(op.id, 'live');

    expect(parsePublishableKey(test.key)).toEqual({ key: test.key, mode: 'test' });
    expect(parsePublishableKey(live.key)).toEqual({ key: live.key, mode: 'live' });
    expect(test).toMatchObject({ operatorId: op.id, mode: 'test', label: 'staging site', state: 'active' });
    expect(await f.db.prisma.publishableKey.count({ where: { operatorId: op.id } })).toBe(2);
    expect((await keys.listKeys(op.id)).map((k) => k.key)).toEqual([test.key, live.key]);
  });

  it('lets a test key through the gate before live approval, and only while the operator is active', async () => {
    const op = await profiles.createOperator({ name: 'Pending Co' });
    const key = await keys.mintPublishableKey(op.id, 'test');
    expect(await gateAccepts(f.db.prisma, key.key, f.clock.now())).toBe(false);
    await profiles.setStatus(op.id, 'active');
    expect(await gateAccepts(f.db.prisma, key.key, f.clock.now())).toBe(true);
    await profiles.setStatus(op.id, 'suspended');
    expect(await gateAccepts(f.db.prisma, key.key, f.clock.now())).toBe(false);
  });

  it('rejects an unknown operator, a bad mode and an overlong label', async () => {
    const op = await activeOperator(f);
    await expectOperatorError(keys.mintPublishableKey('00000000-0000-4000-8000-000000000000', 'test'), 'not_found');
    await expectOperatorError(keys.mintPublishableKey(op.id, 'prod' as never), 'invalid_input', /test.*live/);
    await expectOperatorError(keys.mintPublishableKey(op.id, 'test', 'x'.repeat(101)), 'invalid_input');
    expect(await f.db.prisma.publishableKey.count()).toBe(0);
  });

  it('revokes by key or by id, immediately, and keeps the first revocation time', async () => {
    const op = await activeOperator(f);
    const a = await keys.mintPublishableKey(op.id, 'test');
    const b = await keys.mintPublishableKey(op.id, 'test');

    const revokedA = await keys.revokeKey(a.key);
    expect(revokedA).toMatchObject({ id: a.id, state: 'revoked', revokedAt: f.clock.now() });
    expect(await gateAccepts(f.db.prisma, a.key, f.clock.now())).toBe(false);

    await keys.revokeKey(b.id);
    expect(await gateAccepts(f.db.prisma, b.key, f.clock.now())).toBe(false);

    const firstRevocation = f.clock.now();
    f.clock.advance(60_000);
    expect((await keys.revokeKey(a.id)).revokedAt).toEqual(firstRevocation);
  });

  it('reports unknown and malformed key references', async () => {
    await expectOperatorError(keys.revokeKey(`pk_op_test_${'a'.repeat(48)}`), 'not_found');
    await expectOperatorError(keys.revokeKey('00000000-0000-4000-8000-000000000000'), 'not_found');
    await expectOperatorError(keys.revokeKey(`sk_op_test_${'a'.repeat(64)}`), 'invalid_input');
    await expectOperatorError(keys.revokeKey(''), 'invalid_input');
  });
});

describe('rotateKey', () => {
  it('with a grace: mints a same-mode, same-label key; the old one works strictly until expiresAt', async () => {
    const op = await activeOperator(f);
    await profiles.setEmbeddingEnabled(op.id, true);
    const old = await keys.mintPublishableKey(op.id, 'live', 'main site');
    const rotatedAt = f.clock.now();

    const { newKey, oldKey } = await keys.rotateKey(old.key, { graceSeconds: 3600 });

    expect(newKey).toMatchObject({ mode: 'live', label: 'main site', state: 'active', operatorId: op.id });
    expect(newKey.key).not.toBe(old.key);
    expect(parsePublishableKey(newKey.key)?.mode).toBe('live');
    expect(oldKey).toMatchObject({ id: old.id, state: 'expiring', revokedAt: null });
    expect(oldKey.expiresAt).toEqual(new Date(rotatedAt.getTime() + 3_600_000));

    expect(await gateAccepts(f.db.prisma, old.key, rotatedAt)).toBe(true);
    expect(await gateAccepts(f.db.prisma, old.key, new Date(rotatedAt.getTime() + 3_599_999))).toBe(true);
    expect(await gateAccepts(f.db.prisma, old.key, new Date(rotatedAt.getTime() + 3_600_000))).toBe(false);
    expect(await gateAccepts(f.db.prisma, newKey.key, new Date(rotatedAt.getTime() + 3_600_000))).toBe(true);

    f.clock.advance(3_600_000);
    const states = Object.fromEntries((await keys.listKeys(op.id)).map((k) => [k.id, k.state]));
    expect(states).toEqual({ [old.id]: 'expired', [newKey.id]: 'active' });
  });

  it('without a grace: the old key is revoked now', async () => {
    const op = await activeOperator(f);
    const old = await keys.mintPublishableKey(op.id, 'test');

    const { newKey, oldKey } = await keys.rotateKey(old.id);

    expect(oldKey).toMatchObject({ state: 'revoked', revokedAt: f.clock.now(), expiresAt: null });
    expect(await gateAccepts(f.db.prisma, old.key, f.clock.now())).toBe(false);
    expect(await gateAccepts(f.db.prisma, newKey.key, f.clock.now())).toBe(true);
    expect(newKey.mode).toBe('test');
  });

  it('refuses to rotate a key that is already revoked or rotated', async () => {
    const op = await activeOperator(f);
    const key = await keys.mintPublishableKey(op.id, 'test');
    await keys.rotateKey(key.key, { graceSeconds: 60 });
    await expectOperatorError(keys.rotateKey(key.key, { graceSeconds: 60 }), 'conflict', /already/);

    const other = await keys.mintPublishableKey(op.id, 'test');
    await keys.revokeKey(other.id);
    await expectOperatorError(keys.rotateKey(other.id), 'conflict');
    expect(await f.db.prisma.publishableKey.count({ where: { operatorId: op.id } })).toBe(3);
  });

  it('lets exactly one of two concurrent rotations of a key win', async () => {
    const op = await activeOperator(f);
    const key = await keys.mintPublishableKey(op.id, 'test');
    const results = await Promise.allSettled([keys.rotateKey(key.id), keys.rotateKey(key.id)]);

    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const rejected = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect((rejected.reason as OperatorError).code).toBe('conflict');
    expect(await f.db.prisma.publishableKey.count({ where: { operatorId: op.id } })).toBe(2);
  });

  it('validates the grace', async () => {
    const op = await activeOperator(f);
    const key = await keys.mintPublishableKey(op.id, 'test');
    await expectOperatorError(keys.rotateKey(key.id, { graceSeconds: -1 }), 'invalid_input');
    await expectOperatorError(keys.rotateKey(key.id, { graceSeconds: 1.5 }), 'invalid_input');
    expect((await keys.listKeys(op.id)).map((k) => k.state)).toEqual(['active']);
  });
});
