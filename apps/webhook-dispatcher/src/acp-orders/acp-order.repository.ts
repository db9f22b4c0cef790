import { Prisma, type PrismaClient } from '@expedition/db';
import { claimDueRows, MAX_ERROR_LENGTH, recordFenced, type ClaimOptions } from '../outbox/lease-claim';

/** An ACP order event leased to one worker for one attempt, with its agent key's current URL and sealed secret. */
export interface ClaimedAcpOrderEvent {
  id: string;
  eventId: string;
  agentKeyId: string;
  payload: unknown;
  /** The attempt number reserved for this send (1-based). */
  attempt: number;
  maxAttempts: number;
  /** The lease, and the fencing token: only the holder of this exact lease may record the outcome. */
  lockedUntil: Date;
  webhookUrl: string | null;
  webhookSecret: string | null;
}

interface ClaimedRow {
  id: string;
  eventId: string;
  agentKeyId: string;
  payload: unknown;
  attempts: number;
  maxAttempts: number;
  lockedUntil: Date | string;
  webhookUrl: string | null;
  webhookSecret: string | null;
}

/**
 * Claims up to `limit` due events (claimDueRows, as the policy.issued delivery worker claims its rows): a row still
 * carrying a lapsed lease (a crash mid-attempt) is re-sent under the same attempt number. The key's URL and secret are
 * read in the same statement: a URL fixed by the provider applies to queued retries.
 */
export async function claimDueAcpOrderEvents(
  prisma: PrismaClient,
  options: ClaimOptions,
): Promise<ClaimedAcpOrderEvent[]> {
  const rows = await claimDueRows<ClaimedRow>(
    prisma,
    'acp_order_events',
    ['event_id', 'agent_key_id', 'payload'],
    Prisma.sql`
    SELECT c.id, c.event_id AS "eventId", c.agent_key_id AS "agentKeyId", c.payload, c.attempts,
      c.max_attempts AS "maxAttempts", c.locked_until AS "lockedUntil", k.webhook_url AS "webhookUrl",
      k.webhook_secret AS "webhookSecret"
    FROM claimed AS c JOIN agent_keys AS k ON k.id = c.agent_key_id`,
    options,
  );
  return rows.map((r) => ({
    id: r.id,
    eventId: r.eventId,
    agentKeyId: r.agentKeyId,
    payload: r.payload,
    attempt: Number(r.attempts),
    maxAttempts: Number(r.maxAttempts),
    lockedUntil: new Date(r.lockedUntil),
    webhookUrl: r.webhookUrl,
    webhookSecret: r.webhookSecret,
  }));
}

export type AcpOrderEventOutcome =
  | { kind: 'delivered'; at: Date; statusCode: number }
  | { kind: 'retry'; at: Date; statusCode: number | null; error: string }
  | { kind: 'failed'; statusCode: number | null; error: string };

/** Records one attempt's outcome while we still hold the lease we claimed the row with (recordFenced); false otherwise. */
export async function recordAcpOrderEventOutcome(
  prisma: PrismaClient,
  claimed: ClaimedAcpOrderEvent,
  outcome: AcpOrderEventOutcome,
): Promise<boolean> {
  const status = outcome.kind === 'retry' ? 'pending' : outcome.kind;
  const nextAttemptAt = outcome.kind === 'retry' ? outcome.at : null;
  const deliveredAt = outcome.kind === 'delivered' ? outcome.at : null;
  const lastError = outcome.kind === 'delivered' ? null : outcome.error.slice(0, MAX_ERROR_LENGTH);
  return recordFenced(
    prisma,
    'acp_order_events',
    claimed,
    Prisma.sql`status = ${status}::webhook_event_status,
        next_attempt_at = COALESCE(${nextAttemptAt}::timestamp(3), next_attempt_at),
        delivered_at = COALESCE(${deliveredAt}::timestamp(3), delivered_at),
        last_status_code = ${outcome.statusCode}::int,
        last_error = ${lastError}`,
  );
}
