import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse, parseAllDocuments, stringify } from 'yaml';
import { noteSkippedSuite, servicesRequired } from '@expedition/platform/testing';
import { headingAnchors } from '../checks/check-links';
import { ALERT_CASES } from './alert-tests';
import { SCHEMA_VERSION, dashboards } from './dashboards';
import {
  COMPONENT_DIR,
  DASHBOARDS_DIR,
  PROMETHEUS_RULE_FILE,
  ROOT,
  RULES_FILE,
  RULE_TESTS_FILE,
  generatedFiles,
} from './generate';
import { metricNames, referencedMetrics, servedMetrics, shippedExpressions } from './promql';
import { RUNBOOKS, alertNames, ruleGroups, runbookAnchor } from './rules';

/**
 * Issue 25: the alert rules, their unit tests and the dashboards shipped with the manifests. promtool (Debian's
 * `prometheus` package) checks and unit-tests the rules and parses every dashboard query; without it those suites
 * are skipped with the reason (REQUIRE_SERVICES=1, as in CI, makes that a failure). That every metric named here is
 * served by the apps is tools/e2e/monitoring-metrics.e2e.spec.ts.
 */
const PROMTOOL = process.env['PROMTOOL'] || 'promtool';
const promtoolVersion = spawnSync(PROMTOOL, ['--version'], { encoding: 'utf8' });
const promtoolMissing = promtoolVersion.status !== 0;
const kubectl = process.env['KUBECTL'] || 'kubectl';
const kubectlMissing = spawnSync(kubectl, ['version', '--client'], { encoding: 'utf8' }).status !== 0;

function needs(tool: string, missing: boolean, why: string): jest.Describe {
  if (!missing) return describe;
  const reason = `${tool} not found: ${why}`;
  if (servicesRequired()) throw new Error(`REQUIRE_SERVICES=1 but ${reason}`);
  noteSkippedSuite(reason);
  return describe.skip;
}

const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

function promtool(args: string[], cwd = ROOT) {
  const result = spawnSync(PROMTOOL, args, { cwd, encoding: 'utf8' });
  return { ok: result.status === 0, output: `${result.stdout}${result.stderr}` };
}

/** `promtool check rules` of expressions: each becomes a recording rule of a temporary file. */
function checkExpressions(exprs: string[]) {
  const dir = mkdtempSync(path.join(tmpdir(), 'expedition-promql-'));
  try {
    const file = path.join(dir, 'expressions.rules.yml');
    writeFileSync(
      file,
      stringify({
        groups: [{ name: 'parse', rules: exprs.map((expr, i) => ({ record: `parse:expression_${i}`, expr })) }],
      }),
    );
    return promtool(['check', 'rules', file]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('generated monitoring files', () => {
  it.each(Object.keys(generatedFiles()))(
    '%s is what tools/monitoring/generate.ts writes (npm run monitoring:generate)',
    (file) => {
      expect(read(file)).toBe(generatedFiles()[file]);
    },
  );

  it('the PrometheusRule carries exactly the groups of the plain rules file', () => {
    const plain = parse(read(RULES_FILE)) as { groups: unknown };
    const crd = parse(read(PROMETHEUS_RULE_FILE)) as { kind: string; spec: { groups: unknown } };
    expect(crd.kind).toBe('PrometheusRule');
    expect(crd.spec.groups).toEqual(plain.groups);
  });
});

describe('alerts', () => {
  const names = alertNames();

  it('every alert has a runbook_url naming an existing section of docs/runbooks.md', () => {
    const anchors = headingAnchors(read(RUNBOOKS));
    const rules = ruleGroups()
      .flatMap((g) => g.rules)
      .filter((r) => 'alert' in r);
    const broken = rules.flatMap((r) => {
      const url = 'annotations' in r ? r.annotations.runbook_url : '';
      return url === `${RUNBOOKS}#${runbookAnchor(r.alert)}` && anchors.has(runbookAnchor(r.alert))
        ? []
        : [`${r.alert}: ${url}`];
    });
    expect(broken).toEqual([]);
    expect(names.length).toBeGreaterThanOrEqual(15);
  });

  it('every alert has a unit test where it fires and one where it stays quiet', () => {
    const fires = new Set(ALERT_CASES.filter((c) => c.fires.length > 0).map((c) => c.alert));
    const quiet = new Set(ALERT_CASES.filter((c) => c.fires.length === 0).map((c) => c.alert));
    expect(names.filter((n) => !fires.has(n))).toEqual([]);
    expect(names.filter((n) => !quiet.has(n))).toEqual([]);
    expect(ALERT_CASES.map((c) => c.alert).filter((a) => !names.includes(a))).toEqual([]);
  });
});

describe('dashboards', () => {
  const files = dashboards().map((d) => `${DASHBOARDS_DIR}/${d.uid}.json`);

  it('one per app and the money path, each valid Grafana JSON of our schema version with unique uids and panel ids', () => {
    expect(
      dashboards()
        .map((d) => d.uid)
        .sort(),
    ).toEqual(
      ['money-path', 'quote-api', 'embed-api', 'webhook-dispatcher', 'widget-iframe', 'operator-portal']
        .map((n) => `expedition-${n}`)
        .sort(),
    );
    for (const file of files) {
      const json = JSON.parse(read(file)) as {
        uid: string;
        schemaVersion: number;
        panels: Array<{ id: number; targets: Array<{ expr: string; refId: string }> }>;
      };
      expect([file, json.schemaVersion]).toEqual([file, SCHEMA_VERSION]);
      expect(new Set(json.panels.map((p) => p.id)).size).toBe(json.panels.length);
      for (const panel of json.panels) {
        expect(panel.targets.length).toBeGreaterThan(0);
        for (const target of panel.targets) expect(target.expr.length * target.refId.length).toBeGreaterThan(0);
      }
    }
  });

  it('the component ships every dashboard in a ConfigMap labelled for the Grafana sidecar', () => {
    const kustomization = parse(read(`${COMPONENT_DIR}/kustomization.yaml`)) as {
      kind: string;
      configMapGenerator: Array<{ files: string[]; options: { labels: Record<string, string> } }>;
    };
    expect(kustomization.kind).toBe('Component');
    const generator = kustomization.configMapGenerator.find((g) => g.options.labels['grafana_dashboard'] === '1');
    expect(generator?.files.map((f) => `${COMPONENT_DIR}/${f}`).sort()).toEqual([...files].sort());
  });
});

describe('metric names in expressions (can fail)', () => {
  it('finds selected metrics and leaves out functions, labels, keywords and recording rules', () => {
    expect(
      metricNames(
        'sum by (operator) (rate(webhook_delivery_attempts_total{outcome=~"retry|failed"}[30m])) / on (le) slo:sli_error:ratio_rate1h{slo="x"} > 0 and up == 0',
      ),
    ).toEqual(['webhook_delivery_attempts_total', 'up']);
    expect(
      metricNames('histogram_quantile(0.95, sum by (le) (rate(http_request_duration_seconds_bucket{app="a"}[5m])))'),
    ).toEqual(['http_request_duration_seconds_bucket']);
  });

  it('reads the families a /metrics body declares, histograms with their series', () => {
    const served = servedMetrics('# HELP x_seconds x\n# TYPE x_seconds histogram\n# TYPE y_total counter\ny_total 1\n');
    expect([...served].sort()).toEqual([
      'x_seconds',
      'x_seconds_bucket',
      'x_seconds_count',
      'x_seconds_sum',
      'y_total',
    ]);
  });

  it('the shipped rules and dashboards name metrics', () => {
    expect([...referencedMetrics().keys()]).toEqual(
      expect.arrayContaining(['payments_succeeded_without_policy', 'database_up', 'policy_mail_attempts_total']),
    );
  });
});

needs(
  'promtool',
  promtoolMissing,
  'cannot check or unit-test the alert rules (apt-get install prometheus)',
)('promtool', () => {
  it(`${RULES_FILE} passes promtool check rules`, () => {
    const result = promtool(['check', 'rules', RULES_FILE]);
    expect([result.ok, result.output]).toEqual([true, expect.stringContaining('SUCCESS')]);
  });

  it(`every alert behaves as ${RULE_TESTS_FILE} expects (promtool test rules)`, () => {
    const result = promtool(['test', 'rules', RULE_TESTS_FILE]);
    expect([result.ok, result.output]).toEqual([true, expect.stringContaining('SUCCESS')]);
  });

  it('every dashboard query parses', () => {
    const exprs = shippedExpressions().filter((e) => e.where.startsWith('dashboard'));
    const result = checkExpressions(exprs.map((e) => e.expr));
    expect([result.ok, result.output]).toEqual([true, expect.stringContaining(`SUCCESS: ${exprs.length} rules found`)]);
  });

  it('refuses a query that does not parse, and a unit test whose alert does not fire (the checks can fail)', () => {
    expect(checkExpressions(['sum(rate(http_request_duration_seconds_count[5m])']).ok).toBe(false);
    const dir = mkdtempSync(path.join(tmpdir(), 'expedition-promtool-'));
    try {
      writeFileSync(
        path.join(dir, 'alerts.rules.yml'),
        read(RULES_FILE).replace(
          'max(payments_succeeded_without_policy) > 0',
          'max(payments_succeeded_without_policy) > 1',
        ),
      );
      const tests = parse(read(RULE_TESTS_FILE)) as { tests: Array<{ name: string }> };
      tests.tests = tests.tests.filter((t) => t.name === 'a payment without a policy pages');
      writeFileSync(path.join(dir, 'alerts.test.yml'), stringify(tests));
      const result = promtool(['test', 'rules', 'alerts.test.yml'], dir);
      expect([result.ok, result.output]).toEqual([false, expect.stringContaining('a payment without a policy pages')]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

needs(
  'kubectl',
  kubectlMissing,
  'cannot render the monitoring component',
)('deploy/kubernetes/components/monitoring', () => {
  it('adds the PrometheusRule, the PodMonitor and the dashboards to an overlay, in its namespace', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'expedition-kustomize-'));
    try {
      const kubernetes = path.relative(dir, path.join(ROOT, 'deploy', 'kubernetes'));
      writeFileSync(
        path.join(dir, 'kustomization.yaml'),
        stringify({
          apiVersion: 'kustomize.config.k8s.io/v1beta1',
          kind: 'Kustomization',
          resources: [`${kubernetes}/overlays/production`],
          components: [`${kubernetes}/components/monitoring`],
        }),
      );
      const result = spawnSync(kubectl, ['kustomize', dir], { encoding: 'utf8', maxBuffer: 32 * 1024 * 1024 });
      expect([result.status, result.stderr]).toEqual([0, '']);
      type Obj = {
        kind: string;
        metadata: { name: string; namespace?: string; labels?: Record<string, string> };
        spec?: { groups?: unknown };
        data?: Record<string, string>;
      };
      const objects = parseAllDocuments(result.stdout).map((d) => d.toJS() as Obj);
      const rule = objects.find((o) => o.kind === 'PrometheusRule');
      expect(rule?.spec?.groups).toEqual((parse(read(RULES_FILE)) as { groups: unknown }).groups);
      expect(objects.find((o) => o.kind === 'PodMonitor')).toBeDefined();
      const dashboardsMap = objects.find(
        (o) => o.kind === 'ConfigMap' && o.metadata.labels?.['grafana_dashboard'] === '1',
      );
      expect(Object.keys(dashboardsMap?.data ?? {}).sort()).toEqual(
        dashboards()
          .map((d) => `${d.uid}.json`)
          .sort(),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
