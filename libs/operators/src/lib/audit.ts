import type { Prisma, PrismaClient } from '@expedition/db';
import { invalidInput } from './operator-error';

/** Who did something: a portal user (id, e-mail, role, IP), the admin CLI or the platform itself. */
export interface AuditActor {
  userId?: string | null;
  email?: string | null;
  role?: string | null;
  ip?: string | null;
}

/** The admin command line (tools/admin). */
export const CLI_ACTOR: AuditActor = Object.freeze({ email: 'cli', role: 'cli' });
/** Changes made by the platform itself (the embedded launcher's demo operator, migrations). */
export const SYSTEM_ACTOR: AuditActor = Object.freeze({ email: 'system', role: 'system' });

export interface AuditRecord {
  operatorId: string | null;
  action: string;
  targetType?: string | null;
  targetId?: string | null;
  /** What the change replaced; never a secret (secrets are recorded as `secretSet: true`). */
  before?: Prisma.InputJsonValue | null;
  after?: Prisma.InputJsonValue | null;
}

type Tx = Pick<PrismaClient, 'auditEntry'>;

/** Appends one entry; call it inside the transaction that makes the change, so both land or neither. */
export async function writeAudit(tx: Tx, actor: AuditActor, record: AuditRecord, at: Date): Promise<void> {
  await tx.auditEntry.create({
    data: {
      at,
      actorUserId: actor.userId ?? null,
      actorEmail: actor.email ?? null,
      actorRole: actor.role ?? null,
      ip: actor.ip ?? null,
      operatorId: record.operatorId,
      action: record.action,
      targetType: record.targetType ?? null,
      targetId: record.targetId ?? null,
      before: record.before ?? undefined,
      after: record.after ?? undefined,
    },
  });
}

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

/** Newest first; `nextCursor` is opaque (`<epoch ms>_<id>`). */
export async function listAudit(
  prisma: PrismaClient,
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

export function encodeCursor(at: Date, id: string): string {
  return `${at.getTime()}_${id}`;
}

export function decodeCursor(cursor: string): { at: Date; id: string } {
  const match = /^(\d{1,15})_([0-9a-f-]{36})$/.exec(cursor);
  if (!match) throw invalidInput('cursor is not one this API returned');
  return { at: new Date(Number(match[1])), id: match[2]! };
}
