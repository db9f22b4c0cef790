import { BURN_RATES, NOT_PROBES, SLOS, WINDOWS, errorRatio, type Slo } from './slos';

/**
 * The Prometheus rules shipped with the manifests (docs/operations.md): recording rules for every SLO's error ratio,
 * the multi-window multi-burn-rate alerts on them, and direct alerts on states no ratio shows (a stale outbox, money
 * without a policy, a database that does not answer …). Written out by generate.ts as a plain rules file and as a
 * PrometheusRule; every alert's `runbook_url` names its section of docs/runbooks.md.
 */

export interface RecordingRule {
  record: string;
  expr: string;
  labels?: Record<string, string>;
}

export interface AlertRule {
  alert: string;
  expr: string;
  for?: string;
  labels: { severity: 'page' | 'ticket' } & Record<string, string>;
  annotations: { summary: string; description: string; runbook_url: string };
}

export interface RuleGroup {
  name: string;
  interval?: string;
  rules: Array<RecordingRule | AlertRule>;
}

/** Where the runbooks live: a path in this repository (docs/runbooks.md), one section per alert. */
export const RUNBOOKS = 'docs/runbooks.md';

/** GitHub's anchor of a runbook heading `## AlertName`: the alert name in lower case. */
export const runbookAnchor = (alert: string) => alert.toLowerCase();

const runbook = (alert: string) => `${RUNBOOKS}#${runbookAnchor(alert)}`;

function sloRecordingRules(slo: Slo): RecordingRule[] {
  return WINDOWS.map((w) => ({
    record: errorRatio(w),
    expr: `${slo.bad.replaceAll('$W', w)}\n/\n${slo.total.replaceAll('$W', w)}`,
    labels: { slo: slo.id },
  }));
}

function sloAlerts(slo: Slo): AlertRule[] {
  const budget = Number((1 - slo.target).toFixed(6));
  const alert = `${slo.alert}BudgetBurn`;
  return (['page', 'ticket'] as const).map((severity) => {
    const pairs = BURN_RATES.filter((b) => b.severity === severity).map(
      (b) =>
        `(${errorRatio(b.long)}{slo="${slo.id}"} > (${b.factor} * ${budget}) and ${errorRatio(b.short)}{slo="${slo.id}"} > (${b.factor} * ${budget}))`,
    );
    const windows = BURN_RATES.filter((b) => b.severity === severity)
      .map((b) => `${b.factor}x over ${b.long}`)
      .join(' or ');
    return {
      alert,
      expr: pairs.join('\nor\n'),
      labels: { severity, slo: slo.id },
      annotations: {
        summary: `${slo.objective}: the error budget is burning (${windows})`,
        description: `The ${slo.id} SLO allows ${Number((budget * 100).toFixed(4))}% bad events over 30 days; at this rate the budget runs out early. Dashboard: Expedition · money path, SLO error ratios.`,
        runbook_url: runbook(alert),
      },
    };
  });
}

const direct = (a: Omit<AlertRule, 'annotations'> & { summary: string; description: string }): AlertRule => ({
  alert: a.alert,
  expr: a.expr,
  ...(a.for ? { for: a.for } : {}),
  labels: a.labels,
  annotations: { summary: a.summary, description: a.description, runbook_url: runbook(a.alert) },
});

/** States that no error ratio shows. Thresholds are explained in docs/operations.md. */
export const DIRECT_ALERTS: readonly AlertRule[] = [
  direct({
    alert: 'WebhookOutboxStale',
    expr: 'max(webhook_outbox_oldest_pending_age_seconds) > 600',
    for: '5m',
    labels: { severity: 'page' },
    summary: 'A policy.issued event has waited more than 10 minutes to be delivered',
    description:
      'webhook_outbox_oldest_pending_age_seconds has been above 600 s for 5 minutes: deliveries are stuck or failing.',
  }),
  direct({
    alert: 'WebhookDeliveriesFailingForOperator',
    expr: [
      'sum by (operator) (rate(webhook_delivery_attempts_total{outcome=~"retry|failed"}[30m]))',
      '/ sum by (operator) (rate(webhook_delivery_attempts_total[30m])) > 0.5',
      'and sum by (operator) (increase(webhook_delivery_attempts_total[30m])) >= 5',
    ].join('\n'),
    for: '15m',
    labels: { severity: 'ticket' },
    summary: "More than half of the policy.issued deliveries to one operator's webhook fail",
    description: 'Operator {{ $labels.operator }}: more than half of at least 5 attempts in 30 minutes failed.',
  }),
  direct({
    alert: 'PaymentsSucceededWithoutPolicy',
    expr: 'max(payments_succeeded_without_policy) > 0',
    for: '1m',
    labels: { severity: 'page' },
    summary: 'Money was taken more than 10 minutes ago and neither a policy nor a refund exists for it',
    description: 'payments_succeeded_without_policy is above 0: a succeeded payment has neither a policy nor a refund.',
  }),
  direct({
    alert: 'SucceededPaymentsIgnored',
    expr: 'sum by (mode) (increase(payment_fulfillments_total{result="ignored"}[1h])) > 0',
    labels: { severity: 'ticket' },
    summary: 'A succeeded payment reported by the processor became nothing (unknown quote or plan, untrusted event)',
    description: 'At least one succeeded {{ $labels.mode }} payment event was ignored in the last hour.',
  }),
  direct({
    alert: 'UnrecordedChargesFound',
    expr: 'sum by (mode) (increase(payment_reconciliations_total{result=~"recorded|refunded"}[1h])) > 0',
    labels: { severity: 'ticket' },
    summary: 'The reconciler found a charge no record of ours held (a crash mid-payment, or a lost processor event)',
    description:
      'In the last hour the reconciler recorded or refunded at least one {{ $labels.mode }} charge that only the processor knew of.',
  }),
  direct({
    alert: 'PaymentAttemptsUnresolved',
    expr: 'sum by (mode) (increase(payment_reconciliations_total{result="in_flight"}[30m])) > 5',
    labels: { severity: 'ticket' },
    summary: 'Unfinished payment attempts stay unresolved: the processor does not say what they charged',
    description:
      'The reconciler met more than 5 {{ $labels.mode }} attempts in 30 minutes whose charge it could not settle (processor unreachable or still processing).',
  }),
  direct({
    alert: 'RefundsPending',
    expr: 'max(payment_refunds_pending) > 0',
    for: '1h',
    labels: { severity: 'ticket' },
    summary: 'A refund has been pending for more than an hour',
    description: 'payment_refunds_pending has been above 0 for an hour; the refund worker retries pending refunds.',
  }),
  direct({
    alert: 'RefundsFailed',
    expr: 'max(payment_refunds_failed) > 0',
    labels: { severity: 'ticket' },
    summary: 'A refund was given up on: a person must return the money',
    description: 'payment_refunds_failed is above 0: a refund failed for good.',
  }),
  direct({
    alert: 'ReadinessFailing',
    expr: [
      `sum by (app, instance) (rate(http_request_duration_seconds_count{route="/readyz",status="503"}[5m]))`,
      `/ sum by (app, instance) (rate(http_request_duration_seconds_count{route="/readyz"}[5m])) > 0.5`,
    ].join('\n'),
    for: '5m',
    labels: { severity: 'ticket' },
    summary: 'A replica answers /readyz with 503: it gets no traffic',
    description:
      '{{ $labels.app }} at {{ $labels.instance }}: more than half of its readiness probes answered 503 for 5 minutes.',
  }),
  direct({
    alert: 'DatabaseUnreachable',
    expr: 'database_up == 0',
    for: '2m',
    labels: { severity: 'page' },
    summary: 'PostgreSQL does not answer a ping within 2 s',
    description: '{{ $labels.service }} at {{ $labels.instance }} cannot reach PostgreSQL: its requests answer 503.',
  }),
  direct({
    alert: 'RedisFallbackActive',
    expr: 'max by (service) (redis_fallback_active) == 1',
    for: '5m',
    labels: { severity: 'ticket' },
    summary: 'Redis is unreachable: rate limits and log-in throttles count per replica',
    description: '{{ $labels.service }} has counted limits per replica for 5 minutes (up to replicas x the limit).',
  }),
  direct({
    alert: 'PolicyDocumentFailures',
    expr: `sum by (route) (increase(http_request_duration_seconds_count{app="quote-api",route=~".*\\\\.pdf",status=~"5.."}[15m])) > 0`,
    for: '5m',
    labels: { severity: 'ticket' },
    summary: 'Policy certificates or wording PDFs fail to render',
    description: 'PDF requests on {{ $labels.route }} answered 5xx in the last 15 minutes.',
  }),
  direct({
    alert: 'PolicyMailsFailing',
    expr: 'sum(increase(policy_mail_attempts_total{outcome="failed"}[1h])) > 0',
    labels: { severity: 'ticket' },
    summary: "A policyholder's confirmation e-mail failed after every attempt",
    description: 'At least one confirmation e-mail was given up on in the last hour.',
  }),
  direct({
    alert: 'PolicyMailOutboxStale',
    expr: 'max(policy_mail_oldest_pending_age_seconds) > 10800',
    for: '10m',
    labels: { severity: 'ticket' },
    summary: 'A confirmation e-mail has waited more than 3 hours to be sent (longer than its whole retry schedule)',
    description:
      'policy_mail_oldest_pending_age_seconds has been above 10800 s for 10 minutes: mail workers are not draining the outbox.',
  }),
];

export function ruleGroups(): RuleGroup[] {
  return [
    { name: 'expedition-slo-recording', interval: '1m', rules: SLOS.flatMap(sloRecordingRules) },
    { name: 'expedition-slo-alerts', rules: SLOS.flatMap(sloAlerts) },
    { name: 'expedition-direct-alerts', rules: [...DIRECT_ALERTS] },
  ];
}

/** Every alert name, once (the burn-rate alerts have a page and a ticket rule under one name). */
export function alertNames(groups: RuleGroup[] = ruleGroups()): string[] {
  return [...new Set(groups.flatMap((g) => g.rules).flatMap((r) => ('alert' in r ? [r.alert] : [])))];
}

export { NOT_PROBES };
