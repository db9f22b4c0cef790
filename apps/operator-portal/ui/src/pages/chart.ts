/** Pure helpers of the dashboard chart (tested): series by day and mode, a round axis maximum, SVG path points. */
import type { DashboardDay } from '../api/types';

export type Metric = 'quotes' | 'purchases' | 'premiumCents' | 'commissionCents';

export interface Series {
  labels: string[];
  test: number[];
  live: number[];
}

/** One value per day (oldest first) for each mode; days missing from the answer count as 0. */
export function seriesOf(days: readonly DashboardDay[], metric: Metric): Series {
  const labels = [...new Set(days.map((d) => d.day))].sort();
  const index = new Map(labels.map((label, i) => [label, i]));
  const test = labels.map(() => 0);
  const live = labels.map(() => 0);
  for (const row of days) {
    const i = index.get(row.day) ?? 0;
    const target = row.mode === 'live' ? live : test;
    target[i] = (target[i] ?? 0) + row[metric];
  }
  return { labels, test, live };
}

/** The smallest 1/2/5×10^n at or above `value` (at least 1), so gridlines land on round numbers. */
export function niceMax(value: number): number {
  if (!(value > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 5, 10]) if (step * power >= value) return step * power;
  return 10 * power;
}

/** "x,y x,y …" for an SVG polyline in a width×height box (y grows downwards). */
export function polylinePoints(values: readonly number[], max: number, width: number, height: number): string {
  if (values.length === 0) return '';
  const stepX = values.length > 1 ? width / (values.length - 1) : 0;
  return values
    .map(
      (v, i) =>
        `${round(values.length > 1 ? i * stepX : width / 2)},${round(height - (Math.max(0, v) / max) * height)}`,
    )
    .join(' ');
}

const round = (n: number) => Math.round(n * 10) / 10;

export const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);
