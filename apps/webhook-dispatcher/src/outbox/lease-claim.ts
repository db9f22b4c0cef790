import { prepared, Prisma, queryRows, type PrismaClient } from '@expedition/db';

/**
 * The leased outboxes of the dispatcher: the `policy.issued` webhooks (webhook_events), the policyholder mails
 * (policy_mails) and the ACP order events (acp_order_events). Each row has `status` ('pending' while due), `attempts`,
 * `max_attempts`, `next_attempt_at` and `locked_until` (the lease), so one claim and one fence serve all three.
 */
export type LeasedOutbox = 'webhook_events' | 'policy_mails' | 'acp_order_events';

export interface ClaimOptions {
  now: Date;
  /** How long a claimed row stays invisible to every other worker: must outlive one attempt. */
  leaseMs: number;
  limit: number;
  /**
   * A row abandoned mid-attempt (claimable while still carrying a lease) is re-sent under the next attempt number
   * instead of its own: the attempt cut short counts. For outboxes where a repeat is seen by a person (the policy
   * mails), so that `attempts` says how many times it may have gone out and a crash loop still ends.
   */
  abandonedAttemptCounts?: boolean;
}

/** The columns every claimed row returns (besides the outbox's own): the CTE `claimed AS c` has them. */
const CLAIM_COLUMNS = ['id', 'attempts', 'max_attempts', 'locked_until'];

/** `last_error` and an attempt's `error` keep at most this many characters. */
export const MAX_ERROR_LENGTH = 500;

/**
 * Claims up to `options.limit` due rows of `outbox` in one statement and returns what `read` selects from them
 * (`FROM claimed AS c …`: the claimed rows with `id`, `attempts`, `max_attempts`, `locked_until` and `columns`).
 *
 * FOR UPDATE SKIP LOCKED keeps concurrent workers (and replicas) off each other's rows, and the lease keeps a row away
 * from everyone until it lapses. The attempt number is reserved here, before anything is sent. `locked_until` is
 * cleared whenever an outcome is recorded (recordFenced), so a row that is claimable while still carrying a lease was
 * abandoned mid-attempt (a crash, a kill): it is re-sent under the SAME attempt number instead of a new one (unless
 * `abandonedAttemptCounts`). Hence at most `max_attempts` recorded attempts, and no attempt lost. The lease is also
 * the fencing token: only its holder may record the outcome.
 */
export function claimDueRows<Row>(
  prisma: PrismaClient,
  outbox: LeasedOutbox,
  columns: readonly string[],
  read: Prisma.Sql,
  options: ClaimOptions,
): Promise<Row[]> {
  const { now, limit } = options;
  const countAbandoned = options.abandonedAttemptCounts ?? false;
  const leaseUntil = new Date(now.getTime() + options.leaseMs);
  const table = Prisma.raw(outbox);
  const returning = Prisma.raw([...CLAIM_COLUMNS, ...columns].map((column) => `t.${column}`).join(', '));
  return queryRows<Row>(
    prisma,
    prepared(Prisma.sql`
    WITH claimed AS (
      UPDATE ${table} AS t
      SET attempts = CASE WHEN t.locked_until IS NULL OR ${countAbandoned}::boolean THEN t.attempts + 1 ELSE t.attempts END,
          locked_until = ${leaseUntil}::timestamp(3)
      FROM (
        SELECT id FROM ${table}
        WHERE status = 'pending'
          AND next_attempt_at <= ${now}::timestamp(3)
          AND (locked_until IS NULL OR locked_until < ${now}::timestamp(3))
        ORDER BY next_attempt_at
        LIMIT ${limit}::int
        FOR UPDATE SKIP LOCKED
      ) AS due
      WHERE t.id = due.id
      RETURNING ${returning}
    )
    ${read}`),
  );
}

/**
 * Records one claimed row's outcome (`set`: the columns it moves) and clears its lease, but only while we still hold
 * the lease we claimed it with and the row is pending (fencing). False when the lease was lost: it lapsed and another
 * worker re-claimed the row, and that worker now owns the row and its outcome.
 */
export async function recordFenced(
  prisma: PrismaClient,
  outbox: LeasedOutbox,
  claimed: { id: string; lockedUntil: Date },
  set: Prisma.Sql,
): Promise<boolean> {
  const moved = await prisma.$executeRaw`
    UPDATE ${Prisma.raw(outbox)}
    SET ${set},
        locked_until = NULL
    WHERE id = ${claimed.id} AND status = 'pending' AND locked_until = ${claimed.lockedUntil}::timestamp(3)`;
  return moved === 1;
}
