/** The soak's rows in the one table of `npm run bench`: peak RSS per app, heap after GC end vs start, the load. */
import { SOAK_APPS, type SoakApp, type SoakFigures } from './soak.types';
import type { StreamStats } from './soak.driver';
import { startEnd, withinTenPercent } from './soak.plot';
import { infoRow, notMeasured, type BenchRow } from './table';

const MB = 1024 * 1024;
const key = (app: SoakApp) => app.replace(/-/g, '_');

const rssRow = (app: SoakApp) => ({
  id: `soak_rss_peak_${key(app)}`,
  figure: `${app}: RSS under the soak load (peak)`,
  unit: 'MB',
  goal: '—',
  baselineLabel: '',
});
const heapRow = (app: SoakApp) => ({
  id: `soak_heap_${key(app)}`,
  figure: `${app}: heap after GC, end vs start of the soak`,
  unit: 'MB',
  goal: 'within 10 %',
  baselineLabel: 'start',
});
const loadRow = {
  id: 'soak_load_failures',
  figure: 'soak load: requests failed, not 2xx or not sent',
  unit: 'requests',
  goal: '—',
  baselineLabel: '',
};

export function soakRows(f: SoakFigures | null, reason = ''): BenchRow[] {
  if (!f) return [...SOAK_APPS.map(rssRow), ...SOAK_APPS.map(heapRow), loadRow].map((r) => notMeasured(r, reason));
  const samples = f.curves[SOAK_APPS[0]].length;
  // Fewer than 21 samples: the apps answered late (an overloaded machine) and the sampler skipped the times past.
  const sampling = samples === 21 ? `every ${(f.soakSec / 20).toFixed(0)} s` : `${samples} times (some answered late)`;
  const rss = SOAK_APPS.map((app) => {
    const sampled = f.curves[app].map((p) => p.rss / MB);
    const peak = f.peakRss[app];
    return infoRow({
      ...rssRow(app),
      ours: peak === null ? Math.max(...sampled) : peak / MB,
      baseline: null,
      note:
        `${peak === null ? 'highest sampled RSS (no /proc: VmHWM unavailable)' : 'VmHWM'}; sampled ` +
        `${Math.min(...sampled).toFixed(0)}–${Math.max(...sampled).toFixed(0)} MB, ${sampled[sampled.length - 1]!.toFixed(0)} MB at the end; ` +
        `CPU ${(f.cpuShare[app] * 100).toFixed(0)} % of a core under the load`,
    });
  });
  const heap = SOAK_APPS.map((app, i) => {
    const { start, end } = startEnd(f.curves[app], f.warmupSec);
    const row = infoRow({
      ...heapRow(app),
      ours: end / MB,
      baseline: start / MB,
      note:
        i === 0
          ? `heapUsed after a full GC (--expose-gc), sampled ${sampling} over ${f.soakSec} s, one process per app; ` +
            `start: the median of the first 3 samples after the ${f.warmupSec.toFixed(0)} s warm-up, end: the median ` +
            `of the last 3; met when |end ÷ start − 1| ≤ 0.10; curves: ${f.plotFile}`
          : `as for quote-api; curve: ${f.plotFile}`,
    });
    return { ...row, goal: 'within 10 %', met: withinTenPercent(start, end) };
  });
  return [...rss, ...heap, infoRow({ ...loadRow, ...loadFigures(f) })];
}

function loadFigures(f: SoakFigures): { ours: number; baseline: null; note: string } {
  const describe = (name: string, s: StreamStats) => {
    const why = Object.entries(s.why)
      .map(([w, n]) => `${n}× ${w}`)
      .join(', ');
    return `${name} ${s.sent} sent, ${s.failed} failed${why ? ` (${why})` : ''}${s.skipped ? `, ${s.skipped} not sent (too many in flight)` : ''}`;
  };
  const { quotes, polls, events } = f.load;
  const bad = [quotes, polls, events].reduce((sum, s) => sum + s.failed + s.skipped, 0);
  // An event whose answer timed out may still have been fulfilled and delivered: deliveries count against 2xx answers.
  const missing = events.ok - f.deliveries;
  const { rates } = f;
  return {
    ours: bad,
    baseline: null,
    note:
      `offered ${rates.quotes} quotes/s, ${rates.polls} embed polls/s, ${rates.events} processor events/s: ` +
      `${describe('quotes', quotes)}; ${describe('embed polls', polls)}; ${describe('processor events', events)}; ` +
      `${f.deliveries} policy.issued deliveries (${events.ok} events answered 2xx)` +
      (missing > 0 ? `, ${missing} fewer deliveries than accepted events 30 s after the load stopped` : '') +
      (bad > 0 ? '; the heap figures were taken under these errors' : ''),
  };
}
