import type { PrismaClient } from '@expedition/db';
import { decodeCursor, encodeCursor } from './audit';

export interface AuditEntryView {
  id: string;
  at: Date;
  actor: { userId: string | null; email: string | null; role: string | null };
  operatorId: string | null;
  /** The operator's current name, so a log spanning operators reads by name; null for platform-wide entries. */
  operatorName: string | null;
  action: string;
  targetType: string | null;
  targetId: string | null;
  before: unknown;
  after: unknown;
  ip: string | null;
}

export interface AuditQuery {
  operatorId?: string;
  action?: string;
  cursor?: string;
  limit?: number;
}

export const AUDIT_PAGE_SIZE = 50;

/**
 * Reading the audit log (docs/portal-api.md, "Audit log"): one operator's entries or, for the provider, everyone's.
 * Entries are written by the services that make the changes (`writeAudit`, audit.ts), never here.
 */
export function createAuditService(deps: { prisma: PrismaClient }) {
  const { prisma } = deps;

  /** Newest first; `nextCursor` is opaque (`<epoch ms>_<id>`). */
  async function listAuditEntries(
    query: AuditQuery,
  ): Promise<{ entries: AuditEntryView[]; nextCursor: string | null }> {
    const limit = Math.min(Math.max(query.limit ?? AUDIT_PAGE_SIZE, 1), 200);
    const cursor = query.cursor ? decodeCursor(query.cursor) : null;
    const rows = await prisma.auditEntry.findMany({
      where: {
        ...(query.operatorId ? { operatorId: query.operatorId } : {}),
        ...(query.action ? { action: query.action } : {}),
        ...(cursor ? { OR: [{ at: { lt: cursor.at } }, { at: cursor.at, id: { lt: cursor.id } }] } : {}),
      },
      orderBy: [{ at: 'desc' }, { id: 'desc' }],
      take: limit + 1,
    });
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    const operatorIds = [...new Set(page.map((row) => row.operatorId).filter((id): id is string => id !== null))];
    const operators = operatorIds.length
      ? await prisma.operator.findMany({ where: { id: { in: operatorIds } }, select: { id: true, name: true } })
      : [];
    const nameOf = new Map(operators.map((o) => [o.id, o.name]));
    return {
      entries: page.map((row) => ({
        id: row.id,
        at: row.at,
        actor: { userId: row.actorUserId, email: row.actorEmail, role: row.actorRole },
        operatorId: row.operatorId,
        operatorName: row.operatorId ? (nameOf.get(row.operatorId) ?? null) : null,
        action: row.action,
        targetType: row.targetType,
        targetId: row.targetId,
        before: row.before ?? null,
        after: row.after ?? null,
        ip: row.ip,
      })),
      nextCursor: rows.length > limit && last ? encodeCursor(last.at, last.id) : null,
    };
  }

  return { listAuditEntries };
}
