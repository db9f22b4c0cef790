import { Prisma, type PrismaClient } from '@expedition/db';
import { claimDueRows, MAX_ERROR_LENGTH, recordFenced, type ClaimOptions } from '../outbox/lease-claim';

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
 * Claims up to `limit` due mails (claimDueRows, as the webhook delivery worker claims its rows), each under its next
 * attempt number, taken before anything is sent. A row still carrying a lapsed lease was abandoned mid-attempt (a
 * crash, a kill) and its mail may have gone out: that attempt counts, so `attempts` is how many times the mail may
 * have been sent, and a mail whose sending kills the worker runs out of attempts instead of looping.
 */
export async function claimDuePolicyMails(
  prisma: PrismaClient,
  options: Omit<ClaimOptions, 'abandonedAttemptCounts'>,
): Promise<ClaimedPolicyMail[]> {
  const rows = await claimDueRows<ClaimedRow>(
    prisma,
    'policy_mails',
    ['policy_id', 'kind', 'recipient', 'resends'],
    Prisma.sql`
    SELECT c.id, c.policy_id AS "policyId", p.policy_number AS "policyNumber", c.kind, c.recipient, c.attempts,
      c.max_attempts AS "maxAttempts", c.resends, c.locked_until AS "lockedUntil"
    FROM claimed AS c JOIN policies AS p ON p.id = c.policy_id`,
    { ...options, abandonedAttemptCounts: true },
  );
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

/**
 * Records one attempt's outcome while we still hold the lease we claimed the row with (recordFenced); false otherwise.
 * A claim past the last attempt (the last one was cut short) sent nothing: `attempts` stays at `max_attempts`.
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
  return recordFenced(
    prisma,
    'policy_mails',
    claimed,
    Prisma.sql`status = ${status}::"PolicyMailStatus",
        next_attempt_at = COALESCE(${nextAttemptAt}::timestamp(3), next_attempt_at),
        sent_at = COALESCE(${sentAt}::timestamp(3), sent_at),
        message_id = COALESCE(${messageId}, message_id),
        last_error = ${lastError},
        attempts = LEAST(attempts, max_attempts)`,
  );
}
