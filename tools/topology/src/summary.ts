import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The figures of one run, printed at the end and written to {@link resultsFile}. */
export interface TopologySummary {
  startedAt: string;
  finishedAt?: string;
  durationSec?: number;
  topology: Record<string, unknown>;
  checks: Record<string, Record<string, unknown>>;
  totals: { requests: number; deliveries: number; duplicates: number; losses: number };
}

export function newSummary(topology: Record<string, unknown>): TopologySummary {
  return {
    startedAt: new Date().toISOString(),
    topology,
    checks: {},
    totals: { requests: 0, deliveries: 0, duplicates: 0, losses: 0 },
  };
}

export function record(
  summary: TopologySummary,
  check: string,
  figures: Record<string, unknown>,
  totals: Partial<TopologySummary['totals']> = {},
): void {
  summary.checks[check] = { ...summary.checks[check], ...figures };
  for (const [k, v] of Object.entries(totals) as [keyof TopologySummary['totals'], number][]) summary.totals[k] += v;
}

export function writeSummary(summary: TopologySummary, file: string): string {
  summary.finishedAt = new Date().toISOString();
  summary.durationSec = Math.round((Date.parse(summary.finishedAt) - Date.parse(summary.startedAt)) / 1000);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(summary, null, 2)}\n`);
  const lines = [
    'Deployed topology on one machine — summary',
    `  requests ${summary.totals.requests}   deliveries ${summary.totals.deliveries}   duplicates ${summary.totals.duplicates}   losses ${summary.totals.losses}`,
    ...Object.entries(summary.checks).map(([name, figures]) => `  ${name}: ${JSON.stringify(figures)}`),
    `  written to ${file} (${summary.durationSec} s)`,
  ];
  return lines.join('\n');
}

/**
 * Where the figures go: `TOPOLOGY_RESULTS` (relative to the repository; `npm run topology` names
 * tools/topology/results/latest.json), else a fresh folder under the system's temporary folder, so a test run
 * (`npm test`) writes nothing into the working tree.
 */
export function resultsFile(env: NodeJS.ProcessEnv = process.env): string {
  const named = env['TOPOLOGY_RESULTS'];
  if (named) return path.resolve(__dirname, '..', '..', '..', named);
  return path.join(mkdtempSync(path.join(os.tmpdir(), 'expedition-topology-')), 'latest.json');
}
