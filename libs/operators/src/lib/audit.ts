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

/** Audit lists and the delivery log page with an opaque cursor: `<epoch ms>_<id>` of the last row shown. */
export function encodeCursor(at: Date, id: string): string {
  return `${at.getTime()}_${id}`;
}

export function decodeCursor(cursor: string): { at: Date; id: string } {
  const match = /^(\d{1,15})_([0-9a-f-]{36})$/.exec(cursor);
  if (!match) throw invalidInput('cursor is not one this API returned');
  return { at: new Date(Number(match[1])), id: match[2]! };
}
