import type { Operator } from '@expedition/db';
import { type AuditActor, writeAudit } from './audit';
import { optionalBrandColor, optionalLogoUrl } from './branding';
import {
  type OperatorStatusValue,
  optionalEmail,
  optionalWebsite,
  requireBoolean,
  requireCommissionBps,
  requireIntegrationTier,
  requireName,
  requireStatus,
} from './inputs';
import { namesLookAlike } from './look-alike-names';
import { invalidInput } from './operator-error';
import { type ServiceDeps, isUuidShaped, serviceContext } from './service-context';
import { type OperatorView, toOperatorView } from './views';

export interface LookAlikeOperator {
  id: string;
  name: string;
  status: OperatorStatusValue;
  embeddingEnabled: boolean;
}

export interface NewOperator {
  name: string;
  contactEmail?: string | null;
  websiteUrl?: string | null;
  /** Default `pending`: keys of a pending operator are refused until the provider activates it. */
  status?: OperatorStatusValue;
  /** Default 1000 (10 %), the schema default. */
  commissionRateBps?: number;
}

/**
 * Operators and the settings the provider decides: status (approval, suspension), live embedding, commission rate and
 * integration tier. Every change writes its audit entry in the same transaction.
 */
export function createOperatorProfileService(deps: ServiceDeps) {
  const { prisma, clock, actorOf, requireOperatorRow } = serviceContext(deps);

  /** One field change of an operator and its audit entry, in one transaction; a no-op change is still recorded. */
  async function changeOperator<K extends keyof Operator>(
    operatorId: unknown,
    field: K,
    value: Operator[K],
    action: string,
    actor?: AuditActor,
  ): Promise<OperatorView> {
    const row = await requireOperatorRow(operatorId);
    const now = clock.now();
    return prisma.$transaction(async (tx) => {
      const updated = await tx.operator.update({ where: { id: row.id }, data: { [field]: value } });
      await writeAudit(
        tx,
        actorOf(actor),
        {
          operatorId: row.id,
          action,
          targetType: 'operator',
          targetId: row.id,
          before: { [field]: row[field] as never },
          after: { [field]: updated[field] as never },
        },
        now,
      );
      return toOperatorView(updated, now);
    });
  }

  async function createOperator(input: NewOperator, actor?: AuditActor): Promise<OperatorView> {
    if (typeof input !== 'object' || input === null) throw invalidInput('operator details are required');
    const data = {
      name: requireName(input.name),
      contactEmail: optionalEmail(input.contactEmail),
      websiteUrl: optionalWebsite(input.websiteUrl),
      status: input.status === undefined ? 'pending' : requireStatus(input.status),
      ...(input.commissionRateBps === undefined
        ? {}
        : { commissionRateBps: requireCommissionBps(input.commissionRateBps) }),
      createdAt: clock.now(),
    } as const;
    return prisma.$transaction(async (tx) => {
      const row = await tx.operator.create({ data });
      const after = {
        name: row.name,
        status: row.status,
        commissionRateBps: row.commissionRateBps,
        embeddingEnabled: row.embeddingEnabled,
      };
      await writeAudit(
        tx,
        actorOf(actor),
        { operatorId: row.id, action: 'operator.created', targetType: 'operator', targetId: row.id, after },
        data.createdAt,
      );
      return toOperatorView(row, data.createdAt);
    });
  }

  async function getOperator(operatorId: string): Promise<OperatorView> {
    return toOperatorView(await requireOperatorRow(operatorId), clock.now());
  }

  async function listOperators(): Promise<OperatorView[]> {
    const rows = await prisma.operator.findMany({ orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
    const now = clock.now();
    return rows.map((row) => toOperatorView(row, now));
  }

  /**
   * Provider search: part of the name, contact e-mail or a user's e-mail (case-insensitive), or the exact id; newest
   * first, at most `limit`.
   */
  async function searchOperators(
    query: { q?: string; status?: OperatorStatusValue; limit?: number } = {},
  ): Promise<{ operators: OperatorView[]; truncated: boolean }> {
    const q = query.q?.trim() ?? '';
    const limit = query.limit ?? 100;
    const rows = await prisma.operator.findMany({
      where: {
        ...(query.status ? { status: requireStatus(query.status) } : {}),
        ...(q === ''
          ? {}
          : {
              OR: [
                ...(isUuidShaped(q) ? [{ id: q.toLowerCase() }] : []),
                { name: { contains: q, mode: 'insensitive' as const } },
                { contactEmail: { contains: q, mode: 'insensitive' as const } },
                { users: { some: { email: { contains: q.toLowerCase() } } } },
              ],
            }),
      },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: limit + 1,
    });
    const now = clock.now();
    return { operators: rows.slice(0, limit).map((row) => toOperatorView(row, now)), truncated: rows.length > limit };
  }

  async function setStatus(operatorId: string, status: OperatorStatusValue, actor?: AuditActor): Promise<OperatorView> {
    return changeOperator(operatorId, 'status', requireStatus(status), 'operator.status_changed', actor);
  }

  async function setEmbeddingEnabled(operatorId: string, enabled: boolean, actor?: AuditActor): Promise<OperatorView> {
    return changeOperator(
      operatorId,
      'embeddingEnabled',
      requireBoolean(enabled, 'embeddingEnabled'),
      'operator.embedding_changed',
      actor,
    );
  }

  /** Applies to sales after the change: each commission row keeps the rate it was computed with. */
  async function setCommissionRate(operatorId: string, bps: number, actor?: AuditActor): Promise<OperatorView> {
    return changeOperator(
      operatorId,
      'commissionRateBps',
      requireCommissionBps(bps),
      'operator.commission_changed',
      actor,
    );
  }

  async function setIntegrationTier(operatorId: string, tier: number, actor?: AuditActor): Promise<OperatorView> {
    return changeOperator(operatorId, 'integrationTier', requireIntegrationTier(tier), 'operator.tier_changed', actor);
  }

  /**
   * The operator's branding of its checkout pages: both fields are checked before anything is written (a refused value
   * changes nothing), then stored with one audit entry. A field left out keeps its value; null or '' clears it.
   */
  async function setBranding(
    operatorId: string,
    input: { brandColor?: unknown; logoUrl?: unknown },
    actor?: AuditActor,
  ): Promise<OperatorView> {
    if (typeof input !== 'object' || input === null) throw invalidInput('branding is required');
    const data = {
      ...(input.brandColor === undefined ? {} : { brandColor: optionalBrandColor(input.brandColor) }),
      ...(input.logoUrl === undefined ? {} : { logoUrl: optionalLogoUrl(input.logoUrl) }),
    };
    const row = await requireOperatorRow(operatorId);
    const now = clock.now();
    return prisma.$transaction(async (tx) => {
      const updated = await tx.operator.update({ where: { id: row.id }, data });
      await writeAudit(
        tx,
        actorOf(actor),
        {
          operatorId: row.id,
          action: 'operator.branding_changed',
          targetType: 'operator',
          targetId: row.id,
          before: { brandColor: row.brandColor, logoUrl: row.logoUrl },
          after: { brandColor: updated.brandColor, logoUrl: updated.logoUrl },
        },
        now,
      );
      return toOperatorView(updated, now);
    });
  }

  /**
   * The other operators whose name reads like this one's (look-alike-names.ts), for the provider deciding on live
   * embedding. Every operator's name is compared: a provider action, over a table of operators, not of sales.
   */
  async function findLookAlikes(operatorId: string): Promise<LookAlikeOperator[]> {
    const operator = await requireOperatorRow(operatorId);
    const others = await prisma.operator.findMany({
      where: { id: { not: operator.id } },
      select: { id: true, name: true, status: true, embeddingEnabled: true },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    });
    return others.filter((other) => namesLookAlike(operator.name, other.name));
  }

  return {
    findLookAlikes,
    createOperator,
    setBranding,
    getOperator,
    listOperators,
    searchOperators,
    setStatus,
    setEmbeddingEnabled,
    setCommissionRate,
    setIntegrationTier,
  };
}

export type OperatorProfileService = ReturnType<typeof createOperatorProfileService>;
