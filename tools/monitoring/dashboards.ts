import { NOT_PROBES, SLOS, errorRatio } from './slos';

/**
 * The Grafana dashboards shipped with the manifests: one per app and the money path (quotes → payments → policies →
 * deliveries, by mode). Written as data here and generated into JSON (generate.ts), so every panel's query is a
 * string a test can parse with promtool and check against the metrics the apps really serve.
 */

export interface Target {
  expr: string;
  legendFormat: string;
}

export interface Panel {
  title: string;
  description?: string;
  unit?: string;
  kind?: 'timeseries' | 'stat';
  targets: Target[];
}

export interface Dashboard {
  /** File name (without .json) and Grafana uid. */
  uid: string;
  title: string;
  description: string;
  panels: Panel[];
}

/** The Grafana dashboard JSON model version these files are written for (Grafana 10/11). */
export const SCHEMA_VERSION = 39;

const t = (expr: string, legendFormat = '__auto'): Target => ({ expr, legendFormat });

function httpPanels(app: string): Panel[] {
  const sel = `app="${app}",${NOT_PROBES}`;
  return [
    {
      title: 'Requests per second by route and status',
      unit: 'reqps',
      targets: [
        t(`sum by (route, status) (rate(http_request_duration_seconds_count{${sel}}[5m]))`, '{{route}} {{status}}'),
      ],
    },
    {
      title: 'Share of 5xx answers',
      unit: 'percentunit',
      targets: [
        t(
          `sum(rate(http_request_duration_seconds_count{${sel},status=~"5.."}[5m])) / sum(rate(http_request_duration_seconds_count{${sel}}[5m]))`,
          '5xx',
        ),
      ],
    },
    {
      title: 'Latency p50 / p95 / p99',
      unit: 's',
      targets: [0.5, 0.95, 0.99].map((q) =>
        t(
          `histogram_quantile(${q}, sum by (le) (rate(http_request_duration_seconds_bucket{${sel}}[5m])))`,
          `p${Math.round(q * 100)}`,
        ),
      ),
    },
    {
      title: 'p95 latency by route',
      unit: 's',
      targets: [
        t(
          `histogram_quantile(0.95, sum by (le, route) (rate(http_request_duration_seconds_bucket{${sel}}[5m])))`,
          '{{route}}',
        ),
      ],
    },
    {
      title: 'Readiness probes answered 503, by replica',
      unit: 'reqps',
      targets: [
        t(
          `sum by (instance) (rate(http_request_duration_seconds_count{app="${app}",route="/readyz",status="503"}[5m]))`,
          '{{instance}}',
        ),
      ],
    },
    {
      title: 'Database reachable (database_up), by replica',
      kind: 'stat',
      targets: [t(`min by (instance) (database_up{service="${app}"})`, '{{instance}}')],
    },
  ];
}

function processPanels(app: string): Panel[] {
  return [
    {
      title: 'Event-loop lag p99',
      unit: 's',
      targets: [t(`max by (instance) (nodejs_eventloop_lag_p99_seconds{service="${app}"})`, '{{instance}}')],
    },
    {
      title: 'Resident memory',
      unit: 'bytes',
      targets: [t(`max by (instance) (process_resident_memory_bytes{service="${app}"})`, '{{instance}}')],
    },
    {
      title: 'CPU',
      unit: 'percentunit',
      targets: [t(`sum by (instance) (rate(process_cpu_seconds_total{service="${app}"}[5m]))`, '{{instance}}')],
    },
  ];
}

function sloPanel(ids: string[]): Panel[] {
  if (ids.length === 0) return [];
  const slos = SLOS.filter((s) => ids.includes(s.id));
  return [
    {
      title: 'SLO error ratio over 1 h (budget: 1 - target)',
      unit: 'percentunit',
      description: slos.map((s) => `${s.id}: ${s.objective}`).join('; '),
      targets: slos.map((s) => t(`${errorRatio('1h')}{slo="${s.id}"}`, s.id)),
    },
  ];
}

function appDashboard(app: string, title: string, description: string, slos: string[], specific: Panel[]): Dashboard {
  return {
    uid: `expedition-${app}`,
    title,
    description,
    panels: [...sloPanel(slos), ...specific, ...httpPanels(app), ...processPanels(app)],
  };
}

const moneyPath: Dashboard = {
  uid: 'expedition-money-path',
  title: 'Expedition · money path',
  description:
    'Quotes → payments → policies → deliveries and mails, by mode where the metric has it (docs/operations.md).',
  panels: [
    {
      title: 'Quotes created per minute, by channel',
      unit: 'short',
      targets: [t('sum by (source) (rate(quotes_created_total[5m])) * 60', '{{source}}')],
    },
    {
      title: 'Payments per minute, by mode and outcome',
      unit: 'short',
      targets: [t('sum by (mode, outcome) (rate(payment_outcomes_total[5m])) * 60', '{{mode}} {{outcome}}')],
    },
    {
      title: 'Succeeded payments became …, by mode',
      description:
        'policy_issued + already_recorded = policies; refund_pending = money going back; ignored = nothing (alert).',
      unit: 'short',
      targets: [t('sum by (mode, result) (rate(payment_fulfillments_total[5m])) * 60', '{{mode}} {{result}}')],
    },
    {
      title: 'Payments by channel',
      unit: 'short',
      targets: [t('sum by (channel) (rate(payment_outcomes_total{outcome="succeeded"}[5m])) * 60', '{{channel}}')],
    },
    {
      title: 'policy.issued delivery attempts per minute, by outcome',
      unit: 'short',
      targets: [t('sum by (outcome) (rate(webhook_delivery_attempts_total[5m])) * 60', '{{outcome}}')],
    },
    {
      title: 'Confirmation e-mails per minute, by outcome',
      unit: 'short',
      targets: [t('sum by (outcome) (rate(policy_mail_attempts_total[5m])) * 60', '{{outcome}}')],
    },
    {
      title: 'Oldest pending: webhook outbox and mail outbox',
      unit: 's',
      targets: [
        t('max(webhook_outbox_oldest_pending_age_seconds)', 'webhooks'),
        t('max(policy_mail_oldest_pending_age_seconds)', 'mails'),
      ],
    },
    {
      title: 'Money without cover and refunds',
      kind: 'stat',
      targets: [
        t('max(payments_succeeded_without_policy)', 'succeeded without a policy (> 10 min)'),
        t('max(payment_refunds_pending)', 'refunds pending'),
        t('max(payment_refunds_failed)', 'refunds failed'),
      ],
    },
    {
      title: 'SLO error ratios over 1 h',
      unit: 'percentunit',
      targets: SLOS.map((s) => t(`${errorRatio('1h')}{slo="${s.id}"}`, s.id)),
    },
  ],
};

export function dashboards(): Dashboard[] {
  return [
    moneyPath,
    appDashboard(
      'quote-api',
      'Expedition · quote-api',
      'Public REST API, MCP, ACP, checkout pages and policy documents.',
      ['quote-availability', 'quote-latency'],
      [
        {
          title: 'Quotes created per minute, by channel',
          unit: 'short',
          targets: [t('sum by (source) (rate(quotes_created_total{source=~"api|mcp|acp"}[5m])) * 60', '{{source}}')],
        },
        {
          title: 'Policy PDFs answered 5xx',
          unit: 'short',
          targets: [
            t(
              'sum by (route) (increase(http_request_duration_seconds_count{app="quote-api",route=~".*\\\\.pdf",status=~"5.."}[15m]))',
              '{{route}}',
            ),
          ],
        },
        {
          title: 'Redis fallback active',
          kind: 'stat',
          targets: [t('max(redis_fallback_active{service="quote-api"})', 'fallback')],
        },
      ],
    ),
    appDashboard(
      'embed-api',
      'Expedition · embed-api',
      'The embed gate, quotes and Tier 3 payments of the widget.',
      ['embed-availability', 'embed-latency'],
      [
        {
          title: 'Embed gate decisions per minute',
          unit: 'short',
          targets: [t('sum by (outcome) (rate(embed_gate_decisions_total[5m])) * 60', '{{outcome}}')],
        },
        {
          title: 'Quote options ready: p50 / p95 after creation',
          unit: 's',
          targets: [0.5, 0.95].map((q) =>
            t(
              `histogram_quantile(${q}, sum by (le) (rate(quote_options_lag_seconds_bucket[5m])))`,
              `p${Math.round(q * 100)}`,
            ),
          ),
        },
        {
          title: 'Redis fallback active',
          kind: 'stat',
          targets: [t('max(redis_fallback_active{service="embed-api"})', 'fallback')],
        },
      ],
    ),
    appDashboard(
      'webhook-dispatcher',
      'Expedition · webhook-dispatcher',
      'Processor intake, policy.issued deliveries, confirmation e-mails, refunds.',
      ['intake-availability', 'delivery', 'policy-mail'],
      [
        {
          title: 'Delivery attempts failing, by operator',
          unit: 'short',
          targets: [
            t(
              'sum by (operator) (rate(webhook_delivery_attempts_total{outcome=~"retry|failed"}[5m])) * 60',
              '{{operator}}',
            ),
          ],
        },
        {
          title: 'Outbox depth: webhooks and mails',
          unit: 'short',
          targets: [t('max(webhook_outbox_depth)', 'webhooks'), t('max(policy_mail_outbox_depth)', 'mails')],
        },
        {
          title: 'Payments reported by the processor, per minute',
          unit: 'short',
          targets: [t('sum by (channel, outcome) (rate(payment_outcomes_total[5m])) * 60', '{{channel}} {{outcome}}')],
        },
        {
          title: 'Refunds and money without a policy',
          kind: 'stat',
          targets: [
            t('max(payment_refunds_pending)', 'pending'),
            t('max(payment_refunds_failed)', 'failed'),
            t('max(payments_succeeded_without_policy)', 'without policy'),
          ],
        },
      ],
    ),
    appDashboard(
      'widget-iframe',
      'Expedition · widget-iframe',
      'The widget frame, the hosted quote page and the pinned loader releases.',
      [],
      [],
    ),
    appDashboard(
      'operator-portal',
      'Expedition · operator-portal',
      "Operators' portal: sign-in, keys, webhooks, policies.",
      [],
      [
        {
          title: 'Redis fallback active (log-in throttles per replica)',
          kind: 'stat',
          targets: [t('max(redis_fallback_active{service="operator-portal"})', 'fallback')],
        },
      ],
    ),
  ];
}

/** The Grafana JSON model of a dashboard: panels two to a row, the Prometheus data source chosen by a variable. */
export function dashboardJson(d: Dashboard): Record<string, unknown> {
  const datasource = { type: 'prometheus', uid: '${datasource}' };
  return {
    uid: d.uid,
    title: d.title,
    description: d.description,
    tags: ['expedition'],
    schemaVersion: SCHEMA_VERSION,
    version: 1,
    editable: true,
    timezone: 'utc',
    refresh: '1m',
    time: { from: 'now-6h', to: 'now' },
    templating: {
      list: [
        { name: 'datasource', label: 'Prometheus', type: 'datasource', query: 'prometheus', current: {}, hide: 0 },
      ],
    },
    annotations: { list: [] },
    links: [],
    panels: d.panels.map((p, i) => ({
      id: i + 1,
      type: p.kind ?? 'timeseries',
      title: p.title,
      ...(p.description ? { description: p.description } : {}),
      datasource,
      gridPos: { h: 8, w: 12, x: (i % 2) * 12, y: Math.floor(i / 2) * 8 },
      fieldConfig: { defaults: { unit: p.unit ?? 'short' }, overrides: [] },
      options: {},
      targets: p.targets.map((target, j) => ({
        datasource,
        expr: target.expr,
        legendFormat: target.legendFormat,
        refId: String.fromCharCode(65 + j),
      })),
    })),
  };
}
