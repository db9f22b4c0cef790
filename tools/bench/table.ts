import { medianPair, type RoundPair } from './load';

/**
 * The one results table of `npm run bench`: every figure with its baseline from the same run, the ratio, the goal
 * and whether it is met; printed, and written as JSON and Markdown (the README's Benchmarks section is generated
 * from the Markdown).
 */
export interface BenchRow {
  /** Stable key (JSON consumers, the README). */
  id: string;
  /** The benchmark that measured it (`npm run bench -- <bench>`); set by the harness. */
  bench?: string;
  figure: string;
  unit: string;
  ours: number | null;
  /** The figure of the baseline measured in the same run (or the budget), or null when there is none. */
  baseline: number | null;
  baselineLabel: string;
  /** ours ÷ baseline, or null. */
  ratio: number | null;
  goal: string;
  /** null: no goal (informational), or not measured. */
  met: boolean | null;
  note?: string;
}

export interface BenchReport {
  startedAt: string;
  finishedAt: string;
  quick: boolean;
  /**
   * 1-minute load averages: `loadAverageAtStart` before the run's own load (others keeping the machine busy skew the
   * figures), `loadAverage` when it ended (the run's own load included).
   */
  machine: {
    cpus: number;
    node: string;
    loadTool: string;
    database: string;
    loadAverageAtStart?: number;
    loadAverage: number;
  };
  rows: BenchRow[];
}

/** A row whose goal is a minimum ratio ours ÷ baseline (throughput). */
export function ratioRow(row: Omit<BenchRow, 'ratio' | 'goal' | 'met'>, minRatio: number): BenchRow {
  const ratio = row.ours !== null && row.baseline ? row.ours / row.baseline : null;
  const goal = `ratio ≥ ${minRatio}`;
  // A figure without a baseline to divide by (the baseline did nothing in the run) judges nothing: not measured.
  if (ratio === null || !Number.isFinite(ratio))
    return notMeasured({ ...row, goal }, `no baseline figure in this run (ours ${row.ours}, baseline ${row.baseline})`);
  return { ...row, ratio, goal, met: ratio >= minRatio };
}

/**
 * A minimum-ratio row measured in paired rounds (`roundPairs` in load.ts): `ours` and `baseline` are the round whose
 * own ratio is the median one. A slow spell of the machine moves that less than the ratio of two medians taken from
 * different rounds. The note lists every round's ratio.
 */
export function pairedRatioRow(
  row: Omit<BenchRow, 'ratio' | 'goal' | 'met' | 'ours' | 'baseline'>,
  minRatio: number,
  pairs: readonly RoundPair[],
): BenchRow {
  const middle = medianPair(pairs);
  const each = `the round with the median of ${pairs.length} paired rounds' ratios (${pairs.map((p) => (p.ours / p.baseline).toFixed(2)).join(', ')})`;
  return ratioRow(
    {
      ...row,
      ours: middle?.ours ?? null,
      baseline: middle?.baseline ?? null,
      note: row.note ? `${each}; ${row.note}` : each,
    },
    minRatio,
  );
}

/** A row whose goal is an upper bound on `ours` (latency, size against a budget). */
export function maxRow(row: Omit<BenchRow, 'ratio' | 'goal' | 'met'>, max: number, goal: string): BenchRow {
  const ratio = row.ours !== null && row.baseline ? row.ours / row.baseline : null;
  return { ...row, ratio, goal, met: row.ours === null ? null : row.ours < max };
}

/** A row whose goal is a lower bound on `ours` (events per second). */
export function minRow(row: Omit<BenchRow, 'ratio' | 'goal' | 'met'>, min: number, goal: string): BenchRow {
  const ratio = row.ours !== null && row.baseline ? row.ours / row.baseline : null;
  return { ...row, ratio, goal, met: row.ours === null ? null : row.ours >= min };
}

export function infoRow(row: Omit<BenchRow, 'ratio' | 'goal' | 'met'>): BenchRow {
  const ratio = row.ours !== null && row.baseline ? row.ours / row.baseline : null;
  return { ...row, ratio, goal: '—', met: null };
}

/** A row that could not be measured in this run (the reason goes to the note). */
export function notMeasured(
  row: Pick<BenchRow, 'id' | 'figure' | 'unit' | 'goal' | 'baselineLabel'>,
  reason: string,
): BenchRow {
  return { ...row, ours: null, baseline: null, ratio: null, met: null, note: reason };
}

const number = (n: number | null, unit: string) => {
  if (n === null || Number.isNaN(n)) return '—';
  const digits = unit === 'ms' || unit === 's' || unit === 'KB' ? 1 : 0;
  return `${n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })} ${unit}`;
};
const metText = (met: boolean | null) => (met === null ? '—' : met ? 'yes' : '**no**');

export const HEADER = ['Figure', 'Ours', 'Baseline (same run)', 'Ratio', 'Goal', 'Met?'] as const;

export function cells(row: BenchRow): string[] {
  return [
    row.figure,
    number(row.ours, row.unit),
    row.baseline === null ? row.baselineLabel || '—' : `${row.baselineLabel}: ${number(row.baseline, row.unit)}`,
    row.ratio === null ? '—' : row.ratio.toFixed(2),
    row.goal,
    metText(row.met),
  ];
}

export function toMarkdown(report: BenchReport): string {
  const lines = [
    `| ${HEADER.join(' | ')} |`,
    `|${HEADER.map(() => '---').join('|')}|`,
    ...report.rows.map(
      (row) =>
        `| ${cells(row)
          .map((c) => c.replace(/\|/g, '\\|'))
          .join(' | ')} |`,
    ),
  ];
  const notes = report.rows.filter((r) => r.note).map((r) => `- ${r.figure}: ${r.note}`);
  const { machine } = report;
  return [
    `Measured by \`npm run bench\`${report.quick ? ' (BENCH_QUICK=1: a smoke run, not figures to quote)' : ''} on ${report.finishedAt.slice(0, 10)}: ` +
      `${machine.cpus} CPUs shared by the load generator (${machine.loadTool}) and the servers, Node ${machine.node}, ${machine.database}; ` +
      `${loadSentence(machine)}. ` +
      'Every ratio is against a baseline measured in the same run; throughput figures are medians of alternating rounds.',
    '',
    ...lines,
    ...(notes.length ? ['', ...notes] : []),
    '',
  ].join('\n');
}

/** The table as aligned plain text, for the terminal. */
export function toText(report: BenchReport): string {
  const rows = [HEADER as readonly string[], ...report.rows.map((r) => cells(r).map((c) => c.replace(/\*\*/g, '')))];
  const widths = HEADER.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  const line = (r: readonly string[]) => r.map((c, i) => c.padEnd(widths[i]!)).join('  ');
  return [line(rows[0]!), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.slice(1).map(line)].join('\n');
}

/**
 * What the load averages say. The run loads every CPU itself, so only the load before it started tells whether other
 * processes competed (above half the CPUs: they did).
 */
export function loadSentence(machine: BenchReport['machine']): string {
  const end = `load average ${machine.loadAverage.toFixed(1)} at the end of the run (its own load included)`;
  if (machine.loadAverageAtStart === undefined) return end;
  const busy = machine.loadAverageAtStart > machine.cpus / 2;
  return (
    `load average ${machine.loadAverageAtStart.toFixed(1)} when the run started` +
    (busy
      ? ' (other processes were keeping the machine busy: rerun on a quiet machine before quoting a figure)'
      : ' (nothing else was keeping the machine busy)') +
    `, ${machine.loadAverage.toFixed(1)} at its end (its own load included)`
  );
}
