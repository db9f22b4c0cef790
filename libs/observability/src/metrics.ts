import type { Mode } from '@expedition/contracts/rules';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * The channel a quote was created through: `POST /api/v1/quotes` (api), the embed widget (embed), the MCP
 * `create_quote` tool (mcp) or an ACP checkout session (acp). MCP and ACP quotes are stored with
 * `quotes.source = api`; the label tells the channels apart.
 */
export type QuoteSource = 'api' | 'embed' | 'mcp' | 'acp';
/** The embed gate's answer: admitted, or the bare 401 (key), 403 (origin), 429 (rate limit). */
export type GateOutcome = 'admitted' | '401' | '403' | '429';
/** A webhook delivery attempt as the outbox records it. */
export type DeliveryOutcome = 'delivered' | 'retry' | 'failed';
export type PaymentOutcome = 'succeeded' | 'failed';
/**
 * What a succeeded payment reported to the intake became: a policy issued now, one issued before (the purchase
 * request settled it first), a refund decided (a second charge, a wrong amount, an unfulfillable quote), or nothing
 * (unknown quote or plan, an event that could not be trusted).
 */
export type FulfillmentResult = 'policy_issued' | 'already_recorded' | 'refund_pending' | 'ignored';
/** A policyholder mail attempt: sent, retry (failed, will retry), failed (gave up after the last attempt). */
export type PolicyMailOutcome = 'sent' | 'retry' | 'failed';
/** What the reconciliation of an unfinished payment attempt found (docs/runbooks.md, "UnrecordedChargesFound"). */
export type ReconciliationResult = 'recorded' | 'refunded' | 'no_charge' | 'in_flight';

const CHANNELS = new Set(['checkout_link', 'mpp', 'embed', 'acp']);

/** What the outbox looks like right now; sampled from the database when Prometheus scrapes. */
export interface OutboxSample {
  /** Rows still to deliver (`status = 'pending'`). */
  depth: number;
  /** Seconds since the oldest pending row was created; 0 when none. */
  oldestPendingAgeSec: number;
}

/**
 * The money path's backlog, sampled from the database when Prometheus scrapes (dispatcher only): the webhook outbox,
 * the policyholder mail outbox, money kept without a policy and refunds not done.
 */
export interface BacklogSample {
  webhooks: OutboxSample;
  mails: OutboxSample;
  /** Succeeded payments older than the grace period with neither a policy nor a refund decided (should be 0). */
  paymentsWithoutPolicy: number;
  /** Refunds still being tried (`pending`) and those given up on (`failed`, a person must act). */
  refunds: { pending: number; failed: number };
}

export interface Metrics {
  /** This process's registry: default Node metrics plus ours. Serve it with `metricsHandler` / `startMetricsServer`. */
  readonly registry: Registry;
  readonly httpRequestDuration: Histogram<'app' | 'method' | 'route' | 'status'>;
  gateDecision(outcome: GateOutcome): void;
  quoteCreated(source: QuoteSource): void;
  /** A quote's options became ready `lagSec` seconds after the quote was created. */
  optionsReady(lagSec: number): void;
  /** A delivery attempt to `operator` (the operator id: a bounded set, so a failing endpoint can be told apart). */
  deliveryAttempt(outcome: DeliveryOutcome, operator: string): void;
  /** A policyholder mail attempt (policy_mail_attempts_total). */
  policyMailAttempt(outcome: PolicyMailOutcome): void;
  /** An ACP order event attempt to an agent platform (acp_order_event_attempts_total). */
  acpOrderEventAttempt(outcome: DeliveryOutcome): void;
  /** A processor-reported payment result; unknown channels are counted as `other` (labels stay bounded). */
  paymentOutcome(channel: string | undefined, outcome: PaymentOutcome, mode: Mode): void;
  /** What a succeeded payment became at the intake (payment_fulfillments_total). */
  fulfillment(result: FulfillmentResult, mode: Mode): void;
  /** What the reconciler found for an unfinished payment attempt (payment_reconciliations_total). */
  reconciliation(result: ReconciliationResult, mode: Mode): void;
  /** Redis is configured but unreachable (true) or back (false): limits are counted per replica meanwhile. */
  redisFallback(active: boolean): void;
  /**
   * Registers the backlog gauges, filled by `sample` at scrape time (one call per scrape, shared by every gauge).
   * Only the dispatcher (or the launcher) calls this; a failing sample leaves the last values and is reported.
   */
  sampleBacklog(sample: () => Promise<BacklogSample>, onError?: (err: unknown) => void): void;
  /**
   * Registers `database_up`, set at scrape time from `ping` (1 answered within 2 s, else 0). Once per registry: a
   * second call (the launcher composes every app on one registry) is ignored.
   */
  watchDatabase(ping: () => Promise<unknown>): void;
}

export interface MetricsOptions {
  /** `service` label on every series (e.g. `embed-api`, or `launcher` for the all-in-one process). */
  service: string;
  /** Default Node process metrics (event loop lag, heap, GC, …); on unless a test turns them off. */
  defaultMetrics?: boolean;
}

/** Seconds; request latencies of a JSON API, from cache hits to slow database round trips. */
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Seconds from quote creation to ready options: the worker is kicked at once, else polls every second or so. */
const OPTIONS_LAG_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 300];
/** A database ping slower than this counts as down (the same bound as /readyz). */
const DATABASE_PING_TIMEOUT_MS = 2_000;

/** One registry per process (never prom-client's global one, so tests and the launcher stay independent). */
export function createMetrics(options: MetricsOptions): Metrics {
  const registry = new Registry();
  registry.setDefaultLabels({ service: options.service });
  if (options.defaultMetrics !== false) collectDefaultMetrics({ register: registry });
  const registers = [registry];

  const httpRequestDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by app, method, route template (never a raw path) and status code.',
    labelNames: ['app', 'method', 'route', 'status'] as const,
    buckets: HTTP_BUCKETS,
    registers,
  });
  const gate = new Counter({
    name: 'embed_gate_decisions_total',
    help: 'Embed gate decisions: admitted, or refused with 401 (key), 403 (origin) or 429 (rate limit).',
    labelNames: ['outcome'] as const,
    registers,
  });
  const quotes = new Counter({
    name: 'quotes_created_total',
    help: 'Quotes created, by source (api, embed, mcp, acp).',
    labelNames: ['source'] as const,
    registers,
  });
  const optionsLag = new Histogram({
    name: 'quote_options_lag_seconds',
    help: 'Seconds from quote creation to its options becoming ready (observed by the options worker that produced them).',
    buckets: OPTIONS_LAG_BUCKETS,
    registers,
  });
  const deliveries = new Counter({
    name: 'webhook_delivery_attempts_total',
    help: 'policy.issued delivery attempts by outcome (delivered, retry: failed and will retry, failed: gave up) and operator id.',
    labelNames: ['outcome', 'operator'] as const,
    registers,
  });
  const policyMails = new Counter({
    name: 'policy_mail_attempts_total',
    help: 'Policyholder confirmation e-mail attempts by outcome: sent, retry (failed, will retry), failed (gave up).',
    labelNames: ['outcome'] as const,
    registers,
  });
  const acpOrderEvents = new Counter({
    name: 'acp_order_event_attempts_total',
    help: 'ACP order event deliveries to agent platforms by outcome: delivered, retry (failed, will retry), failed (gave up).',
    labelNames: ['outcome'] as const,
    registers,
  });
  const payments = new Counter({
    name: 'payment_outcomes_total',
    help: 'Payment results reported by the processor, by channel (checkout_link, mpp, embed, acp), outcome and mode (test, live).',
    labelNames: ['channel', 'outcome', 'mode'] as const,
    registers,
  });
  const fulfillments = new Counter({
    name: 'payment_fulfillments_total',
    help: 'What each succeeded payment reported to the intake became: policy_issued, already_recorded, refund_pending or ignored; by mode.',
    labelNames: ['result', 'mode'] as const,
    registers,
  });
  const reconciliations = new Counter({
    name: 'payment_reconciliations_total',
    help: 'Unfinished payment attempts resolved from the processor: recorded (a charge no record held became the policy), refunded (a second charge found and refunded), no_charge, in_flight; by mode.',
    labelNames: ['result', 'mode'] as const,
    registers,
  });
  const redisFallback = new Gauge({
    name: 'redis_fallback_active',
    help: '1 while the configured Redis is unreachable and rate limits are counted per replica; 0 otherwise.',
    registers,
  });
  let databaseWatched = false;
  // Children resolved once: the hot path then costs one increment, no label lookup.
  const gateChildren = {
    admitted: gate.labels('admitted'),
    '401': gate.labels('401'),
    '403': gate.labels('403'),
    '429': gate.labels('429'),
  };

  return {
    registry,
    httpRequestDuration,
    gateDecision: (outcome) => gateChildren[outcome].inc(),
    quoteCreated: (source) => quotes.inc({ source }),
    optionsReady: (lagSec) => optionsLag.observe(Math.max(0, lagSec)),
    deliveryAttempt: (outcome, operator) => deliveries.inc({ outcome, operator }),
    policyMailAttempt: (outcome) => policyMails.inc({ outcome }),
    acpOrderEventAttempt: (outcome) => acpOrderEvents.inc({ outcome }),
    paymentOutcome: (channel, outcome, mode) =>
      payments.inc({ channel: channel && CHANNELS.has(channel) ? channel : 'other', outcome, mode }),
    fulfillment: (result, mode) => fulfillments.inc({ result, mode }),
    reconciliation: (result, mode) => reconciliations.inc({ result, mode }),
    redisFallback: (active) => redisFallback.set(active ? 1 : 0),
    watchDatabase(ping) {
      if (databaseWatched) return;
      databaseWatched = true;
      new Gauge({
        name: 'database_up',
        help: '1 when PostgreSQL answered a ping within 2 s at scrape time, else 0.',
        registers,
        async collect() {
          let timer: NodeJS.Timeout | undefined;
          const timeout = new Promise<never>((_, reject) => {
            timer = setTimeout(() => reject(new Error('database ping timed out')), DATABASE_PING_TIMEOUT_MS);
          });
          const up = await Promise.race([ping(), timeout])
            .then(
              () => 1,
              () => 0,
            )
            .finally(() => clearTimeout(timer));
          this.set(up);
        },
      });
    },
    sampleBacklog(sample, onError) {
      let inFlight: Promise<BacklogSample | null> | null = null;
      // Every gauge is collected concurrently on a scrape: they share one sample.
      const shared = () =>
        (inFlight ??= sample()
          .catch((err: unknown) => {
            onError?.(err);
            return null;
          })
          .finally(() => setImmediate(() => (inFlight = null))));
      const gauge = (name: string, help: string, read: (s: BacklogSample) => number) =>
        new Gauge({
          name,
          help,
          registers,
          async collect() {
            const s = await shared();
            if (s) this.set(read(s));
          },
        });
      gauge(
        'webhook_outbox_depth',
        'policy.issued outbox rows still pending delivery (sampled from the database at scrape time).',
        (s) => s.webhooks.depth,
      );
      gauge(
        'webhook_outbox_oldest_pending_age_seconds',
        'Age of the oldest pending outbox row in seconds, 0 when none (sampled at scrape time).',
        (s) => s.webhooks.oldestPendingAgeSec,
      );
      gauge(
        'policy_mail_outbox_depth',
        'Policyholder mails still pending (sampled at scrape time).',
        (s) => s.mails.depth,
      );
      gauge(
        'policy_mail_oldest_pending_age_seconds',
        'Age of the oldest pending policyholder mail in seconds, 0 when none (sampled at scrape time).',
        (s) => s.mails.oldestPendingAgeSec,
      );
      gauge(
        'payments_succeeded_without_policy',
        'Succeeded payments older than 10 minutes with neither a policy nor a refund decided (sampled at scrape time; should be 0).',
        (s) => s.paymentsWithoutPolicy,
      );
      gauge(
        'payment_refunds_pending',
        'Refunds decided and not yet confirmed by the processor (sampled at scrape time).',
        (s) => s.refunds.pending,
      );
      gauge(
        'payment_refunds_failed',
        'Refunds given up on: a person must return the money (sampled at scrape time).',
        (s) => s.refunds.failed,
      );
    },
  };
}
