import type { RequestInput, RouteStats, Violation } from './route-spec';
import { FUZZ_RUNS, FUZZ_SEED } from './settings';

export function shortInput(input: RequestInput): string {
  const body =
    input.body?.text === undefined
      ? ''
      : input.body.text.length > 300
        ? `${input.body.text.slice(0, 300)}…(${input.body.text.length} chars)`
        : input.body.text;
  const headers = Object.entries(input.headers)
    .filter(([k]) => k !== '__remove' && k !== 'cookie' && k !== 'x-csrf-token')
    .map(([k, v]) => `${k}: ${v.length > 60 ? `${v.slice(0, 60)}…` : v}`)
    .join(' | ');
  return `${input.method} ${input.path.length > 200 ? `${input.path.slice(0, 200)}…` : input.path} [${input.body?.kind ?? 'no-body'}; ct=${input.body?.contentType ?? '-'}] {${headers}} ${body}`;
}

/** `POST /api/v1/quotes  inputs=1000  200×312 400×640 413×48` */
export function formatStats(stats: RouteStats): string {
  const statuses = [...stats.statuses.entries()]
    .sort(([a], [b]) => a - b)
    .map(([s, n]) => `${s}×${n}`)
    .join(' ');
  return `${stats.route.padEnd(62)} inputs=${String(stats.inputs).padStart(5)} write-checked=${String(stats.writeChecked ?? 0).padStart(5)}  ${statuses}${stats.violations.length ? `  VIOLATIONS=${stats.violations.length}` : ''}`;
}

/** Groups violations by problem so a report is readable: each problem once, with its first input. */
export function summarizeViolations(violations: Violation[]): string[] {
  const byProblem = new Map<string, { count: number; first: Violation }>();
  for (const v of violations) {
    const key = `${v.route} :: ${v.problem.replace(/\d+→\d+/g, 'n→m')}`;
    const entry = byProblem.get(key);
    if (entry) entry.count++;
    else byProblem.set(key, { count: 1, first: v });
  }
  return [...byProblem.entries()].map(
    ([key, { count, first }]) => `${key} (×${count})\n    input:    ${first.input}\n    response: ${first.response}`,
  );
}

/** A suite's report: one line per route and a total, printed whatever the outcome. */
export function printReport(app: string, all: RouteStats[]): void {
  const inputs = all.reduce((n, s) => n + s.inputs, 0);
  const violations = all.reduce((n, s) => n + s.violations.length, 0);
  const lines = [
    `fuzz ${app}: seed ${FUZZ_SEED} (FUZZ_SEED to replay), ${FUZZ_RUNS} runs per route`,
    ...all.map(formatStats),
    `fuzz ${app} total: ${all.length} routes, ${inputs} inputs, ${violations} violations`,
  ];
  process.stdout.write(`\n${lines.join('\n')}\n`);
}
