/**
 * `npm run bench`: every benchmark, each with its baseline measured in the same run, into ONE table — printed, and
 * written to tools/bench/results/latest.{json,md}; the README's Benchmarks section (between `<!-- bench:start -->`
 * and `<!-- bench:end -->`) is regenerated from it.
 *
 *   npm run bench                      the full run (about 20 minutes, 10 of them the soak)
 *   npm run bench -- quote embed       only some benchmarks (sizes, quote, embed, dispatcher, startup, widget, soak):
 *                                      their rows replace the same rows of the last full run's results
 *   BENCH_QUICK=1 npm run bench        a smoke run (minutes): checks the harness, not the figures; writes its
 *                                      results under BENCH_RESULTS_DIR (default: a temporary directory) and never
 *                                      touches the README
 *
 * Settings: tools/bench/config.ts (BENCH_DURATION_SEC, BENCH_ROUNDS, BENCH_CONNECTIONS, BENCH_TOOL, BENCH_EVENTS …).
 * Method, and the remaining distance to every goal not met: tools/bench/README.md.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as prettier from 'prettier';
import { isPostgresReachable } from '@expedition/db/testing';
import { loadBenchConfig, type BenchConfig } from './config';
import { benchDispatcher } from './dispatcher-rows';
import { benchEmbed } from './embed-options';
import { pickTool } from './load';
import { benchQuoteCreate } from './quote-create';
import { benchSoak } from './soak';
import { benchStartup } from './startup';
import { maxRow, notMeasured, toMarkdown, toText, type BenchReport, type BenchRow } from './table';
import { BUNDLE_BUDGETS, benchWidget, build, bundleSizes } from './widget-loader';

const root = path.resolve(__dirname, '..', '..');
export const README_START = '<!-- bench:start -->';
export const README_END = '<!-- bench:end -->';

const BENCHES: Record<string, (config: Readonly<BenchConfig>) => Promise<BenchRow[]>> = {
  sizes: async (config) => benchSizes(config),
  quote: benchQuoteCreate,
  embed: benchEmbed,
  dispatcher: benchDispatcher,
  startup: () => benchStartup(),
  widget: benchWidget,
  soak: benchSoak,
};

function benchSizes(config: Readonly<BenchConfig>): BenchRow[] {
  // A quick run reuses bundles already built; the full run builds them, so the sizes are those of this tree.
  let built = true;
  try {
    bundleSizes();
  } catch {
    built = false;
  }
  if (!config.quick || !built) build();
  const s = bundleSizes();
  const kb = (n: number) => n / 1024;
  return [
    maxRow(
      {
        id: 'loader_gzip',
        figure: 'widget loader (widget.js), gzip',
        unit: 'KB',
        ours: kb(s.loaderGz),
        baseline: kb(BUNDLE_BUDGETS.loader),
        baselineLabel: 'budget',
      },
      kb(BUNDLE_BUDGETS.loader) + 1e-9,
      '≤ budget',
    ),
    maxRow(
      {
        id: 'iframe_first_render_gzip',
        figure: 'widget iframe, first-render JS, gzip',
        unit: 'KB',
        ours: kb(s.firstGz),
        baseline: kb(BUNDLE_BUDGETS.frameFirstRender),
        baselineLabel: 'budget',
        note: `${s.firstRender.length} files; lazy chunks apart: ${s.lazy.join(', ') || 'none'}`,
      },
      kb(BUNDLE_BUDGETS.frameFirstRender) + 1e-9,
      '≤ budget',
    ),
  ];
}

export async function runBench(
  names: readonly string[] = Object.keys(BENCHES),
  config = loadBenchConfig(),
): Promise<BenchReport> {
  const startedAt = new Date().toISOString();
  // Before the run's own load: what else was keeping the machine busy.
  const loadAverageAtStart = os.loadavg()[0]!;
  const rows: BenchRow[] = [];
  for (const name of names) {
    const bench = BENCHES[name];
    if (!bench) throw new Error(`unknown benchmark "${name}"; known: ${Object.keys(BENCHES).join(', ')}`);
    process.stderr.write(`bench: ${name}…\n`);
    try {
      rows.push(...(await bench(config)).map((row) => ({ ...row, bench: name })));
    } catch (err) {
      rows.push({
        ...notMeasured(
          { id: name, figure: name, unit: '', goal: '—', baselineLabel: '' },
          `failed: ${(err as Error).message.split('\n')[0]}`,
        ),
        bench: name,
      });
    }
  }
  return {
    startedAt,
    finishedAt: new Date().toISOString(),
    quick: config.quick,
    machine: {
      cpus: os.cpus().length,
      node: process.version,
      loadTool: pickTool(config.http.tool),
      database: (await isPostgresReachable()) ? 'PostgreSQL on 127.0.0.1' : 'PGlite (PostgreSQL unreachable)',
      loadAverageAtStart,
      loadAverage: os.loadavg()[0]!,
    },
    rows,
  };
}

/**
 * A run of some benchmarks only (`npm run bench -- dispatcher`) replaces their rows in the previous report and keeps
 * the others, in the harness's order: each row's baseline still comes from the same run as its figure.
 */
export function mergeReports(previous: BenchReport, partial: BenchReport): BenchReport {
  const ran = new Set(partial.rows.map((r) => r.bench));
  const rows = Object.keys(BENCHES).flatMap((name) =>
    (ran.has(name) ? partial.rows : previous.rows).filter((r) => r.bench === name),
  );
  return { ...partial, startedAt: previous.startedAt, rows };
}

export function writeResults(report: BenchReport, dir: string): { json: string; md: string } {
  mkdirSync(dir, { recursive: true });
  const json = path.join(dir, 'latest.json');
  const md = path.join(dir, 'latest.md');
  writeFileSync(json, `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(md, toMarkdown(report));
  return { json, md };
}

/**
 * Replaces what lies between the README's bench markers with the table (re-reading the file right before), formatted
 * by Prettier with the repository's settings, as `npm run format:check` wants it.
 */
export async function updateReadme(report: BenchReport, readme = path.join(root, 'README.md')): Promise<boolean> {
  const text = readFileSync(readme, 'utf8');
  const start = text.indexOf(README_START);
  const end = text.indexOf(README_END);
  if (start < 0 || end < start) return false;
  const generated = `${README_START}\n<!-- generated by \`npm run bench\` from tools/bench/results/latest.json; do not edit by hand -->\n${toMarkdown(report)}${README_END}`;
  const updated = text.slice(0, start) + generated + text.slice(end + README_END.length);
  const options = (await prettier.resolveConfig(readme)) ?? {};
  writeFileSync(readme, await prettier.format(updated, { ...options, filepath: readme }));
  return true;
}

async function main(): Promise<void> {
  const config = loadBenchConfig();
  const names = process.argv.slice(2);
  const dir =
    process.env['BENCH_RESULTS_DIR'] ||
    (config.quick ? mkdtempSync(path.join(os.tmpdir(), 'bench-quick-')) : path.join(root, 'tools/bench/results'));
  let report = await runBench(names.length ? names : undefined, config);
  const previousFile = path.join(dir, 'latest.json');
  if (names.length && !config.quick && existsSync(previousFile)) {
    report = mergeReports(JSON.parse(readFileSync(previousFile, 'utf8')) as BenchReport, report);
  }
  const complete = Object.keys(BENCHES).every((name) => report.rows.some((r) => r.bench === name));
  const files = writeResults(report, dir);
  console.log(`\n${toText(report)}\n`);
  for (const row of report.rows.filter((r) => r.note)) console.log(`  ${row.figure}: ${row.note}`);
  console.log(`\nwritten: ${files.json}, ${files.md}`);
  // Only a full run (or a partial one merged into a full one) speaks for the README; never a quick run.
  if (!config.quick && complete)
    console.log(
      (await updateReadme(report))
        ? 'README.md: Benchmarks section regenerated'
        : 'README.md: bench markers not found; not updated',
    );
}

if (require.main === module) {
  const hardStop = setTimeout(() => {
    console.error('npm run bench: hard deadline (45 min) reached');
    process.exit(2);
  }, 45 * 60_000);
  hardStop.unref();
  main()
    .then(() => process.exit(0))
    .catch((err) => {
      console.error(err);
      process.exit(1);
    });
}
