import {
  ACP_MERCHANT_SIGNATURE_HEADER,
  ACP_ORDER_EVENT_MAX_ATTEMPTS,
  NO_WEBHOOK_SECRET_ERROR,
  NO_WEBHOOK_URL_ERROR,
} from '@expedition/contracts';
import type { PrismaClient } from '@expedition/db';
import {
  createPolicyTokens,
  DEV_POLICY_TOKEN_SECRET,
  withAccessToken,
  type PolicyTokens,
} from '@expedition/fulfillment';
import type { Metrics } from '@expedition/observability';
import { agentKeySecretContext, type SecretBox } from '@expedition/operators';
import { createPollingLoop, type Clock, type Logger } from '@expedition/platform';
import { signPayload } from '@expedition/webhook-signature';
import { createKeepAliveTransport } from '../delivery/keep-alive-transport';
import { nextAttemptAt } from '../delivery/retry-schedule';
import { fetchTransport, postSigned, type FetchLike, type SendResult } from '../delivery/webhook-sender';
import {
  claimDueAcpOrderEvents,
  recordAcpOrderEventOutcome,
  type AcpOrderEventOutcome,
  type ClaimedAcpOrderEvent,
} from './acp-order.repository';

export const ACP_ORDER_USER_AGENT = 'Expedition-ACP-Order-Events/1.0';

/**
 * Pauses after failed attempts 1..4 (ACP_ORDER_EVENT_MAX_ATTEMPTS = 5): 30 s, 2 min, 10 min, 1 h, so the last try is
 * about 1 h 12 min after the first.
 */
export const ACP_ORDER_RETRY_DELAYS_MS: readonly number[] = [30_000, 120_000, 600_000, 3_600_000];

export interface AcpOrderWorkerDeps {
  prisma: PrismaClient;
  logger: Logger;
  clock: Clock;
  secretBox: Pick<SecretBox, 'open'>;
  /** Tests only: bypasses the keep-alive transport and with it the outbound address rules. */
  fetch?: FetchLike;
  allowPrivateNetworks: boolean;
  timeoutMs: number;
  leaseMs: number;
  batchSize: number;
  pollIntervalMs: number;
  retryDelaysMs?: readonly number[];
  metrics?: Pick<Metrics, 'acpOrderEventAttempt'>;
  /** Derives the access token of the order's permalink (stored without it); POLICY_TOKEN_SECRET, as quote-api's. */
  policyTokens?: Pick<PolicyTokens, 'tokenFor'>;
}

export interface AcpOrderWorker {
  start(): void;
  stop(): Promise<void>;
  /** One round: claim due events, send each, record each outcome. Returns how many were claimed. */
  runOnce(): Promise<number>;
}

/**
 * Sends the ACP order events (acp_order_events) to the agent platforms' webhooks: the protocol's POST with
 * `Merchant-Signature: t=<unix>,v1=<hex HMAC-SHA256 over "t.body">`, `Request-Id` = the event id (stable across
 * retries). Only a 2xx counts; anything else is retried on ACP_ORDER_RETRY_DELAYS_MS, then marked failed.
 */
export function createAcpOrderWorker(deps: AcpOrderWorkerDeps): AcpOrderWorker {
  if (deps.leaseMs <= deps.timeoutMs) throw new RangeError('leaseMs must be longer than timeoutMs');
  const keepAlive = deps.fetch ? null : createKeepAliveTransport({ allowPrivateNetworks: deps.allowPrivateNetworks });
  const transport = keepAlive?.send ?? fetchTransport(deps.fetch);
  const policyTokens = deps.policyTokens ?? createPolicyTokens({ secret: DEV_POLICY_TOKEN_SECRET });
  const retryDelaysMs = deps.retryDelaysMs ?? ACP_ORDER_RETRY_DELAYS_MS;

  async function runOnce(): Promise<number> {
    const claimed = await claimDueAcpOrderEvents(deps.prisma, {
      now: deps.clock.now(),
      leaseMs: deps.leaseMs,
      limit: deps.batchSize,
    });
    await Promise.all(claimed.map((row) => deliver(row)));
    return claimed.length;
  }

  async function deliver(row: ClaimedAcpOrderEvent): Promise<void> {
    const result = await attempt(row);
    const outcome = outcomeOf(row, result);
    let recorded: boolean;
    try {
      recorded = await recordAcpOrderEventOutcome(deps.prisma, row, outcome);
    } catch (err) {
      // The lease stays; when it lapses the event is sent again under the same attempt number and Request-Id.
      deps.logger.error(
        { err, eventId: row.eventId, attempt: row.attempt },
        'could not record the ACP order event attempt',
      );
      return;
    }
    deps.metrics?.acpOrderEventAttempt(outcome.kind);
    const fields = {
      eventId: row.eventId,
      agentKeyId: row.agentKeyId,
      attempt: row.attempt,
      statusCode: result.statusCode,
      outcome: outcome.kind,
    };
    if (!recorded) deps.logger.warn(fields, 'ACP order event lease lost before recording; another worker owns it');
    else if (outcome.kind === 'delivered') deps.logger.info(fields, 'ACP order event delivered');
    else if (outcome.kind === 'retry')
      deps.logger.info(
        { ...fields, error: outcome.error, nextAttemptAt: outcome.at },
        'ACP order event not delivered; will retry',
      );
    else deps.logger.warn({ ...fields, error: outcome.error }, 'ACP order event not delivered; gave up');
  }

  async function attempt(row: ClaimedAcpOrderEvent): Promise<SendResult> {
    if (!row.webhookUrl) return { statusCode: null, error: NO_WEBHOOK_URL_ERROR, durationMs: 0 };
    if (!row.webhookSecret) return { statusCode: null, error: NO_WEBHOOK_SECRET_ERROR, durationMs: 0 };
    let secret: string;
    try {
      secret = deps.secretBox.open(row.webhookSecret, agentKeySecretContext(row.agentKeyId));
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      deps.logger.error(
        { eventId: row.eventId, agentKeyId: row.agentKeyId, reason },
        "cannot open the agent key's webhook secret",
      );
      return { statusCode: null, error: `webhook secret cannot be decrypted: ${reason}`, durationMs: 0 };
    }
    const body = JSON.stringify(deliveredOrderEvent(row.payload, policyTokens));
    return postSigned({
      url: row.webhookUrl,
      body,
      timeoutMs: deps.timeoutMs,
      transport,
      headers: {
        'Content-Type': 'application/json',
        'User-Agent': ACP_ORDER_USER_AGENT,
        [ACP_MERCHANT_SIGNATURE_HEADER]: signPayload(body, secret, Math.floor(deps.clock.now().getTime() / 1000)),
        'Request-Id': row.eventId,
        Timestamp: deps.clock.now().toISOString(),
      },
    });
  }

  function outcomeOf(row: ClaimedAcpOrderEvent, result: SendResult): AcpOrderEventOutcome {
    const now = deps.clock.now();
    if (result.error === null) return { kind: 'delivered', at: now, statusCode: result.statusCode ?? 200 };
    const next = nextAttemptAt(row.attempt, now, retryDelaysMs, row.maxAttempts || ACP_ORDER_EVENT_MAX_ATTEMPTS);
    return next
      ? { kind: 'retry', at: next, statusCode: result.statusCode, error: result.error }
      : { kind: 'failed', statusCode: result.statusCode, error: result.error };
  }

  const loop = createPollingLoop(async () => ({ backlog: (await runOnce()) >= deps.batchSize }), {
    pollIntervalMs: deps.pollIntervalMs,
    onError: (err) => deps.logger.error({ err }, 'ACP order event claim round failed'),
  });

  return {
    start: loop.start,
    async stop() {
      await loop.stop();
      keepAlive?.close();
    },
    runOnce,
  };
}

/** The event as sent: the order's permalink gets the policy's access token, derived from the order number. */
export function deliveredOrderEvent(payload: unknown, policyTokens: Pick<PolicyTokens, 'tokenFor'>): unknown {
  const p = payload as { data?: { permalink_url?: unknown; order_number?: unknown } } | null;
  const data = p?.data;
  if (typeof data?.permalink_url !== 'string' || typeof data.order_number !== 'string') return payload;
  return {
    ...p,
    data: {
      ...data,
      permalink_url: withAccessToken(data.permalink_url, policyTokens.tokenFor({ policyNumber: data.order_number })),
    },
  };
}
