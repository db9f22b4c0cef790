import { hashSecretKey, secretKeyMatchesHash } from '@expedition/auth-publishable-key';
import type { SecretKeyService } from '../src/lib/secret-key.service';
import { expectOperatorError, activeOperator, useOperatorFixture } from './operator-fixture';

const f = useOperatorFixture();
let secretKeys: SecretKeyService;
beforeEach(() => {
  ({ secretKeys } = f.services);
});

describe('secret keys', () => {
  it('returns the sk_ key once and stores only its hash and display prefix', async () => {
    const op = await activeOperator(f);
    const { key, secretKey } = await secretKeys.mintSecretKey(op.id, 'test');

    expect(key).toMatch(/^sk_op_test_[0-9a-f]{64}$/);
    expect(secretKey.prefix).toBe(`${key.slice(0, 'sk_op_test_'.length + 8)}…`);
    const row = await f.db.prisma.secretKey.findUniqueOrThrow({ where: { id: secretKey.id } });
    expect(row.hash).toBe(hashSecretKey(key));
    expect(secretKeyMatchesHash(key, row.hash)).toBe(true);
    expect(JSON.stringify(row)).not.toContain(key);
    expect(JSON.stringify(await secretKeys.listSecretKeys(op.id))).not.toContain(key);

    const live = await secretKeys.mintSecretKey(op.id, 'live');
    expect(live.key).toMatch(/^sk_op_[0-9a-f]{64}$/);
    await expectOperatorError(secretKeys.mintSecretKey(op.id, 'staging' as never), 'invalid_input');
  });

  it('revokes a key of this operator once (one audit entry); another operator’s key is not_found', async () => {
    const op = await activeOperator(f);
    const other = await activeOperator(f, 'Other Tours');
    const { secretKey } = await secretKeys.mintSecretKey(op.id, 'live');
    await expectOperatorError(secretKeys.revokeSecretKey(other.id, secretKey.id), 'not_found');
    await expectOperatorError(secretKeys.revokeSecretKey(op.id, 'not-a-uuid'), 'not_found');

    const revoked = await secretKeys.revokeSecretKey(op.id, secretKey.id);
    expect(revoked).toMatchObject({ id: secretKey.id, revokedAt: f.clock.now() });
    f.clock.advance(60_000);
    expect((await secretKeys.revokeSecretKey(op.id, secretKey.id)).revokedAt).toEqual(revoked.revokedAt);
    expect((await secretKeys.listSecretKeys(op.id)).map((k) => k.revokedAt)).toEqual([revoked.revokedAt]);
    const audit = await f.db.prisma.auditEntry.findMany({ where: { operatorId: op.id, targetId: secretKey.id } });
    expect(audit.map((e) => e.action)).toEqual(['secret_key.created', 'secret_key.revoked']);
  });
});
