import type { Mode } from '@expedition/contracts';
import { isUniqueViolation } from '@expedition/db';
import { type AuditActor, writeAudit } from './audit';
import { requireOrigin } from './inputs';
import { originModes } from './origin-rules';
import { type ServiceDeps, OPERATOR_LIMITS, enforceCap, serviceContext } from './service-context';

export interface AllowedOriginView {
  origin: string;
  loopback: boolean;
  appliesTo: Mode[];
  createdAt: Date;
}

/**
 * An operator's allowed origins: the pages (exact `scheme://host[:port]`) the embed gate accepts its keys from
 * (docs/contract.md, "Publishable keys and the gate"). Stored normalized; adding and removing are idempotent.
 */
export function createOriginService(deps: ServiceDeps) {
  const { prisma, clock, actorOf, requireOperatorRow } = serviceContext(deps);

  /** Idempotent: adding an origin that is already listed (in any spelling that normalizes to it) changes nothing. */
  async function addAllowedOrigin(
    operatorId: string,
    origin: string,
    actor?: AuditActor,
  ): Promise<{ origin: string; added: boolean }> {
    const normalized = requireOrigin(origin);
    const operator = await requireOperatorRow(operatorId);
    const where = { operatorId_origin: { operatorId: operator.id, origin: normalized } };
    if (await prisma.allowedOrigin.findUnique({ where })) return { origin: normalized, added: false };
    const now = clock.now();
    try {
      await prisma.$transaction(async (tx) => {
        await enforceCap(tx, operator.id, 'allowed origins', OPERATOR_LIMITS.allowedOrigins, () =>
          tx.allowedOrigin.count({ where: { operatorId: operator.id } }),
        );
        await tx.allowedOrigin.create({ data: { operatorId: operator.id, origin: normalized, createdAt: now } });
        await writeAudit(
          tx,
          actorOf(actor),
          {
            operatorId: operator.id,
            action: 'origin.added',
            targetType: 'origin',
            targetId: normalized,
            after: { origin: normalized, appliesTo: originModes(normalized) },
          },
          now,
        );
      });
      return { origin: normalized, added: true };
    } catch (error) {
      // Lost a race with a concurrent add of the same origin: the end state is the one asked for.
      if (isUniqueViolation(error)) return { origin: normalized, added: false };
      throw error;
    }
  }

  /** Idempotent: removing an origin that is not listed reports `removed: false`. */
  async function removeAllowedOrigin(
    operatorId: string,
    origin: string,
    actor?: AuditActor,
  ): Promise<{ origin: string; removed: boolean }> {
    const normalized = requireOrigin(origin);
    const operator = await requireOperatorRow(operatorId);
    const now = clock.now();
    return prisma.$transaction(async (tx) => {
      const { count } = await tx.allowedOrigin.deleteMany({ where: { operatorId: operator.id, origin: normalized } });
      if (count > 0) {
        await writeAudit(
          tx,
          actorOf(actor),
          {
            operatorId: operator.id,
            action: 'origin.removed',
            targetType: 'origin',
            targetId: normalized,
            before: { origin: normalized },
          },
          now,
        );
      }
      return { origin: normalized, removed: count > 0 };
    });
  }

  async function listAllowedOrigins(operatorId: string): Promise<string[]> {
    return (await listAllowedOriginViews(operatorId)).map((o) => o.origin);
  }

  async function listAllowedOriginViews(operatorId: string): Promise<AllowedOriginView[]> {
    const operator = await requireOperatorRow(operatorId);
    const rows = await prisma.allowedOrigin.findMany({
      where: { operatorId: operator.id },
      orderBy: [{ createdAt: 'asc' }, { origin: 'asc' }],
    });
    return rows.map((row) => {
      const appliesTo = originModes(row.origin);
      return { origin: row.origin, loopback: appliesTo.length === 1, appliesTo, createdAt: row.createdAt };
    });
  }

  return { addAllowedOrigin, removeAllowedOrigin, listAllowedOrigins, listAllowedOriginViews };
}

export type OriginService = ReturnType<typeof createOriginService>;
