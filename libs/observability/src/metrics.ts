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
/** A policyholder mail attempt: sent, retry (failed, will retry), failed (gave up after the last attempt). */
export type PolicyMailOutcome = 'sent' | 'retry' | 'failed';

const CHANNELS = new Set(['checkout_link', 'mpp', 'embed', 'acp']);

/** What the outbox looks like right now; sampled from the database when Prometheus scrapes. */
export interface OutboxSample {
  /** Rows still to deliver (`status = 'pending'`). */
  depth: number;
  /** Seconds since the oldest pending row was created; 0 when none. */
  oldestPendingAgeSec: number;
}

export interface Metrics {
  /** This process's registry: default Node metrics plus ours. Serve it with `metricsHandler` / `startMetricsServer`. */
  readonly registry: Registry;
  readonly httpRequestDuration: Histogram<'app' | 'method' | 'route' | 'status'>;
  gateDecision(outcome: GateOutcome): void;
  quoteCreated(source: QuoteSource): void;
  /** A quote's options became ready `lagSec` seconds after the quote was created. */
  optionsReady(lagSec: number): void;
  deliveryAttempt(outcome: DeliveryOutcome): void;
  /** A policyholder mail attempt (policy_mail_attempts_total). */
  policyMailAttempt(outcome: PolicyMailOutcome): void;
  /** An ACP order event attempt to an agent platform (acp_order_event_attempts_total). */
  acpOrderEventAttempt(outcome: DeliveryOutcome): void;
  /** A processor-reported payment result; unknown channels are counted as `other` (labels stay bounded). */
  paymentOutcome(channel: string | undefined, outcome: PaymentOutcome): void;
  /**
   * Registers the outbox gauges, filled by `sample` at scrape time (one call per scrape, shared by both gauges).
   * Only the dispatcher (or the launcher) calls this; a failing sample leaves the last values and is reported.
   */
  sampleOutbox(sample: () => Promise<OutboxSample>, onError?: (err: unknown) => void): void;
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
    help: 'policy.issued delivery attempts by outcome: delivered, retry (failed, will retry), failed (gave up).',
    labelNames: ['outcome'] as const,
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
    help: 'Payment results reported by the processor, by channel (checkout_link, mpp, embed, acp) and outcome.',
    labelNames: ['channel', 'outcome'] as const,
    registers,
  });
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
    deliveryAttempt: (outcome) => deliveries.inc({ outcome }),
    policyMailAttempt: (outcome) => policyMails.inc({ outcome }),
    acpOrderEventAttempt: (outcome) => acpOrderEvents.inc({ outcome }),
    paymentOutcome: (channel, outcome) => payments.inc({ channel: channel && CHANNELS.has(channel) ? channel : 'other', outcome }),
    sampleOutbox(sample, onError) {
      let inFlight: Promise<OutboxSample | null> | null = null;
      // Both gauges are collected concurrently on a scrape: they share one query.
      const shared = () =>
        (inFlight ??= sample()
          .catch((err: unknown) => {
            onError?.(err);
            return null;
          })
          .finally(() => setImmediate(() => (inFlight = null))));
      new Gauge({
        name: 'webhook_outbox_depth',
        help: 'policy.issued outbox rows still pending delivery (sampled from the database at scrape time).',
        registers,
        async collect() {
          const s = await shared();
          if (s) this.set(s.depth);
        },
      });
      new Gauge({
        name: 'webhook_outbox_oldest_pending_age_seconds',
        help: 'Age of the oldest pending outbox row in seconds, 0 when none (sampled at scrape time).',
        registers,
        async collect() {
          const s = await shared();
          if (s) this.set(s.oldestPendingAgeSec);
        },
      });
    },
  };
}
