import { ruleGroups, type AlertRule } from './rules';

/**
 * promtool unit tests of the alert rules (`promtool test rules`): synthetic series, an evaluation time, and the
 * alerts expected to fire then (none: the alert must stay quiet). Every alert has at least one case of each
 * (monitoring.spec.ts checks). generate.ts writes them to deploy/monitoring/alerts.test.yml, with the expected
 * annotations taken from the rule (its `$labels` filled in), since promtool compares them too.
 */
export interface AlertCase {
  name: string;
  alert: string;
  series: Array<{ series: string; values: string }>;
  evalTime: string;
  /** Labels of each alert expected to fire (besides `severity` and the rule's own labels, given here in full). */
  fires: Array<Record<string, string>>;
}

const count = (labels: string) => `http_request_duration_seconds_count{${labels}}`;
const bucket = (labels: string, le: string) => `http_request_duration_seconds_bucket{${labels},le="${le}"}`;

/** An availability SLO over `labels`: `errorsPerMin` 5xx out of 1000 requests a minute for 70 minutes. */
function availability(alert: string, slo: string, labels: string): AlertCase[] {
  const run = (errorsPerMin: number) => [
    { series: count(`${labels},status="200"`), values: `0+${1000 - errorsPerMin}x70` },
    { series: count(`${labels},status="500"`), values: `0+${errorsPerMin}x70` },
  ];
  return [
    {
      name: `${alert}: 5% errors for an hour pages (and opens a ticket)`,
      alert,
      series: run(50),
      evalTime: '65m',
      fires: [
        { severity: 'page', slo },
        { severity: 'ticket', slo },
      ],
    },
    {
      name: `${alert}: 0.5% errors opens a ticket and does not page`,
      alert,
      series: run(5),
      evalTime: '65m',
      fires: [{ severity: 'ticket', slo }],
    },
    { name: `${alert}: no errors is quiet`, alert, series: run(0), evalTime: '65m', fires: [] },
  ];
}

/** A latency SLO over `labels`: `slowPerMin` of 1000 requests a minute slower than 1 s. */
function latency(alert: string, slo: string, labels: string): AlertCase[] {
  const run = (slowPerMin: number) => [
    { series: count(`${labels},status="200"`), values: '0+1000x70' },
    { series: bucket(`${labels},status="200"`, '1'), values: `0+${1000 - slowPerMin}x70` },
  ];
  return [
    {
      name: `${alert}: 30% slower than 1 s pages`,
      alert,
      series: run(300),
      evalTime: '65m',
      fires: [
        { severity: 'page', slo },
        { severity: 'ticket', slo },
      ],
    },
    { name: `${alert}: everything within 1 s is quiet`, alert, series: run(0), evalTime: '65m', fires: [] },
  ];
}

/** An outcome-counter SLO: `failedPerMin` given up on out of 100 finished a minute. */
function outcomes(alert: string, slo: string, metric: string, good: string, failedPerMin: number): AlertCase[] {
  const run = (failed: number) => [
    {
      series: `${metric}{outcome="${good}"${metric.startsWith('webhook') ? ',operator="op_a"' : ''}}`,
      values: `0+${100 - failed}x70`,
    },
    {
      series: `${metric}{outcome="failed"${metric.startsWith('webhook') ? ',operator="op_a"' : ''}}`,
      values: `0+${failed}x70`,
    },
  ];
  return [
    {
      name: `${alert}: ${failedPerMin}% given up on pages`,
      alert,
      series: run(failedPerMin),
      evalTime: '65m',
      fires: [
        { severity: 'page', slo },
        { severity: 'ticket', slo },
      ],
    },
    { name: `${alert}: none given up on is quiet`, alert, series: run(0), evalTime: '65m', fires: [] },
  ];
}

/** A gauge held at `value` for 90 minutes. */
const gauge = (series: string, value: number) => [{ series, values: `${value}x90` }];

const EMBED = 'app="embed-api",method="POST",route="/api/embed/quote"';
const QUOTES = 'app="quote-api",method="POST",route="/api/v1/quotes"';
const INTAKE = 'app="webhook-dispatcher",method="POST",route="/processor/events|/stripe/webhook|/webhooks/processor"';
const CERTIFICATE = 'app="quote-api",method="GET",route="/api/v1/policies/:policyNumber/certificate.pdf"';

export const ALERT_CASES: readonly AlertCase[] = [
  ...availability('EmbedAvailabilityBudgetBurn', 'embed-availability', EMBED),
  ...latency('EmbedLatencyBudgetBurn', 'embed-latency', EMBED),
  ...availability('QuoteCreationAvailabilityBudgetBurn', 'quote-availability', QUOTES),
  ...latency('QuoteCreationLatencyBudgetBurn', 'quote-latency', QUOTES),
  ...availability('IntakeAvailabilityBudgetBurn', 'intake-availability', INTAKE),
  ...outcomes('PolicyIssuedDeliveryBudgetBurn', 'delivery', 'webhook_delivery_attempts_total', 'delivered', 20),
  ...outcomes('PolicyMailBudgetBurn', 'policy-mail', 'policy_mail_attempts_total', 'sent', 20),
  {
    name: 'health probes failing do not burn the embed availability budget',
    alert: 'EmbedAvailabilityBudgetBurn',
    series: [
      { series: count(`${EMBED},status="200"`), values: '0+1000x70' },
      { series: count('app="embed-api",method="GET",route="/readyz",status="503"'), values: '0+100x70' },
    ],
    evalTime: '65m',
    fires: [],
  },
  {
    name: 'outbox: oldest pending 700 s for 10 minutes pages',
    alert: 'WebhookOutboxStale',
    series: gauge('webhook_outbox_oldest_pending_age_seconds', 700),
    evalTime: '10m',
    fires: [{ severity: 'page' }],
  },
  {
    name: 'outbox: oldest pending 120 s is quiet',
    alert: 'WebhookOutboxStale',
    series: gauge('webhook_outbox_oldest_pending_age_seconds', 120),
    evalTime: '10m',
    fires: [],
  },
  {
    name: "deliveries: one operator's endpoint failing is named, a healthy one is not",
    alert: 'WebhookDeliveriesFailingForOperator',
    series: [
      { series: 'webhook_delivery_attempts_total{outcome="retry",operator="op_failing"}', values: '0+10x60' },
      { series: 'webhook_delivery_attempts_total{outcome="delivered",operator="op_failing"}', values: '0+1x60' },
      { series: 'webhook_delivery_attempts_total{outcome="delivered",operator="op_fine"}', values: '0+10x60' },
      { series: 'webhook_delivery_attempts_total{outcome="retry",operator="op_fine"}', values: '0+1x60' },
    ],
    evalTime: '40m',
    fires: [{ severity: 'ticket', operator: 'op_failing' }],
  },
  {
    name: 'deliveries: two failures out of two attempts are too few to alert',
    alert: 'WebhookDeliveriesFailingForOperator',
    series: [
      {
        series: 'webhook_delivery_attempts_total{outcome="retry",operator="op_quiet"}',
        values: '0 1 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2',
      },
    ],
    evalTime: '30m',
    fires: [],
  },
  {
    name: 'a payment without a policy pages',
    alert: 'PaymentsSucceededWithoutPolicy',
    series: gauge('payments_succeeded_without_policy', 1),
    evalTime: '5m',
    fires: [{ severity: 'page' }],
  },
  {
    name: 'no payment without a policy is quiet',
    alert: 'PaymentsSucceededWithoutPolicy',
    series: gauge('payments_succeeded_without_policy', 0),
    evalTime: '5m',
    fires: [],
  },
  {
    name: 'an ignored succeeded payment opens a ticket, by mode',
    alert: 'SucceededPaymentsIgnored',
    series: [
      { series: 'payment_fulfillments_total{result="ignored",mode="live"}', values: '0 0 0 1 1 1 1 1 1 1 1' },
      { series: 'payment_fulfillments_total{result="policy_issued",mode="test"}', values: '0+5x10' },
    ],
    evalTime: '10m',
    fires: [{ severity: 'ticket', mode: 'live' }],
  },
  {
    name: 'payments that became policies are quiet',
    alert: 'SucceededPaymentsIgnored',
    series: [{ series: 'payment_fulfillments_total{result="policy_issued",mode="live"}', values: '0+5x10' }],
    evalTime: '10m',
    fires: [],
  },
  {
    name: 'a refund pending for more than an hour opens a ticket',
    alert: 'RefundsPending',
    series: gauge('payment_refunds_pending', 1),
    evalTime: '70m',
    fires: [{ severity: 'ticket' }],
  },
  {
    name: 'a refund pending for 30 minutes is quiet',
    alert: 'RefundsPending',
    series: gauge('payment_refunds_pending', 1),
    evalTime: '30m',
    fires: [],
  },
  {
    name: 'a failed refund opens a ticket',
    alert: 'RefundsFailed',
    series: gauge('payment_refunds_failed', 1),
    evalTime: '1m',
    fires: [{ severity: 'ticket' }],
  },
  {
    name: 'a charge the reconciler found and recorded opens a ticket, by mode',
    alert: 'UnrecordedChargesFound',
    series: [{ series: 'payment_reconciliations_total{result="recorded",mode="live"}', values: '0 0 0 1+0x8' }],
    evalTime: '10m',
    fires: [{ severity: 'ticket', mode: 'live' }],
  },
  {
    name: 'chargeless attempts alone are quiet',
    alert: 'UnrecordedChargesFound',
    series: [{ series: 'payment_reconciliations_total{result="no_charge",mode="live"}', values: '0+5x10' }],
    evalTime: '10m',
    fires: [],
  },
  {
    name: 'attempts the processor cannot settle, again and again, open a ticket',
    alert: 'PaymentAttemptsUnresolved',
    series: [{ series: 'payment_reconciliations_total{result="in_flight",mode="test"}', values: '0+1x30' }],
    evalTime: '30m',
    fires: [{ severity: 'ticket', mode: 'test' }],
  },
  {
    name: 'an attempt settled after a few rounds is quiet',
    alert: 'PaymentAttemptsUnresolved',
    series: [{ series: 'payment_reconciliations_total{result="in_flight",mode="test"}', values: '0+1x3 3+0x30' }],
    evalTime: '30m',
    fires: [],
  },
  {
    name: 'no failed refund is quiet',
    alert: 'RefundsFailed',
    series: gauge('payment_refunds_failed', 0),
    evalTime: '1m',
    fires: [],
  },
  {
    name: 'a replica whose /readyz answers 503 is named',
    alert: 'ReadinessFailing',
    series: [
      {
        series: count('app="embed-api",method="GET",route="/readyz",status="503",instance="10.0.0.1:9464"'),
        values: '0+6x20',
      },
      {
        series: count('app="embed-api",method="GET",route="/readyz",status="200",instance="10.0.0.2:9464"'),
        values: '0+6x20',
      },
    ],
    evalTime: '15m',
    fires: [{ severity: 'ticket', app: 'embed-api', instance: '10.0.0.1:9464' }],
  },
  {
    name: 'one failed probe among many is quiet',
    alert: 'ReadinessFailing',
    series: [
      {
        series: count('app="embed-api",method="GET",route="/readyz",status="503",instance="10.0.0.1:9464"'),
        values: '0 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1',
      },
      {
        series: count('app="embed-api",method="GET",route="/readyz",status="200",instance="10.0.0.1:9464"'),
        values: '0+6x20',
      },
    ],
    evalTime: '15m',
    fires: [],
  },
  {
    name: 'a replica that cannot reach PostgreSQL pages',
    alert: 'DatabaseUnreachable',
    series: [
      { series: 'database_up{service="quote-api",instance="10.0.0.3:9464"}', values: '0x10' },
      { series: 'database_up{service="quote-api",instance="10.0.0.4:9464"}', values: '1x10' },
    ],
    evalTime: '5m',
    fires: [{ severity: 'page', service: 'quote-api', instance: '10.0.0.3:9464' }],
  },
  {
    name: 'a database that answers is quiet',
    alert: 'DatabaseUnreachable',
    series: gauge('database_up{service="quote-api",instance="10.0.0.3:9464"}', 1),
    evalTime: '5m',
    fires: [],
  },
  {
    name: 'Redis fallback for 8 minutes opens a ticket',
    alert: 'RedisFallbackActive',
    series: gauge('redis_fallback_active{service="embed-api",instance="10.0.0.5:9464"}', 1),
    evalTime: '8m',
    fires: [{ severity: 'ticket', service: 'embed-api' }],
  },
  {
    name: 'Redis reachable is quiet',
    alert: 'RedisFallbackActive',
    series: gauge('redis_fallback_active{service="embed-api",instance="10.0.0.5:9464"}', 0),
    evalTime: '8m',
    fires: [],
  },
  {
    name: 'certificate PDFs answering 500 open a ticket',
    alert: 'PolicyDocumentFailures',
    series: [{ series: count(`${CERTIFICATE},status="500"`), values: '0+1x20' }],
    evalTime: '10m',
    fires: [{ severity: 'ticket', route: '/api/v1/policies/:policyNumber/certificate.pdf' }],
  },
  {
    name: 'certificates served and 500s elsewhere are quiet',
    alert: 'PolicyDocumentFailures',
    series: [
      { series: count(`${CERTIFICATE},status="200"`), values: '0+10x20' },
      { series: count(`${QUOTES},status="500"`), values: '0+1x20' },
    ],
    evalTime: '10m',
    fires: [],
  },
  {
    name: 'a confirmation e-mail given up on opens a ticket',
    alert: 'PolicyMailsFailing',
    series: [{ series: 'policy_mail_attempts_total{outcome="failed"}', values: '0 0 0 1 1 1 1 1 1 1 1' }],
    evalTime: '10m',
    fires: [{ severity: 'ticket' }],
  },
  {
    name: 'mails retried and then sent are quiet',
    alert: 'PolicyMailsFailing',
    series: [
      { series: 'policy_mail_attempts_total{outcome="retry"}', values: '0+1x10' },
      { series: 'policy_mail_attempts_total{outcome="sent"}', values: '0+5x10' },
    ],
    evalTime: '10m',
    fires: [],
  },
  {
    name: 'a mail pending for 11000 s opens a ticket',
    alert: 'PolicyMailOutboxStale',
    series: gauge('policy_mail_oldest_pending_age_seconds', 11000),
    evalTime: '15m',
    fires: [{ severity: 'ticket' }],
  },
  {
    name: 'a mail pending for an hour (being retried) is quiet',
    alert: 'PolicyMailOutboxStale',
    series: gauge('policy_mail_oldest_pending_age_seconds', 3600),
    evalTime: '15m',
    fires: [],
  },
];

const fill = (template: string, labels: Record<string, string>) =>
  template.replace(/\{\{ \$labels\.(\w+) \}\}/g, (_, name: string) => labels[name] ?? '');

/** The promtool test file of ALERT_CASES. */
export function promtoolTests(rulesFile: string): Record<string, unknown> {
  const rules = ruleGroups()
    .flatMap((g) => g.rules)
    .filter((r): r is AlertRule => 'alert' in r);
  const ruleFor = (alert: string, severity: string) => {
    const rule = rules.find((r) => r.alert === alert && r.labels.severity === severity);
    if (!rule) throw new Error(`no rule ${alert} with severity ${severity}`);
    return rule;
  };
  return {
    rule_files: [rulesFile],
    evaluation_interval: '1m',
    tests: ALERT_CASES.map((c) => ({
      name: c.name,
      interval: '1m',
      input_series: c.series,
      alert_rule_test: [
        {
          eval_time: c.evalTime,
          alertname: c.alert,
          exp_alerts: c.fires.map((labels) => {
            const rule = ruleFor(c.alert, labels['severity'] ?? '');
            const all = { ...rule.labels, ...labels };
            return {
              exp_labels: all,
              exp_annotations: Object.fromEntries(Object.entries(rule.annotations).map(([k, v]) => [k, fill(v, all)])),
            };
          }),
        },
      ],
    })),
  };
}
