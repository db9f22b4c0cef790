import { NO_WEBHOOK_SECRET_ERROR, NO_WEBHOOK_URL_ERROR } from '@expedition/contracts';
import { NOTIFY_CHANNELS, type Notifications, type PrismaClient } from '@expedition/db';
import { createPollingLoop, type Clock, type Logger } from '@expedition/platform';
import { activeTraceparent, inSpan, type Metrics } from '@expedition/observability';
import {
  createPolicyTokens,
  DEV_POLICY_TOKEN_SECRET,
  withAccessToken,
  type PolicyTokens,
} from '@expedition/fulfillment';
import type { SecretBox } from '@expedition/operators';
import {
  claimDueWebhookEvents,
  recordAttempts,
  type AttemptOutcome,
  type ClaimedWebhookEvent,
  type Outcome,
  type WebhookTarget,
} from './outbox.repository';
import { nextAttemptAt, WEBHOOK_MAX_ATTEMPTS } from './retry-schedule';
import { createKeepAliveTransport } from './keep-alive-transport';
import { fetchTransport, sendWebhook, type FetchLike, type SendResult } from './webhook-sender';

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
  /**
   * WEBHOOK_ALLOW_PRIVATE_NETWORKS: webhook URLs may reach loopback and private addresses (development: the demo
   * receiver on localhost). Off in production, where only public addresses are dialled (keep-alive-transport.ts).
   */
  allowPrivateNetworks: boolean;
}

export interface DeliveryWorkerDeps extends DeliverySettings {
  prisma: PrismaClient;
  logger: Logger;
  clock: Clock;
  /** Opens operators' sealed webhook secrets, only to sign (keyring from WEBHOOK_SECRET_KEYS). */
  secretBox: Pick<SecretBox, 'open'>;
  /**
   * Sends through this fetch instead of the worker's own keep-alive node:http(s) connections (keep-alive-transport.ts).
   * For tests only: an injected fetch bypasses the outbound address rules, which live in the keep-alive transport.
   */
  fetch?: FetchLike;
  /**
   * PostgreSQL's LISTEN/NOTIFY (Database.notifications): a new outbox row wakes the worker at once instead of at its
   * next poll. Without it (PGlite) the worker only polls; with it, polling stays as the safety net.
   */
  notifications?: Pick<Notifications, 'subscribe'>;
  /** Counts attempts by outcome and operator (webhook_delivery_attempts_total). */
  metrics?: Pick<Metrics, 'deliveryAttempt'>;
  /**
   * Derives the policy's access token that `documentUrl` carries when delivered (stored without it: policy-tokens.ts).
   * POLICY_TOKEN_SECRET, the same as quote-api's; absent: the published development secret (tests, embedded mode).
   */
  policyTokens?: Pick<PolicyTokens, 'tokenFor'>;
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

/** The plain secrets to sign with (current first), or why there are none. */
type SigningSecrets = { plain: string[]; error: null } | { plain: null; error: string };
type SigningSecretsOf = (row: ClaimedWebhookEvent, target: WebhookTarget) => SigningSecrets;

/**
 * Delivers `policy.issued` outbox rows. Any number of these may run in one process and in many replicas: rows are
 * claimed in the database (FOR UPDATE SKIP LOCKED + a lease), never in memory.
 */
export function createDeliveryWorker(deps: DeliveryWorkerDeps): DeliveryWorker {
  if (deps.leaseMs <= deps.timeoutMs) throw new RangeError('leaseMs must be longer than timeoutMs');
  const keepAlive = deps.fetch ? null : createKeepAliveTransport({ allowPrivateNetworks: deps.allowPrivateNetworks });
  const transport = keepAlive?.send ?? fetchTransport(deps.fetch);
  const policyTokens = deps.policyTokens ?? createPolicyTokens({ secret: DEV_POLICY_TOKEN_SECRET });

  /** The loop's last round's record, still in flight while the next round claims and sends (at most one). */
  let recording: Promise<void> = Promise.resolve();

  async function runOnce(): Promise<number> {
    const outcomes = await claimAndSend();
    await recordRound(outcomes);
    return outcomes.length;
  }

  /**
   * The loop's round: the same, but the record overlaps the next round's claim and sends instead of delaying them
   * (the rows stay leased until it lands, so no one claims them in between). A round first waits for the previous
   * record, so records never pile up, and stop() waits for the last one.
   */
  async function runPipelinedRound(): Promise<number> {
    const outcomes = await claimAndSend();
    await recording;
    recording = recordRound(outcomes);
    return outcomes.length;
  }

  async function claimAndSend(): Promise<AttemptOutcome[]> {
    const claimed = await claimDueWebhookEvents(deps.prisma, {
      now: deps.clock.now(),
      leaseMs: deps.leaseMs,
      limit: deps.batchSize,
    });
    if (claimed.length === 0) return [];
    const startedAt = deps.clock.now();
    const signingSecrets = signingSecretsFor(startedAt);
    return Promise.all(claimed.map((row) => deliver(row, startedAt, signingSecrets)));
  }

  async function deliver(
    row: ClaimedWebhookEvent,
    startedAt: Date,
    signingSecrets: SigningSecretsOf,
  ): Promise<AttemptOutcome> {
    // Continues the sale's trace (stored on the outbox row); a no-op call when tracing is off.
    const result = await inSpan(
      'policy.issued delivery',
      {
        kind: 'client',
        parent: row.traceParent,
        attributes: { 'webhook.event_id': row.eventId, 'webhook.attempt': row.attempt },
      },
      () => attempt(row, startedAt, signingSecrets),
    );
    const outcome = outcomeOf(row, result);
    deps.metrics?.deliveryAttempt(outcome.kind, row.operatorId);
    logAttempt(row, result, outcome);
    return {
      claimed: row,
      attempt: {
        attempt: row.attempt,
        startedAt,
        durationMs: result.durationMs,
        statusCode: result.statusCode,
        error: result.error,
      },
      outcome,
    };
  }

  async function attempt(
    row: ClaimedWebhookEvent,
    startedAt: Date,
    signingSecrets: SigningSecretsOf,
  ): Promise<SendResult> {
    const target = row.target;
    if (!target?.webhookUrl) return { statusCode: null, error: NO_WEBHOOK_URL_ERROR, durationMs: 0 };
    const secrets = signingSecrets(row, target);
    if (secrets.error !== null) return { statusCode: null, error: secrets.error, durationMs: 0 };
    return sendWebhook({
      url: target.webhookUrl,
      secrets: secrets.plain,
      eventId: row.eventId,
      // jsonb returns keys in one canonical order, and the token is derived the same way each time: every attempt
      // sends the same bytes.
      body: JSON.stringify(deliveredPayload(row.payload, policyTokens)),
      timestampSec: Math.floor(startedAt.getTime() / 1000),
      timeoutMs: deps.timeoutMs,
      transport,
      traceparent: activeTraceparent() ?? row.traceParent ?? undefined,
    });
  }

  /**
   * The secrets to sign with, opened once per operator for one round (a batch usually holds many rows of one
   * operator: opening costs two AES-GCM decryptions) and dropped with the round. The round's rows were read by one
   * statement, so all rows of an operator carry the same stored values.
   */
  function signingSecretsFor(startedAt: Date): SigningSecretsOf {
    const opened = new Map<string, SigningSecrets>();
    return (row, target) => {
      let secrets = opened.get(row.operatorId);
      if (!secrets) {
        secrets = openSigningSecrets(row, target, startedAt);
        opened.set(row.operatorId, secrets);
      }
      return secrets;
    };
  }

  function openSigningSecrets(row: ClaimedWebhookEvent, target: WebhookTarget, startedAt: Date): SigningSecrets {
    if (!target.webhookSecret) return { plain: null, error: NO_WEBHOOK_SECRET_ERROR };
    const current = openSecret(row, target.webhookSecret);
    if (current.error !== null) return current;
    const plain = [current.plain];
    if (
      target.webhookSecretPrevious &&
      target.webhookSecretPreviousExpiresAt &&
      startedAt < target.webhookSecretPreviousExpiresAt
    ) {
      // The previous secret is a courtesy during the overlap: one that no longer opens is left out, not fatal.
      const previous = openSecret(row, target.webhookSecretPrevious);
      if (previous.error === null) plain.push(previous.plain);
    }
    return { plain, error: null };
  }

  /**
   * The plain secret, decrypted for this round's signatures and dropped after it. A value that cannot be opened
   * (tampered, sealed under a key no longer in the keyring) is recorded as the attempt's error: nothing is signed
   * with garbage, and the retry schedule gives the platform team time to restore the key.
   */
  function openSecret(
    row: ClaimedWebhookEvent,
    stored: string,
  ): { plain: string; error: null } | { plain: null; error: string } {
    try {
      return { plain: deps.secretBox.open(stored, row.operatorId), error: null };
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      deps.logger.error(
        { eventId: row.eventId, operatorId: row.operatorId, reason },
        "cannot open the operator's webhook secret",
      );
      return { plain: null, error: `webhook secret cannot be decrypted: ${reason}` };
    }
  }

  /**
   * Records the whole round in one statement once every send has finished (the round waited for all of them anyway).
   * A slow receiver keeps the others' rows leased until then, never past the lease: leaseMs > timeoutMs.
   */
  async function recordRound(batch: readonly AttemptOutcome[]): Promise<void> {
    if (batch.length === 0) return;
    try {
      const recorded = await recordAttempts(deps.prisma, batch, deps.clock.now());
      for (const { claimed } of batch) {
        if (!recorded.has(claimed.id)) {
          deps.logger.warn(
            { eventId: claimed.eventId, attempt: claimed.attempt },
            'lease lost before recording; another worker owns the row',
          );
        }
      }
    } catch (err) {
      // The leases stay; when they lapse the rows are re-sent under the same attempt numbers (at least once, no loss).
      for (const { claimed } of batch) {
        deps.logger.error(
          { err, eventId: claimed.eventId, attempt: claimed.attempt },
          'could not record webhook attempt',
        );
      }
    }
  }

  function outcomeOf(row: ClaimedWebhookEvent, result: SendResult): Outcome {
    const now = deps.clock.now();
    if (result.error === null) return { kind: 'delivered', at: now };
    const next = nextAttemptAt(row.attempt, now, deps.retryDelaysMs, row.maxAttempts || WEBHOOK_MAX_ATTEMPTS);
    return next ? { kind: 'retry', at: next, error: result.error } : { kind: 'failed', error: result.error };
  }

  function logAttempt(row: ClaimedWebhookEvent, result: SendResult, outcome: Outcome): void {
    const fields = {
      eventId: row.eventId,
      attempt: row.attempt,
      statusCode: result.statusCode,
      durationMs: result.durationMs,
      outcome: outcome.kind,
    };
    if (outcome.kind === 'failed')
      deps.logger.warn({ ...fields, error: result.error }, 'webhook delivery failed for good');
    else if (outcome.kind === 'retry')
      deps.logger.info(
        { ...fields, error: result.error, nextAttemptAt: outcome.at },
        'webhook attempt failed; will retry',
      );
    else deps.logger.debug(fields, 'webhook delivered');
  }

  // A full batch suggests more is due: go again at once; otherwise poll.
  const loop = createPollingLoop(async () => ({ backlog: (await runPipelinedRound()) >= deps.batchSize }), {
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
      await recording;
      keepAlive?.close();
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
  const workers = Array.from({ length: count }, (_, i) =>
    createDeliveryWorker({ ...deps, logger: deps.logger.child({ worker: i + 1 }) }),
  );
  return {
    workers,
    start: () => workers.forEach((w) => w.start()),
    stop: async () => {
      await Promise.all(workers.map((w) => w.stop()));
    },
  };
}

/**
 * The body as delivered: a `policy.issued` event's `documentUrl` is stored without the policy's access token (no
 * bearer token at rest) and gets the derived token here. Test events (sample data, no policy) carry no documentUrl.
 */
export function deliveredPayload(payload: unknown, policyTokens: Pick<PolicyTokens, 'tokenFor'>): unknown {
  const p = payload as { documentUrl?: unknown; policyNumber?: unknown; test?: unknown } | null;
  if (typeof p?.documentUrl !== 'string' || typeof p.policyNumber !== 'string' || p.test === true) return payload;
  return { ...p, documentUrl: withAccessToken(p.documentUrl, policyTokens.tokenFor({ policyNumber: p.policyNumber })) };
}
