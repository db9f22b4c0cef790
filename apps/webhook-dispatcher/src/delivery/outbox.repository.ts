import { randomUUID } from 'node:crypto';
import type { PrismaClient } from '@expedition/db';

/** An outbox row leased to one worker for one attempt. */
export interface ClaimedWebhookEvent {
  id: string;
  eventId: string;
  operatorId: string;
  payload: unknown;
  /** The attempt number reserved for this send (1-based). */
  attempt: number;
  /** Attempts allowed in all: 3 (spec §8); each manual resend from the portal raises it by one. */
  maxAttempts: number;
  /** The lease; also the fencing token: only the holder of this exact lease may record the outcome. */
  lockedUntil: Date;
  /** W3C traceparent of the sale that enqueued the event: the delivery continues that trace (null: untraced). */
  traceParent: string | null;
}

export interface AttemptRecord {
  attempt: number;
  startedAt: Date;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
}

/**
 * Claims up to `limit` due rows in one statement: FOR UPDATE SKIP LOCKED keeps concurrent workers (and replicas)
 * off each other's rows, and the lease keeps the row away from everyone until it lapses.
 *
 * The attempt number is reserved here, before anything is sent. `locked_until` is cleared whenever an outcome is
 * recorded, so a row that is claimable while still carrying a lease was abandoned mid-attempt (crash, kill): it is
 * re-sent under the SAME attempt number instead of a new one. Hence at most 3 recorded attempts, and no attempt lost.
 */
export async function claimDueWebhookEvents(
  prisma: PrismaClient,
  options: { now: Date; leaseMs: number; limit: number },
): Promise<ClaimedWebhookEvent[]> {
  const { now, limit } = options;
  const leaseUntil = new Date(now.getTime() + options.leaseMs);
  const rows = await prisma.$queryRaw<
    { id: string; eventId: string; operatorId: string; payload: unknown; attempts: number; maxAttempts: number; lockedUntil: Date; traceParent: string | null }[]
  >`
    UPDATE webhook_events AS e
    SET attempts = CASE WHEN e.locked_until IS NULL THEN e.attempts + 1 ELSE e.attempts END,
        locked_until = ${leaseUntil}::timestamp(3)
    FROM (
      SELECT id FROM webhook_events
      WHERE status = 'pending'
        AND next_attempt_at <= ${now}::timestamp(3)
        AND (locked_until IS NULL OR locked_until < ${now}::timestamp(3))
      ORDER BY next_attempt_at
      LIMIT ${limit}::int
      FOR UPDATE SKIP LOCKED
    ) AS due
    WHERE e.id = due.id
    RETURNING e.id, e.event_id AS "eventId", e.operator_id AS "operatorId", e.payload, e.attempts,
              e.max_attempts AS "maxAttempts", e.locked_until AS "lockedUntil", e.trace_parent AS "traceParent"`;
  return rows.map((row) => ({
    id: row.id,
    eventId: row.eventId,
    operatorId: row.operatorId,
    payload: row.payload,
    attempt: Number(row.attempts),
    maxAttempts: Number(row.maxAttempts),
    lockedUntil: new Date(row.lockedUntil),
    traceParent: row.traceParent ?? null,
  }));
}

export type Outcome =
  | { kind: 'delivered'; at: Date }
  | { kind: 'retry'; at: Date; error: string }
  | { kind: 'failed'; error: string };

const MAX_ERROR_LENGTH = 500;

/**
 * Records one attempt and moves the row on in ONE statement (a data-modifying CTE, so one round trip and atomic),
 * but only while we still hold the lease we claimed with. Returns false when the lease was lost (it lapsed and
 * someone else re-claimed the row): that worker now owns the row and its outcome.
 */
export async function recordAttempt(
  prisma: PrismaClient,
  claimed: ClaimedWebhookEvent,
  attempt: AttemptRecord,
  outcome: Outcome,
  now: Date,
): Promise<boolean> {
  const next = nextState(outcome);
  const error = attempt.error === null ? null : attempt.error.slice(0, MAX_ERROR_LENGTH);
  const inserted = await prisma.$executeRaw`
    WITH moved AS (
      UPDATE webhook_events
      SET status = ${next.status}::webhook_event_status,
          next_attempt_at = COALESCE(${next.nextAttemptAt}::timestamp(3), next_attempt_at),
          delivered_at = COALESCE(${next.deliveredAt}::timestamp(3), delivered_at),
          locked_until = NULL,
          last_error = ${next.lastError}::text
      WHERE id = ${claimed.id} AND status = 'pending' AND locked_until = ${claimed.lockedUntil}::timestamp(3)
      RETURNING id
    )
    INSERT INTO webhook_attempts (id, webhook_event_id, attempt_number, started_at, duration_ms, status_code, error, created_at)
    SELECT ${randomUUID()}::text, moved.id, ${attempt.attempt}::int, ${attempt.startedAt}::timestamp(3),
           ${attempt.durationMs}::int, ${attempt.statusCode}::int, ${error}::text, ${now}::timestamp(3)
    FROM moved`;
  return inserted === 1;
}

interface NextState {
  status: 'pending' | 'delivered' | 'failed';
  nextAttemptAt: Date | null;
  deliveredAt: Date | null;
  lastError: string | null;
}

function nextState(outcome: Outcome): NextState {
  switch (outcome.kind) {
    case 'delivered':
      return { status: 'delivered', nextAttemptAt: null, deliveredAt: outcome.at, lastError: null };
    case 'retry':
      return { status: 'pending', nextAttemptAt: outcome.at, deliveredAt: null, lastError: outcome.error.slice(0, MAX_ERROR_LENGTH) };
    case 'failed':
      return { status: 'failed', nextAttemptAt: null, deliveredAt: null, lastError: outcome.error.slice(0, MAX_ERROR_LENGTH) };
  }
}
