/**
 * The soak's figures: heap after GC at the start (after the warm-up) and at the end, robust to one noisy sample, and
 * the curves as a small ASCII plot per app (tools/bench/results/soak.txt).
 */
export interface Point {
  /** Seconds since the load started. */
  t: number;
  heapUsed: number;
  rss: number;
}

const MB = 1024 * 1024;

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Start: the median of the first 3 samples at or after the warm-up; end: the median of the last 3. */
export function startEnd(points: readonly Point[], warmupSec: number): { start: number; end: number } {
  const afterWarmup = points.filter((p) => p.t >= warmupSec);
  return {
    start: median(afterWarmup.slice(0, 3).map((p) => p.heapUsed)),
    end: median(points.slice(-3).map((p) => p.heapUsed)),
  };
}

/** Within 10 %: |end ÷ start − 1| ≤ 0.10. */
export function withinTenPercent(start: number, end: number): boolean {
  return Math.abs(end / start - 1) <= 0.1;
}

/**
 * One app's heap-after-GC curve, time left to right: `*` the samples, `-` the band start ± 10 %, `=` the start, `|`
 * the end of the warm-up. Each app has its own scale (their heaps differ by more than the band).
 */
export function plotCurve(
  name: string,
  points: readonly Point[],
  warmupSec: number,
  height = 10,
  width = 63,
): string[] {
  const { start, end } = startEnd(points, warmupSec);
  const values = points.map((p) => p.heapUsed / MB);
  const lo = Math.min(...values, (start / MB) * 0.88);
  const hi = Math.max(...values, (start / MB) * 1.12);
  const rowOf = (mb: number) => Math.round(((hi - mb) / (hi - lo || 1)) * (height - 1));
  const last = points[points.length - 1]?.t ?? 0;
  const colOf = (t: number) => Math.round((t / (last || 1)) * (width - 1));
  const grid = Array.from({ length: height }, () => Array.from({ length: width }, () => ' '));
  for (const [factor, mark] of [
    [0.9, '-'],
    [1.1, '-'],
    [1, '='],
  ] as const) {
    const row = grid[rowOf((start / MB) * factor)]!;
    for (let x = 0; x < width; x += 2) row[x] = mark;
  }
  if (warmupSec > 0 && warmupSec < last) for (const row of grid) row[colOf(warmupSec)] = '|';
  for (const p of points) grid[rowOf(p.heapUsed / MB)]![colOf(p.t)] = '*';
  const lines = [
    `${name}: heap after GC, start ${(start / MB).toFixed(1)} MB, end ${(end / MB).toFixed(1)} MB, ` +
      `end ÷ start ${(end / start).toFixed(3)} (${withinTenPercent(start, end) ? 'within 10 %' : 'NOT within 10 %'})`,
  ];
  grid.forEach((row, r) => {
    const mb = hi - (r / (height - 1)) * (hi - lo);
    lines.push(`${mb.toFixed(1).padStart(7)} MB ┤${row.join('')}`);
  });
  lines.push(`${' '.repeat(10)}└${'─'.repeat(width)}`);
  const endLabel = `${last.toFixed(0)} s`;
  lines.push(`${' '.repeat(11)}0 s${' '.repeat(Math.max(1, width - 3 - endLabel.length))}${endLabel}`);
  return lines;
}

/** Every sample, per app: heap after GC and RSS (MB). */
export function sampleTable(curves: Readonly<Record<string, readonly Point[]>>): string[] {
  const names = Object.keys(curves);
  const first = curves[names[0]!] ?? [];
  const cell = (s: string) => s.padStart(32);
  const lines = [`${'t (s)'.padStart(7)}${names.map((n) => cell(`${n} heap / RSS`)).join('')}`];
  first.forEach((p, i) => {
    const cells = names.map((n) => {
      const q = curves[n]![i];
      return cell(q ? `${(q.heapUsed / MB).toFixed(1)} / ${(q.rss / MB).toFixed(0)} MB` : '—');
    });
    lines.push(`${p.t.toFixed(0).padStart(7)}${cells.join('')}`);
  });
  return lines;
}
