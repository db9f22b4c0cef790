import { dashboards } from './dashboards';
import { ruleGroups } from './rules';

// Words of PromQL that are not metric names: aggregations, functions (always followed by "("), keywords.
const KEYWORDS = new Set([
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'bool',
  'and',
  'or',
  'unless',
  'offset',
  'inf',
  'nan',
]);

/**
 * The metric names an expression selects: identifiers outside label matchers `{…}`, strings, ranges `[…]` and
 * grouping lists `by (…)`, that are not function calls or keywords. Recording rules (names with a colon) are left
 * out: they are defined by the rules, not served by the apps.
 */
export function metricNames(expr: string): string[] {
  const stripped = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ');
  const names = new Set<string>();
  for (const m of stripped.matchAll(/[a-zA-Z_:][a-zA-Z0-9_:]*/g)) {
    const word = m[0];
    const after = stripped.slice((m.index ?? 0) + word.length).trimStart();
    if (after.startsWith('(') || KEYWORDS.has(word.toLowerCase()) || word.includes(':')) continue;
    names.add(word);
  }
  return [...names];
}

/** Every expression of the shipped rules and dashboards, with where it comes from. */
export function shippedExpressions(): Array<{ where: string; expr: string }> {
  const rules = ruleGroups().flatMap((g) =>
    g.rules.map((r) => ({ where: `rule ${'alert' in r ? r.alert : r.record} (${g.name})`, expr: r.expr })),
  );
  const panels = dashboards().flatMap((d) =>
    d.panels.flatMap((p) => p.targets.map((t) => ({ where: `dashboard ${d.uid} › ${p.title}`, expr: t.expr }))),
  );
  return [...rules, ...panels];
}

/** Metric name → where it is used, over every shipped rule and dashboard. */
export function referencedMetrics(): Map<string, string[]> {
  const used = new Map<string, string[]>();
  for (const { where, expr } of shippedExpressions()) {
    for (const name of metricNames(expr)) used.set(name, [...(used.get(name) ?? []), where]);
  }
  return used;
}

/** The metric families a /metrics body declares (`# TYPE name type`), with histograms' series names. */
export function servedMetrics(metricsText: string): Set<string> {
  const served = new Set<string>();
  for (const m of metricsText.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    const [, name = '', type] = m;
    served.add(name);
    if (type === 'histogram' || type === 'summary')
      for (const suffix of ['_bucket', '_sum', '_count']) served.add(name + suffix);
  }
  return served;
}
