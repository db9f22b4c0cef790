import { NOTIFY_CHANNELS, type Notifications, type PrismaClient } from '@expedition/db';
import { createPollingLoop, type Clock, type Logger } from '@expedition/platform';
import { activeTraceparent, inSpan, type Metrics } from '@expedition/observability';
import type { SecretBox } from '@expedition/operators';
import { claimDueWebhookEvents, recordAttempt, type ClaimedWebhookEvent, type Outcome } from './outbox.repository';
import { nextAttemptAt, WEBHOOK_MAX_ATTEMPTS } from './retry-schedule';
import { sendWebhook, type FetchLike, type SendResult } from './webhook-sender';

interface WebhookTarget {
  webhookUrl: string | null;
  webhookSecret: string | null;
  /** After a rotation with overlap: still signs (a second `v1=`) strictly before its expiry. */
  webhookSecretPrevious: string | null;
  webhookSecretPreviousExpiresAt: Date | null;
}

export interface DeliverySettings {
  /** Pauses between attempts (see retry-schedule.ts); default 30 s, 5 min. */
  retryDelaysMs: readonly number[];
  /** Per-request timeout. */
  timeoutMs: number;
  /** How long a claimed row stays invisible to other workers; must exceed timeoutMs. */
  leaseMs: number;
  /** Rows claimed (and sent concurrently) per round. */
  batchSize: number;
  /** Sleep between rounds when there was nothing (or not a full batch) to do. */
  pollIntervalMs: number;
}

export interface DeliveryWorkerDeps extends DeliverySettings {
  prisma: PrismaClient;
  logger: Logger;
  clock: Clock;
  /** Opens operators' sealed webhook secrets, only to sign (keyring from WEBHOOK_SECRET_KEYS). */
  secretBox: Pick<SecretBox, 'open'>;
  fetch?: FetchLike;
  /**
   * PostgreSQL's LISTEN/NOTIFY (Database.notifications): a new outbox row wakes the worker at once instead of at its
   * next poll. Without it (PGlite) the worker only polls; with it, polling stays as the safety net.
   */
  notifications?: Pick<Notifications, 'subscribe'>;
  /** Counts attempts by outcome (webhook_delivery_attempts_total). */
  metrics?: Pick<Metrics, 'deliveryAttempt'>;
}

export interface DeliveryWorker {
  start(): void;
  /** Stops claiming and resolves once the round in flight has finished and been recorded. */
  stop(): Promise<void>;
  /** One round: claim due rows, send them, record the outcomes. Returns how many rows were claimed. */
  runOnce(): Promise<number>;
  /** Run a round now instead of at the next poll (a notification arrived); a no-op when stopped. */
  kick(): void;
}

/**
 * Delivers `policy.issued` outbox rows. Any number of these may run in one process and in many replicas: rows are
 * claimed in the database (FOR UPDATE SKIP LOCKED + a lease), never in memory.
 */
export function createDeliveryWorker(deps: DeliveryWorkerDeps): DeliveryWorker {
  if (deps.leaseMs <= deps.timeoutMs) throw new RangeError('leaseMs must be longer than timeoutMs');

  async function runOnce(): Promise<number> {
    const claimed = await claimDueWebhookEvents(deps.prisma, {
      now: deps.clock.now(),
      leaseMs: deps.leaseMs,
      limit: deps.batchSize,
    });
    if (claimed.length === 0) return 0;
    // The operators' CURRENT url and secret, read at send time: a rotation or a fixed URL applies to queued retries.
    const operators = await deps.prisma.operator.findMany({
      where: { id: { in: [...new Set(claimed.map((row) => row.operatorId))] } },
      select: { id: true, webhookUrl: true, webhookSecret: true, webhookSecretPrevious: true, webhookSecretPreviousExpiresAt: true },
    });
    const targets = new Map(operators.map((o) => [o.id, o]));
    await Promise.all(claimed.map((row) => deliver(row, targets.get(row.operatorId))));
    return claimed.length;
  }

  async function deliver(row: ClaimedWebhookEvent, target: WebhookTarget | undefined): Promise<void> {
    const startedAt = deps.clock.now();
    // Continues the sale's trace (stored on the outbox row); a no-op call when tracing is off.
    const result = await inSpan(
      'policy.issued delivery',
      { kind: 'client', parent: row.traceParent, attributes: { 'webhook.event_id': row.eventId, 'webhook.attempt': row.attempt } },
      () => attempt(row, target, startedAt),
    );
    const outcome = outcomeOf(row, result);
    deps.metrics?.deliveryAttempt(outcome.kind);
    try {
      const recorded = await recordAttempt(
        deps.prisma,
        row,
        { attempt: row.attempt, startedAt, durationMs: result.durationMs, statusCode: result.statusCode, error: result.error },
        outcome,
        deps.clock.now(),
      );
      if (!recorded) deps.logger.warn({ eventId: row.eventId, attempt: row.attempt }, 'lease lost before recording; another worker owns the row');
    } catch (err) {
      // The lease stays; when it lapses the row is re-sent under the same attempt number (at least once, no loss).
      deps.logger.error({ err, eventId: row.eventId, attempt: row.attempt }, 'could not record webhook attempt');
    }
    logAttempt(row, result, outcome);
  }

  async function attempt(row: ClaimedWebhookEvent, operator: WebhookTarget | undefined, startedAt: Date): Promise<SendResult> {
    if (!operator?.webhookUrl) return { statusCode: null, error: 'no webhook URL configured', durationMs: 0 };
    if (!operator.webhookSecret) return { statusCode: null, error: 'no webhook secret configured', durationMs: 0 };
    const secret = openSecret(row, operator.webhookSecret);
    if (secret.error !== null) return { statusCode: null, error: secret.error, durationMs: 0 };
    const secrets = [secret.plain];
    if (operator.webhookSecretPrevious && operator.webhookSecretPreviousExpiresAt && startedAt < operator.webhookSecretPreviousExpiresAt) {
      // The previous secret is a courtesy during the overlap: one that no longer opens is left out, not fatal.
      const previous = openSecret(row, operator.webhookSecretPrevious);
      if (previous.error === null) secrets.push(previous.plain);
    }
    return sendWebhook({
      url: operator.webhookUrl,
      secrets,
      eventId: row.eventId,
      // jsonb returns keys in one canonical order, so every attempt sends the same bytes.
      body: JSON.stringify(row.payload),
      timestampSec: Math.floor(startedAt.getTime() / 1000),
      timeoutMs: deps.timeoutMs,
      fetch: deps.fetch,
      traceparent: activeTraceparent() ?? row.traceParent ?? undefined,
    });
  }

  /**
   * The plain secret, decrypted for this one signature and dropped after it. A value that cannot be opened (tampered,
   * sealed under a key no longer in the keyring) is recorded as the attempt's error: nothing is signed with garbage,
   * and the retry schedule gives the platform team time to restore the key.
   */
  function openSecret(row: ClaimedWebhookEvent, stored: string): { plain: string; error: null } | { plain: null; error: string } {
    try {
      return { plain: deps.secretBox.open(stored, row.operatorId), error: null };
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      deps.logger.error({ eventId: row.eventId, operatorId: row.operatorId, reason }, 'cannot open the operator\'s webhook secret');
      return { plain: null, error: `webhook secret cannot be decrypted: ${reason}` };
    }
  }

  function outcomeOf(row: ClaimedWebhookEvent, result: SendResult): Outcome {
    const now = deps.clock.now();
    if (result.error === null) return { kind: 'delivered', at: now };
    const next = nextAttemptAt(row.attempt, now, deps.retryDelaysMs, row.maxAttempts || WEBHOOK_MAX_ATTEMPTS);
    return next ? { kind: 'retry', at: next, error: result.error } : { kind: 'failed', error: result.error };
  }

  function logAttempt(row: ClaimedWebhookEvent, result: SendResult, outcome: Outcome): void {
    const fields = { eventId: row.eventId, attempt: row.attempt, statusCode: result.statusCode, durationMs: result.durationMs, outcome: outcome.kind };
    if (outcome.kind === 'failed') deps.logger.warn({ ...fields, error: result.error }, 'webhook delivery failed for good');
    else if (outcome.kind === 'retry') deps.logger.info({ ...fields, error: result.error, nextAttemptAt: outcome.at }, 'webhook attempt failed; will retry');
    else deps.logger.debug(fields, 'webhook delivered');
  }

  // A full batch suggests more is due: go again at once; otherwise poll.
  const loop = createPollingLoop(async () => ({ backlog: (await runOnce()) >= deps.batchSize }), {
    pollIntervalMs: deps.pollIntervalMs,
    onError: (err) => deps.logger.error({ err }, 'webhook claim round failed'),
  });

  let unsubscribe: (() => void) | null = null;
  return {
    start() {
      loop.start();
      unsubscribe ??= deps.notifications?.subscribe(NOTIFY_CHANNELS.outbox, loop.kick) ?? null;
    },
    async stop() {
      unsubscribe?.();
      unsubscribe = null;
      await loop.stop();
    },
    runOnce,
    kick: loop.kick,
  };
}

export interface DeliveryWorkers {
  readonly workers: readonly DeliveryWorker[];
  start(): void;
  stop(): Promise<void>;
}

/** `count` independent workers (WEBHOOK_WORKERS); they coordinate only through the database. */
export function createDeliveryWorkers(count: number, deps: DeliveryWorkerDeps): DeliveryWorkers {
  const workers = Array.from({ length: count }, (_, i) => createDeliveryWorker({ ...deps, logger: deps.logger.child({ worker: i + 1 }) }));
  return {
    workers,
    start: () => workers.forEach((w) => w.start()),
    stop: async () => {
      await Promise.all(workers.map((w) => w.stop()));
    },
  };
}
