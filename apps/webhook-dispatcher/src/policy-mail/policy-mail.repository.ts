import type { PrismaClient } from '@expedition/db';

/** A policy mail leased to one worker for one attempt. */
export interface ClaimedPolicyMail {
  id: string;
  policyId: string;
  policyNumber: string;
  kind: string;
  recipient: string;
  /** The attempt number reserved for this send (1-based). */
  attempt: number;
  maxAttempts: number;
  /** Resends by a provider admin so far: part of the Message-ID, so each resend is a message of its own. */
  resends: number;
  /** The lease, and the fencing token: only the holder of this exact lease may record the outcome. */
  lockedUntil: Date;
}

interface ClaimedRow {
  id: string;
  policyId: string;
  policyNumber: string;
  kind: string;
  recipient: string;
  attempts: number;
  maxAttempts: number;
  resends: number;
  lockedUntil: Date | string;
}

/**
 * Claims up to `limit` due mails in one statement, as the webhook delivery worker claims its rows: FOR UPDATE SKIP
 * LOCKED keeps concurrent workers and replicas off each other's rows, and the lease keeps a row away from everyone
 * until it lapses. The attempt number is reserved here; a row still carrying a lapsed lease was abandoned mid-attempt
 * (a crash, a kill) and is re-sent under the same attempt number.
 */
export async function claimDuePolicyMails(
  prisma: PrismaClient,
  options: { now: Date; leaseMs: number; limit: number },
): Promise<ClaimedPolicyMail[]> {
  const { now, limit } = options;
  const leaseUntil = new Date(now.getTime() + options.leaseMs);
  const rows = await prisma.$queryRaw<ClaimedRow[]>`
    WITH claimed AS (
      UPDATE policy_mails AS m
      SET attempts = CASE WHEN m.locked_until IS NULL THEN m.attempts + 1 ELSE m.attempts END,
          locked_until = ${leaseUntil}::timestamp(3)
      FROM (
        SELECT id FROM policy_mails
        WHERE status = 'pending'
          AND next_attempt_at <= ${now}::timestamp(3)
          AND (locked_until IS NULL OR locked_until < ${now}::timestamp(3))
        ORDER BY next_attempt_at
        LIMIT ${limit}::int
        FOR UPDATE SKIP LOCKED
      ) AS due
      WHERE m.id = due.id
      RETURNING m.id, m.policy_id, m.kind, m.recipient, m.attempts, m.max_attempts, m.resends, m.locked_until
    )
    SELECT c.id, c.policy_id AS "policyId", p.policy_number AS "policyNumber", c.kind, c.recipient, c.attempts,
      c.max_attempts AS "maxAttempts", c.resends, c.locked_until AS "lockedUntil"
    FROM claimed AS c JOIN policies AS p ON p.id = c.policy_id`;
  return rows.map((r) => ({
    id: r.id,
    policyId: r.policyId,
    policyNumber: r.policyNumber,
    kind: r.kind,
    recipient: r.recipient,
    attempt: Number(r.attempts),
    maxAttempts: Number(r.maxAttempts),
    resends: Number(r.resends),
    lockedUntil: new Date(r.lockedUntil),
  }));
}

export type MailOutcome =
  | { kind: 'sent'; at: Date; messageId: string }
  | { kind: 'retry'; at: Date; error: string }
  | { kind: 'failed'; error: string };

const MAX_ERROR_LENGTH = 500;

/**
 * Records one attempt's outcome, only while we still hold the lease we claimed the row with (fencing). False when the
 * lease was lost (it lapsed and another worker re-claimed the row: that worker now owns it).
 */
export async function recordMailOutcome(
  prisma: PrismaClient,
  claimed: ClaimedPolicyMail,
  outcome: MailOutcome,
): Promise<boolean> {
  const status = outcome.kind === 'retry' ? 'pending' : outcome.kind;
  const nextAttemptAt = outcome.kind === 'retry' ? outcome.at : null;
  const sentAt = outcome.kind === 'sent' ? outcome.at : null;
  const messageId = outcome.kind === 'sent' ? outcome.messageId : null;
  const lastError = outcome.kind === 'sent' ? null : outcome.error.slice(0, MAX_ERROR_LENGTH);
  const moved = await prisma.$executeRaw`
    UPDATE policy_mails
    SET status = ${status}::"PolicyMailStatus",
        next_attempt_at = COALESCE(${nextAttemptAt}::timestamp(3), next_attempt_at),
        sent_at = COALESCE(${sentAt}::timestamp(3), sent_at),
        message_id = COALESCE(${messageId}, message_id),
        last_error = ${lastError},
        locked_until = NULL
    WHERE id = ${claimed.id} AND status = 'pending' AND locked_until = ${claimed.lockedUntil}::timestamp(3)`;
  return moved === 1;
}
