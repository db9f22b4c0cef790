import { randomUUID } from 'node:crypto';
import { prepared, Prisma, queryRows, type PrismaClient } from '@expedition/db';
import { claimDueRows, MAX_ERROR_LENGTH, type ClaimOptions } from '../outbox/lease-claim';

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
  /** The operator's CURRENT url and secrets, read in the claiming statement: a rotation or a fixed URL applies to
   * queued retries. Null when the operator row is gone. */
  target: WebhookTarget | null;
}

/** Where and with what an operator's webhooks are sent (secrets as stored: sealed, or legacy plain). */
export interface WebhookTarget {
  webhookUrl: string | null;
  webhookSecret: string | null;
  /** After a rotation with overlap: still signs (a second `v1=`) strictly before its expiry. */
  webhookSecretPrevious: string | null;
  webhookSecretPreviousExpiresAt: Date | null;
}

export interface AttemptRecord {
  attempt: number;
  startedAt: Date;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
}

interface ClaimedRow {
  id: string;
  eventId: string;
  operatorId: string;
  payload: unknown;
  attempts: number;
  maxAttempts: number;
  lockedUntil: Date | string;
  traceParent: string | null;
  operatorFound: boolean;
  webhookUrl: string | null;
  webhookSecret: string | null;
  webhookSecretPrevious: string | null;
  webhookSecretPreviousExpiresAt: Date | string | null;
}

/**
 * Claims up to `limit` due rows (claimDueRows: FOR UPDATE SKIP LOCKED, the lease, the attempt number reserved before
 * anything is sent, an abandoned attempt re-sent under the same number). The same statement reads each row's operator
 * (url and stored secrets), so a round costs one round trip before its POSTs.
 */
export async function claimDueWebhookEvents(
  prisma: PrismaClient,
  options: ClaimOptions,
): Promise<ClaimedWebhookEvent[]> {
  const rows = await claimDueRows<ClaimedRow>(
    prisma,
    'webhook_events',
    ['event_id', 'operator_id', 'payload', 'trace_parent'],
    Prisma.sql`
    SELECT c.id, c.event_id AS "eventId", c.operator_id AS "operatorId", c.payload, c.attempts,
           c.max_attempts AS "maxAttempts", c.locked_until AS "lockedUntil", c.trace_parent AS "traceParent",
           o.id IS NOT NULL AS "operatorFound", o.webhook_url AS "webhookUrl", o.webhook_secret AS "webhookSecret",
           o.webhook_secret_previous AS "webhookSecretPrevious",
           o.webhook_secret_previous_expires_at AS "webhookSecretPreviousExpiresAt"
    FROM claimed AS c
    LEFT JOIN operators AS o ON o.id = c.operator_id`,
    options,
  );
  return rows.map(toClaimed);
}

// Both adapters (pg, PGlite) return timestamps as Dates in UTC; new Date() also copes with a text form.
function toClaimed(row: ClaimedRow): ClaimedWebhookEvent {
  const previousExpiry = row.webhookSecretPreviousExpiresAt;
  return {
    id: row.id,
    eventId: row.eventId,
    operatorId: row.operatorId,
    payload: row.payload,
    attempt: Number(row.attempts),
    maxAttempts: Number(row.maxAttempts),
    lockedUntil: new Date(row.lockedUntil),
    traceParent: row.traceParent ?? null,
    target: row.operatorFound
      ? {
          webhookUrl: row.webhookUrl,
          webhookSecret: row.webhookSecret,
          webhookSecretPrevious: row.webhookSecretPrevious,
          webhookSecretPreviousExpiresAt: previousExpiry === null ? null : new Date(previousExpiry),
        }
      : null,
  };
}

export type Outcome =
  { kind: 'delivered'; at: Date } | { kind: 'retry'; at: Date; error: string } | { kind: 'failed'; error: string };

/** One finished attempt of a claimed row, ready to be recorded. */
export interface AttemptOutcome {
  claimed: ClaimedWebhookEvent;
  attempt: AttemptRecord;
  outcome: Outcome;
}

/**
 * Records finished attempts and moves their rows on, all in ONE statement (a data-modifying CTE: one round trip for a
 * whole round, atomic), but each only while we still hold the lease we claimed it with (the fence of recordFenced,
 * outbox/lease-claim.ts, for a whole round). Returns the ids of the rows
 * recorded; a row missing from it lost its lease (it lapsed and someone else re-claimed the row): that worker now owns
 * the row and its outcome.
 *
 * The round's outcomes travel as ONE jsonb parameter: the client's raw-query path costs per parameter, and a round of
 * 10 as a VALUES list has 120 (measured: about twice the client CPU of the jsonb form). Dates go as ISO strings, which
 * `timestamp(3)` reads as the UTC wall time Prisma stores.
 */
export async function recordAttempts(
  prisma: PrismaClient,
  outcomes: readonly AttemptOutcome[],
  now: Date,
): Promise<Set<string>> {
  if (outcomes.length === 0) return new Set();
  const rows = outcomes.map(({ claimed, attempt, outcome }) => {
    const next = nextState(outcome);
    return {
      id: claimed.id,
      locked_until: claimed.lockedUntil,
      status: next.status,
      next_attempt_at: next.nextAttemptAt,
      delivered_at: next.deliveredAt,
      last_error: next.lastError,
      attempt_id: randomUUID(),
      attempt_number: attempt.attempt,
      started_at: attempt.startedAt,
      duration_ms: attempt.durationMs,
      status_code: attempt.statusCode,
      error: attempt.error === null ? null : attempt.error.slice(0, MAX_ERROR_LENGTH),
    };
  });
  const recorded = await queryRows<{ id: string }>(
    prisma,
    prepared(Prisma.sql`
    WITH outcome AS (
      SELECT * FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS o(
        id text, locked_until timestamp(3), status webhook_event_status, next_attempt_at timestamp(3),
        delivered_at timestamp(3), last_error text, attempt_id text, attempt_number int, started_at timestamp(3),
        duration_ms int, status_code int, error text)
    ),
    moved AS (
      UPDATE webhook_events AS e
      SET status = o.status,
          next_attempt_at = COALESCE(o.next_attempt_at, e.next_attempt_at),
          delivered_at = COALESCE(o.delivered_at, e.delivered_at),
          locked_until = NULL,
          last_error = o.last_error
      FROM outcome AS o
      WHERE e.id = o.id AND e.status = 'pending' AND e.locked_until = o.locked_until
      RETURNING e.id
    )
    INSERT INTO webhook_attempts (id, webhook_event_id, attempt_number, started_at, duration_ms, status_code, error, created_at)
    SELECT o.attempt_id, o.id, o.attempt_number, o.started_at, o.duration_ms, o.status_code, o.error, ${now}::timestamp(3)
    FROM outcome AS o JOIN moved ON moved.id = o.id
    RETURNING webhook_event_id AS id`),
  );
  return new Set(recorded.map((row) => row.id));
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
      return {
        status: 'pending',
        nextAttemptAt: outcome.at,
        deliveredAt: null,
        lastError: outcome.error.slice(0, MAX_ERROR_LENGTH),
      };
    case 'failed':
      return {
        status: 'failed',
        nextAttemptAt: null,
        deliveredAt: null,
        lastError: outcome.error.slice(0, MAX_ERROR_LENGTH),
      };
  }
}
