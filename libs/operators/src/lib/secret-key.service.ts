import { mintSecretKey as mintSecretKeyString } from '@expedition/auth-publishable-key';
import type { Mode } from '@expedition/contracts';
import { type AuditActor, writeAudit } from './audit';
import { requireId, requireMode } from './inputs';
import { notFound } from './operator-error';
import {
  type KeyServiceDeps,
  OPERATOR_LIMITS,
  enforceCap,
  insertKey,
  isUuidShaped,
  keyServiceContext,
  refuseIfSuspended,
} from './service-context';
import { type SecretKeyView, toSecretKeyView } from './views';

export interface MintedSecret {
  secretKey: SecretKeyView;
  /** The full `sk_op_…` key: returned once, only its sha256 is stored. */
  key: string;
}

/** Secret keys (`sk_op_…`): shown once when minted, stored as a sha256 and a display prefix; capped per operator. */
export function createSecretKeyService(deps: KeyServiceDeps) {
  const { prisma, clock, actorOf, requireOperatorRow, randomBytes } = keyServiceContext(deps);

  async function mintSecretKey(operatorId: string, mode: Mode, actor?: AuditActor): Promise<MintedSecret> {
    const keyMode = requireMode(mode);
    const operator = await requireOperatorRow(operatorId);
    refuseIfSuspended(operator);
    const minted = mintSecretKeyString(keyMode, randomBytes);
    const now = clock.now();
    const row = await insertKey(() =>
      prisma.$transaction(async (tx) => {
        await enforceCap(tx, operator.id, 'secret keys', OPERATOR_LIMITS.secretKeys, () =>
          tx.secretKey.count({ where: { operatorId: operator.id, revokedAt: null } }),
        );
        const created = await tx.secretKey.create({
          data: { operatorId: operator.id, mode: keyMode, prefix: minted.prefix, hash: minted.hash, createdAt: now },
        });
        await writeAudit(
          tx,
          actorOf(actor),
          {
            operatorId: operator.id,
            action: 'secret_key.created',
            targetType: 'secret_key',
            targetId: created.id,
            after: { prefix: created.prefix, mode: keyMode },
          },
          now,
        );
        return created;
      }),
    );
    return { secretKey: toSecretKeyView(row), key: minted.key };
  }

  async function listSecretKeys(operatorId: string): Promise<SecretKeyView[]> {
    const operator = await requireOperatorRow(operatorId);
    const rows = await prisma.secretKey.findMany({
      where: { operatorId: operator.id },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    });
    return rows.map(toSecretKeyView);
  }

  /** Revokes one secret key of this operator (another operator's id is `not_found`); idempotent. */
  async function revokeSecretKey(operatorId: string, secretKeyId: string, actor?: AuditActor): Promise<SecretKeyView> {
    const id = requireId(secretKeyId, 'secret key id');
    const row = isUuidShaped(id) ? await prisma.secretKey.findFirst({ where: { id, operatorId } }) : null;
    if (!row) throw notFound(`secret key ${id} not found`);
    if (row.revokedAt !== null) return toSecretKeyView(row);
    const now = clock.now();
    return prisma.$transaction(async (tx) => {
      await tx.secretKey.updateMany({ where: { id: row.id, revokedAt: null }, data: { revokedAt: now } });
      await writeAudit(
        tx,
        actorOf(actor),
        {
          operatorId,
          action: 'secret_key.revoked',
          targetType: 'secret_key',
          targetId: row.id,
          before: { prefix: row.prefix, revoked: false },
          after: { prefix: row.prefix, revoked: true },
        },
        now,
      );
      return toSecretKeyView(await tx.secretKey.findUniqueOrThrow({ where: { id: row.id } }));
    });
  }

  return { mintSecretKey, listSecretKeys, revokeSecretKey };
}

export type SecretKeyService = ReturnType<typeof createSecretKeyService>;
