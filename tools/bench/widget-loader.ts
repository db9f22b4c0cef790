/**
 * Benchmark: the widget's weight and speed, with baselines from the same run (issue §6). No assertion on time.
 *
 *   npm run bench -- sizes widget   the rows of both in the one table (run.ts)
 *   npm run bench:widget            the same figures in detail (BENCH_WIDGET_RUNS=5 by default, at most 8: the demo
 *                                   key's budget is 60 requests per minute; needs Chromium: CHROMIUM_PATH or
 *                                   /usr/bin/chromium)
 *
 * 1. Sizes: the loader (dist/browser/widget-loader/widget.js) gzipped, against its 2.8 KB budget; the iframe's
 *    first-render JavaScript gzipped (the `frame` entry of dist/browser/widget-frame/manifest.json and every chunk it
 *    imports statically; lazy chunks such as the Tier 3 checkout are listed apart), against its 30 KB budget.
 * 2. Time, in headless Chromium on loopback, from Performance API marks (widget-timing.ts): mount → form visible
 *    (goal ≤ 300 ms) and submit → plans visible (goal ≤ 800 ms; baseline: a bare page making the same API calls).
 *    Medians of cold-cache runs alternating with the bare page, after one warm-up of each (a quick run: one run, no
 *    warm-up).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { loadBenchConfig, type BenchConfig } from './config';
import { maxRow, notMeasured, type BenchRow } from './table';
import { measureWidgetTiming, timingUnavailable, type WidgetTiming } from './widget-timing';

const root = path.resolve(__dirname, '..', '..');
// The benchmark's own knob (like the other benches, read here once).
const RUNS = Math.min(8, Math.max(1, Number(process.env['BENCH_WIDGET_RUNS'] ?? 5) || 5));
const gz = (bytes: Buffer | string) => gzipSync(bytes, { level: 9 }).length;
/** Brotli bytes as served: the build's twin (`<file>.br`, tools/browser/rollup-preset.mjs), else 0 (not built). */
const br = (file: string) => (existsSync(`${file}.br`) ? readFileSync(`${file}.br`).length : 0);
const kb = (n: number) => `${(n / 1024).toFixed(2)} KB`;
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

let builtHere = false;
/** Builds the loader and the frame, once per process (a full `npm run bench` asks twice: sizes, then widget). */
export function build(): void {
  if (builtHere) return;
  const rollup = path.join(root, 'node_modules/rollup/dist/bin/rollup');
  for (const config of ['apps/widget-iframe/loader/rollup.config.mjs', 'apps/widget-iframe/frame/rollup.config.mjs']) {
    execFileSync(process.execPath, [rollup, '-c', config], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  }
  builtHere = true;
}

/** The chunk files an ES module imports statically, recursively (`import"./x.js"`, `from"./x.js"`). */
function staticClosure(dir: string, entry: string): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const code = readFileSync(path.join(dir, file), 'utf8');
    for (const m of code.matchAll(/(?:\bfrom|\bimport)\s*["']\.\/([^"']+\.js)["']/g)) visit(m[1]!);
  };
  visit(entry);
  return [...seen];
}

/** Budgets of the widget's bundles, gzipped bytes. */
export const BUNDLE_BUDGETS = { loader: 2867, frameFirstRender: 30 * 1024 } as const;

/** Gzipped sizes of the built loader and of the iframe's first-render JavaScript (and the lazy chunks, apart). */
export function bundleSizes() {
  const loader = readFileSync(path.join(root, 'dist/browser/widget-loader/widget.js'));
  const frameDir = path.join(root, 'dist/browser/widget-frame');
  const manifest = JSON.parse(readFileSync(path.join(frameDir, 'manifest.json'), 'utf8')) as {
    entries: Record<string, string>;
    files: Record<string, unknown>;
  };
  // The first render WITH its language: the entry, and the largest language's texts chunk (libs/i18n, one per language).
  const texts = Object.keys(manifest.files)
    .filter((f) => /^widget\.(en|de|fr|es)-[\w-]+\.js$/.test(f))
    .sort((a, b) => gz(readFileSync(path.join(frameDir, b))) - gz(readFileSync(path.join(frameDir, a))))[0];
  const firstRender = [
    ...new Set([
      ...staticClosure(frameDir, manifest.entries['frame']!),
      ...(texts ? staticClosure(frameDir, texts) : []),
    ]),
  ];
  const firstGz = firstRender.reduce((sum, f) => sum + gz(readFileSync(path.join(frameDir, f))), 0);
  const lazy = Object.keys(manifest.files).filter((f) => f.endsWith('.js') && !firstRender.includes(f));
  return { loader, loaderGz: gz(loader), firstRender, firstGz, lazy, frameDir };
}

export function sizes(): void {
  const { loader, firstRender, firstGz, lazy, frameDir } = bundleSizes();
  console.log('\nSizes (gzip -9)');
  console.log(
    `  loader widget.js              ${kb(gz(loader)).padStart(9)}  (${loader.length} bytes raw)   budget 2.8 KB   ${(gz(loader) / BUNDLE_BUDGETS.loader).toFixed(2)} of budget`,
  );
  console.log(
    `  frame first-render JS         ${kb(firstGz).padStart(9)}  (${firstRender.join(', ')})   budget 30 KB   ${(firstGz / 30720).toFixed(2)} of budget`,
  );
  for (const f of lazy)
    console.log(
      `  lazy chunk ${f.padEnd(20)} ${kb(gz(readFileSync(path.join(frameDir, f)))).padStart(9)}  (not needed for the first render)`,
    );
  // What the widget server sends (identity / gzip / brotli, the build's twins): the loader, and the first render's
  // script(s) plus its stylesheet.
  const manifest = JSON.parse(readFileSync(path.join(frameDir, 'manifest.json'), 'utf8')) as {
    css: Record<string, string>;
  };
  const firstFiles = [...firstRender, ...Object.values(manifest.css)].map((f) => path.join(frameDir, f));
  const sum = (measure: (file: string) => number) => firstFiles.reduce((total, file) => total + measure(file), 0);
  const loaderFile = path.join(root, 'dist/browser/widget-loader/widget.js');
  console.log('\nOn the wire (bytes: identity / gzip / brotli)');
  console.log(`  loader widget.js              ${loader.length} / ${gz(loader)} / ${br(loaderFile)}`);
  console.log(
    `  frame first render (JS + CSS) ${sum((f) => readFileSync(f).length)} / ${sum((f) => gz(readFileSync(f)))} / ${sum(br)}`,
  );
}

/** Whether the built bundles exist and carry the frame's Performance API marks (a build from before them does not). */
function bundlesHaveMarks(): boolean {
  const frameDir = path.join(root, 'dist/browser/widget-frame');
  if (!existsSync(path.join(root, 'dist/browser/widget-loader/widget.js')) || !existsSync(frameDir)) return false;
  return readdirSync(frameDir).some(
    (f) => f.endsWith('.js') && readFileSync(path.join(frameDir, f), 'utf8').includes('svc:plans-visible'),
  );
}

/** The performance issue's goals (ms), on loopback. */
const GOALS = { mount: 300, submit: 800 } as const;
const MOUNT_ROW = {
  id: 'widget_mount_to_form',
  figure: 'widget mount → form visible (Chromium, loopback), median',
  unit: 'ms',
  baselineLabel: 'an empty iframe of the widget origin, painted',
};
const SUBMIT_ROW = {
  id: 'widget_submit_to_plans',
  figure: 'widget submit → plans visible, median',
  unit: 'ms',
  baselineLabel: 'bare page, same API calls',
};
const goal = (max: number) => `≤ ${max} ms`;

const ms = (n: number) => `${n.toFixed(0)} ms`;
const spread = (xs: number[]) => `p50 ${ms(median(xs))}, max ${ms(Math.max(...xs))}`;

/** The table rows of the timing: medians against their goals, the bare page as the submit row's baseline. */
export function widgetRows(timing: WidgetTiming): BenchRow[] {
  const runs = `${timing.widget.length} cold-cache run${timing.widget.length === 1 ? '' : 's'}`;
  const limited = timing.rateLimited
    ? `; ${timing.rateLimited} responses 429 (the demo key's budget): the runs that waited are not comparable`
    : '';
  const form = timing.widget.map((s) => s.form);
  const at = (phase: 'frameStart' | 'documentArrived' | 'scriptsRun') =>
    `${Math.round(median(timing.widget.map((s) => s[phase])))} ms`;
  const plans = timing.widget.map((s) => s.plans);
  return [
    maxRow(
      {
        ...MOUNT_ROW,
        ours: median(form),
        baseline: median(timing.bareFrame),
        note: `${spread(form)} (empty iframe ${spread(timing.bareFrame)}), ${runs} each; from the host page's mark before SvcWidget.mount() to the frame's svc:form-visible; medians after the mount: the frame's navigation starts ${at('frameStart')}, its document has arrived ${at('documentArrived')}, its scripts have run ${at('scriptsRun')}${limited}`,
      },
      GOALS.mount + 1e-9,
      goal(GOALS.mount),
    ),
    maxRow(
      {
        ...SUBMIT_ROW,
        ours: median(plans),
        baseline: median(timing.bare),
        note: `${spread(plans)} (bare page ${spread(timing.bare)}), ${runs} each, alternating; the frame's svc:quote-submitted → svc:plans-visible${limited}`,
      },
      GOALS.submit + 1e-9,
      goal(GOALS.submit),
    ),
  ];
}

/** `npm run bench -- widget`: the timing rows, or both rows not measured with the reason (no Chromium). */
export async function benchWidget(config: Readonly<BenchConfig> = loadBenchConfig()): Promise<BenchRow[]> {
  const missing = timingUnavailable();
  if (missing)
    return [
      notMeasured({ ...MOUNT_ROW, goal: goal(GOALS.mount) }, missing),
      notMeasured({ ...SUBMIT_ROW, goal: goal(GOALS.submit) }, missing),
    ];
  // A full run measures this tree; a quick run reuses bundles already built when they carry the marks.
  if (!config.quick || !bundlesHaveMarks()) build();
  const timing = await measureWidgetTiming(config.quick ? { runs: 1, warmups: 0 } : { runs: RUNS, warmups: 1 });
  return widgetRows(timing);
}

async function main(): Promise<void> {
  build();
  sizes();
  const rows = await benchWidget();
  console.log('\nTime in headless Chromium on loopback (Performance API marks)');
  for (const row of rows) {
    const ours = row.ours === null ? '—' : ms(row.ours);
    const baseline =
      row.baseline === null ? '' : `   ${row.baselineLabel}: ${ms(row.baseline)}, ratio ${row.ratio?.toFixed(2)}`;
    console.log(
      `  ${row.figure.padEnd(58)} ${ours.padStart(8)}   goal ${row.goal}: ${row.met === null ? '—' : row.met ? 'met' : 'NOT met'}${baseline}`,
    );
    if (row.note) console.log(`    ${row.note}`);
  }
}

if (require.main === module) {
  const hardStop = setTimeout(() => {
    console.error('bench:widget: hard deadline reached');
    process.exit(1);
  }, 300_000);
  main()
    .then(() => clearTimeout(hardStop))
    .catch((err) => {
      console.error(err);
      process.exit(1);
    });
}
