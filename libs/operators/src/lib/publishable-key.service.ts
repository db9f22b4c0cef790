import { mintPublishableKey as mintPublishableKeyString, parsePublishableKey } from '@expedition/auth-publishable-key';
import type { Mode } from '@expedition/contracts';
import { type AuditActor, writeAudit } from './audit';
import { MAX_GRACE_SECONDS, optionalGraceSeconds, optionalLabel, requireId, requireMode } from './inputs';
import { conflict, invalidInput, notFound } from './operator-error';
import {
  type KeyServiceDeps,
  OPERATOR_LIMITS,
  enforceCap,
  insertKey,
  isUuidShaped,
  keyServiceContext,
  refuseIfSuspended,
} from './service-context';
import { type PublishableKeyView, keyState, toKeyView } from './views';

/** Rotation grace: seconds from now, or the instant the old key stops (in the future, within MAX_GRACE_SECONDS). */
export interface RotateOptions {
  graceSeconds?: number;
  expiresAt?: Date;
}

export interface RotatedKey {
  newKey: PublishableKeyView;
  oldKey: PublishableKeyView;
}

/**
 * Publishable keys (`pk_op_test_…`, `pk_op_…`): public by design, checked by the embed gate (publishable-key-store.ts).
 * Minted (capped per operator), listed, revoked at once, or rotated with a grace during which the old key still works.
 */
export function createPublishableKeyService(deps: KeyServiceDeps) {
  const { prisma, clock, actorOf, requireOperatorRow, randomBytes } = keyServiceContext(deps);

  const liveKeyFilter = (operatorId: string, now: Date) => ({
    operatorId,
    revokedAt: null,
    OR: [{ expiresAt: null }, { expiresAt: { gt: now } }],
  });

  async function requireKeyRow(keyIdOrKey: unknown) {
    const ref = requireId(keyIdOrKey, 'key or key id');
    const row = parsePublishableKey(ref)
      ? await prisma.publishableKey.findUnique({ where: { key: ref } })
      : await findKeyById(ref);
    if (!row) throw notFound(`publishable key ${ref} not found`);
    return row;
  }

  async function findKeyById(ref: string) {
    if (ref.startsWith('pk_') || ref.startsWith('sk_')) {
      throw invalidInput(`"${ref.slice(0, 12)}…" is not a well-formed publishable key (pk_op_test_… or pk_op_…)`);
    }
    return prisma.publishableKey.findUnique({ where: { id: ref } });
  }

  async function mintPublishableKey(
    operatorId: string,
    mode: Mode,
    label?: string,
    actor?: AuditActor,
  ): Promise<PublishableKeyView> {
    const keyMode = requireMode(mode);
    const keyLabel = optionalLabel(label);
    const operator = await requireOperatorRow(operatorId);
    refuseIfSuspended(operator);
    const now = clock.now();
    const row = await insertKey(() =>
      prisma.$transaction(async (tx) => {
        await enforceCap(tx, operator.id, 'publishable keys', OPERATOR_LIMITS.publishableKeys, () =>
          tx.publishableKey.count({ where: liveKeyFilter(operator.id, now) }),
        );
        const created = await tx.publishableKey.create({
          data: {
            operatorId: operator.id,
            key: mintPublishableKeyString(keyMode, randomBytes),
            mode: keyMode,
            label: keyLabel,
            createdAt: now,
          },
        });
        await writeAudit(
          tx,
          actorOf(actor),
          {
            operatorId: operator.id,
            action: 'publishable_key.created',
            targetType: 'publishable_key',
            targetId: created.id,
            after: { key: created.key, mode: keyMode, label: keyLabel },
          },
          now,
        );
        return created;
      }),
    );
    return toKeyView(row, now);
  }

  async function listKeys(operatorId: string): Promise<PublishableKeyView[]> {
    const operator = await requireOperatorRow(operatorId);
    const rows = await prisma.publishableKey.findMany({
      where: { operatorId: operator.id },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    });
    const now = clock.now();
    return rows.map((row) => toKeyView(row, now));
  }

  /** A key of this operator by id; another operator's key is `not_found`, exactly like an unknown id. */
  async function getKeyOfOperator(operatorId: string, keyId: string): Promise<PublishableKeyView> {
    const id = requireId(keyId, 'key id');
    const row = isUuidShaped(id) ? await prisma.publishableKey.findFirst({ where: { id, operatorId } }) : null;
    if (!row) throw notFound(`publishable key ${id} not found`);
    return toKeyView(row, clock.now());
  }

  /** Immediate and final. Revoking a revoked key is a no-op that keeps the first revocation time (and is not audited). */
  async function revokeKey(keyIdOrKey: string, actor?: AuditActor): Promise<PublishableKeyView> {
    const row = await requireKeyRow(keyIdOrKey);
    const now = clock.now();
    if (row.revokedAt !== null) return toKeyView(row, now);
    return prisma.$transaction(async (tx) => {
      const { count } = await tx.publishableKey.updateMany({
        where: { id: row.id, revokedAt: null },
        data: { revokedAt: now },
      });
      const updated = await tx.publishableKey.findUniqueOrThrow({ where: { id: row.id } });
      if (count === 1) {
        await writeAudit(
          tx,
          actorOf(actor),
          {
            operatorId: row.operatorId,
            action: 'publishable_key.revoked',
            targetType: 'publishable_key',
            targetId: row.id,
            before: { key: row.key, state: keyState(row, now) },
            after: { key: row.key, state: 'revoked' },
          },
          now,
        );
      }
      return toKeyView(updated, now);
    });
  }

  /** When the old key of a rotation stops: the given instant, now + grace seconds, or null (revoked at once). */
  function retirementInstant(options: RotateOptions, now: Date): Date | null {
    if (options?.expiresAt !== undefined) {
      const at = options.expiresAt;
      if (!(at instanceof Date) || Number.isNaN(at.getTime())) throw invalidInput('expiresAt must be a valid instant');
      if (at.getTime() <= now.getTime())
        throw invalidInput('expiresAt must be in the future (use grace "now" to stop the old key at once)');
      if (at.getTime() > now.getTime() + MAX_GRACE_SECONDS * 1000)
        throw invalidInput(`expiresAt must be at most ${MAX_GRACE_SECONDS / 86_400} days ahead`);
      return at;
    }
    const graceSeconds = optionalGraceSeconds(options?.graceSeconds);
    return graceSeconds > 0 ? new Date(now.getTime() + graceSeconds * 1000) : null;
  }

  /**
   * Mints a replacement of the same mode and label. With a grace (seconds, or an `expiresAt` instant) the old key
   * keeps working strictly before its expiry (the resolver re-checks expiresAt on every cached hit), so pages can be
   * redeployed; without one it is revoked now. Only a current key can be rotated: rotating an already-expiring key
   * would mint a second replacement.
   */
  async function rotateKey(keyIdOrKey: string, options: RotateOptions = {}, actor?: AuditActor): Promise<RotatedKey> {
    const now = clock.now();
    const expiresAt = retirementInstant(options, now);
    const old = await requireKeyRow(keyIdOrKey);
    refuseIfSuspended(await requireOperatorRow(old.operatorId));
    const retire = expiresAt ? { expiresAt } : { revokedAt: now };
    return prisma.$transaction(async (tx) => {
      // Conditional update: of two concurrent rotations of one key, exactly one wins.
      const retired = await tx.publishableKey.updateMany({
        where: { id: old.id, revokedAt: null, expiresAt: null },
        data: retire,
      });
      if (retired.count !== 1) {
        throw conflict(`publishable key ${old.id} is already revoked or rotated; rotate its replacement instead`);
      }
      const created = await tx.publishableKey.create({
        data: {
          operatorId: old.operatorId,
          key: mintPublishableKeyString(old.mode, randomBytes),
          mode: old.mode,
          label: old.label,
          createdAt: now,
        },
      });
      const oldRow = await tx.publishableKey.findUniqueOrThrow({ where: { id: old.id } });
      await writeAudit(
        tx,
        actorOf(actor),
        {
          operatorId: old.operatorId,
          action: 'publishable_key.rotated',
          targetType: 'publishable_key',
          targetId: old.id,
          before: { key: old.key, state: 'active' },
          after: {
            key: old.key,
            state: keyState(oldRow, now),
            expiresAt: oldRow.expiresAt?.toISOString() ?? null,
            newKeyId: created.id,
            newKey: created.key,
          },
        },
        now,
      );
      return { newKey: toKeyView(created, now), oldKey: toKeyView(oldRow, now) };
    });
  }

  return { mintPublishableKey, listKeys, getKeyOfOperator, revokeKey, rotateKey };
}

export type PublishableKeyService = ReturnType<typeof createPublishableKeyService>;
