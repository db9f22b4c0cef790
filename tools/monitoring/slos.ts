/**
 * The service level objectives of docs/operations.md, as data: each SLI is an error ratio (bad events / all events)
 * over a window. The alert rules (rules.ts) and the dashboards (dashboards.ts) are generated from this one list.
 */

/** Health probes are not traffic: kubelet's /readyz and /healthz calls never count towards an SLO. */
export const NOT_PROBES = 'route!~"/healthz|/readyz"';

export interface Slo {
  /** Label value `slo` of the recording rules and alerts (kebab-case). */
  id: string;
  /** Prefix of the alert name: `<alert>BudgetBurn`. */
  alert: string;
  /** What is promised, in one sentence (alert summary, dashboards). */
  objective: string;
  /** Target share of good events over 30 days, e.g. 0.999. */
  target: number;
  /** Rate of bad events over the window `[W]` (the literal `$W` is replaced). */
  bad: string;
  /** Rate of all events over the window. */
  total: string;
}

const http = (selector: string) => `http_request_duration_seconds_count{${selector}}`;
const rate = (series: string) => `sum(rate(${series}[$W]))`;

const EMBED = `app="embed-api",${NOT_PROBES}`;
const QUOTE = `app="quote-api",route="/api/v1/quotes",method="POST"`;
const INTAKE = `app="webhook-dispatcher",route=~".*/processor/events.*"`;

export const SLOS: readonly Slo[] = [
  {
    id: 'embed-availability',
    alert: 'EmbedAvailability',
    objective: '99.9% of embed API requests answer without a 5xx',
    target: 0.999,
    bad: rate(http(`${EMBED},status=~"5.."`)),
    total: rate(http(EMBED)),
  },
  {
    id: 'embed-latency',
    alert: 'EmbedLatency',
    objective: '99% of embed API requests answer within 1 s',
    target: 0.99,
    bad: `(${rate(http(EMBED))} - ${rate(`http_request_duration_seconds_bucket{${EMBED},le="1"}`)})`,
    total: rate(http(EMBED)),
  },
  {
    id: 'quote-availability',
    alert: 'QuoteCreationAvailability',
    objective: '99.9% of POST /api/v1/quotes answer without a 5xx',
    target: 0.999,
    bad: rate(http(`${QUOTE},status=~"5.."`)),
    total: rate(http(QUOTE)),
  },
  {
    id: 'quote-latency',
    alert: 'QuoteCreationLatency',
    objective: '99% of POST /api/v1/quotes answer within 1 s',
    target: 0.99,
    bad: `(${rate(http(QUOTE))} - ${rate(`http_request_duration_seconds_bucket{${QUOTE},le="1"}`)})`,
    total: rate(http(QUOTE)),
  },
  {
    id: 'intake-availability',
    alert: 'IntakeAvailability',
    objective: "99.9% of the processor's payment events are accepted without a 5xx",
    target: 0.999,
    bad: rate(http(`${INTAKE},status=~"5.."`)),
    total: rate(http(INTAKE)),
  },
  {
    id: 'delivery',
    alert: 'PolicyIssuedDelivery',
    objective: '99% of policy.issued events end delivered, not failed after every attempt',
    target: 0.99,
    bad: rate('webhook_delivery_attempts_total{outcome="failed"}'),
    total: rate('webhook_delivery_attempts_total{outcome=~"delivered|failed"}'),
  },
  {
    id: 'policy-mail',
    alert: 'PolicyMail',
    objective: "99% of policyholders' confirmation e-mails end sent, not failed after every attempt",
    target: 0.99,
    bad: rate('policy_mail_attempts_total{outcome="failed"}'),
    total: rate('policy_mail_attempts_total{outcome=~"sent|failed"}'),
  },
];

/**
 * Multi-window, multi-burn-rate alerts (Google SRE workbook, ch. 5): a long window says the budget is really
 * burning, a short one (1/12 of it) that it still is. 14.4x for 1 h or 6x for 6 h spends 2% / 5% of a 30-day budget:
 * page. 3x for a day or 1x for 3 days: a ticket.
 */
export const BURN_RATES = [
  { severity: 'page', long: '1h', short: '5m', factor: 14.4 },
  { severity: 'page', long: '6h', short: '30m', factor: 6 },
  { severity: 'ticket', long: '1d', short: '2h', factor: 3 },
  { severity: 'ticket', long: '3d', short: '6h', factor: 1 },
] as const;

export const WINDOWS = ['5m', '30m', '1h', '2h', '6h', '1d', '3d'] as const;

/** The recording rule holding an SLO's error ratio over a window. */
export const errorRatio = (window: string) => `slo:sli_error:ratio_rate${window}`;
