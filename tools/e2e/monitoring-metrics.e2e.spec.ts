// A test-only import of the shipped rules and dashboards' definitions (tools/monitoring, the tools project): what
// this suite checks is exactly what they name.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { referencedMetrics, servedMetrics } from '../monitoring/promql';
import { launch, type Launched } from './launcher-harness';
import { freePort } from '@expedition/platform/testing';

/**
 * Issue 25: every metric a shipped alert rule or dashboard names is served by the platform. The all-in-one launcher
 * (every app's compose, one registry: docs/observability.md) runs with METRICS_PORT (a port the OS picks); its /metrics
 * declares every family the apps register, including those not yet observed (a labelled counter shows its `# TYPE` line
 * before the first increment). A renamed or removed metric fails here instead of silently silencing an alert.
 */
let metricsPort: number;
let platform: Launched;

beforeAll(async () => {
  metricsPort = await freePort();
  platform = await launch({ env: { METRICS_PORT: String(metricsPort) } });
}, 120_000);
afterAll(async () => {
  if (platform) expect(await platform.stop()).toBe(0);
});

describe('metrics named by the alert rules and dashboards', () => {
  it('are all served on /metrics', async () => {
    const served = servedMetrics(await (await fetch(`http://localhost:${metricsPort}/metrics`)).text());
    const missing = [...referencedMetrics()]
      .filter(([name]) => !served.has(name))
      .map(([name, where]) => `${name} (${where[0]}${where.length > 1 ? ` and ${where.length - 1} more` : ''})`);
    expect(missing).toEqual([]);
    expect(served.size).toBeGreaterThan(20);
  });
});
