/**
 * Benchmark: the widget's weight and speed, with baselines from the same run (issue §6). No assertion on time.
 *
 *   npm run bench:widget          (BENCH_WIDGET_RUNS=5 by default; needs Chromium: CHROMIUM_PATH or /usr/bin/chromium)
 *
 * 1. Sizes: the loader (dist/browser/widget-loader/widget.js) gzipped, against its 2.8 KB budget; the iframe's
 *    first-render JavaScript gzipped (the `frame` entry of dist/browser/widget-frame/manifest.json and every chunk it
 *    imports statically; lazy chunks such as the Tier 3 checkout are listed apart), against its 30 KB budget.
 * 2. Time, in headless Chromium on loopback against `npm start`'s launcher (started here on ports 13921-13925 and
 *    14120, fresh PGlite data): per run a fresh browser context (cold cache) on the demo operator's origin, with
 *    - the widget: `SvcWidget.mount()` → the first `quote.ready` (the form is on screen), then the quote submitted in
 *      the iframe → plan cards in the iframe's DOM ("options shown");
 *    - the baseline: a bare page making the same two API calls (POST /api/embed/quote, GET /api/embed/options until
 *      ready) and writing the plan names into its DOM, no widget.
 *    Runs alternate widget/bare; medians; ratios widget ÷ bare.
 * The demo key's budget is 60 requests per minute: keep BENCH_WIDGET_RUNS ≤ 8.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { BrowserContext } from 'playwright-core';
import { launchChromium } from '@expedition/platform/chromium';

const root = path.resolve(__dirname, '..', '..');
// The benchmark's own knobs (like the other benches, read here once).
const RUNS = Math.min(8, Math.max(1, Number(process.env['BENCH_WIDGET_RUNS'] ?? 5) || 5));
const BASE_PORT = 13920;
const ports = {
  quote: BASE_PORT + 1,
  embed: BASE_PORT + 2,
  widget: BASE_PORT + 3,
  portal: BASE_PORT + 4,
  dispatcher: BASE_PORT + 5,
  demo: BASE_PORT + 200,
};
const url = (port: number) => `http://localhost:${port}`;
const gz = (bytes: Buffer | string) => gzipSync(bytes, { level: 9 }).length;
/** Brotli bytes as served: the build's twin (`<file>.br`, tools/browser/rollup-preset.mjs), else 0 (not built). */
const br = (file: string) => (existsSync(`${file}.br`) ? readFileSync(`${file}.br`).length : 0);
const kb = (n: number) => `${(n / 1024).toFixed(2)} KB`;
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

export function build(): void {
  const rollup = path.join(root, 'node_modules/rollup/dist/bin/rollup');
  for (const config of ['apps/widget-iframe/loader/rollup.config.mjs', 'apps/widget-iframe/frame/rollup.config.mjs']) {
    execFileSync(process.execPath, [rollup, '-c', config], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  }
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

async function startPlatform(): Promise<{ demo: { publishableKey: string }; stop(): Promise<void> }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'expedition-bench-widget-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    QUOTE_API_PORT: String(ports.quote),
    EMBED_API_PORT: String(ports.embed),
    WIDGET_PORT: String(ports.widget),
    PORTAL_PORT: String(ports.portal),
    DISPATCHER_PORT: String(ports.dispatcher),
    DEMO_PORT: String(ports.demo),
    LOG_LEVEL: 'warn',
    NODE_OPTIONS: '',
  };
  for (const name of ['DATABASE_URL', 'REDIS_URL', 'SIMULATED_PROCESSOR_WEBHOOK_URL']) delete env[name];
  let output = '';
  const child = spawn(
    process.execPath,
    [path.join(root, 'node_modules/tsx/dist/cli.mjs'), '--tsconfig', 'tools/tsconfig.json', 'tools/launcher/main.ts'],
    {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 120_000;
  for (const port of [ports.embed, ports.widget, ports.demo]) {
    while (
      !(await fetch(`${url(port)}/healthz`).then(
        (r) => r.ok,
        () => false,
      ))
    ) {
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`the launcher did not start:\n${output}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  const demo = JSON.parse(readFileSync(path.join(dataDir, 'demo-operator.json'), 'utf8'));
  return {
    demo,
    async stop() {
      child.kill('SIGTERM');
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const TRIP = (() => {
  const day = (offset: number) => new Date(Date.now() + offset * 864e5).toISOString().slice(0, 10);
  return {
    destination: 'antarctica',
    startDate: day(60),
    endDate: day(71),
    travelers: 2,
    travelerAges: [46, 71],
    tripCost: 29800,
    residence: 'GB',
    email: 'traveler@example.com',
  };
})();

/** Runs in the page (as a string: the bench's tsconfig has no DOM typings). Resolves with the milestones in ms. */
const BARE_SCRIPT = (embedUrl: string, key: string) => `(async () => {
  const t0 = performance.now();
  const headers = { 'Content-Type': 'application/json', 'X-SVC-Publishable-Key': ${JSON.stringify(key)} };
  const quote = await (await fetch(${JSON.stringify(embedUrl)} + '/api/embed/quote', { method: 'POST', headers, body: ${JSON.stringify(JSON.stringify(TRIP))} })).json();
  const tQuote = performance.now();
  let options;
  for (let delay = 250; ; delay = Math.min(delay * 2, 2000)) {
    const res = await fetch(${JSON.stringify(embedUrl)} + '/api/embed/options?quoteId=' + encodeURIComponent(quote.quoteId), { headers });
    if (res.status === 429) { await new Promise((r) => setTimeout(r, 1000 * Number(res.headers.get('Retry-After') || 1))); continue; }
    options = await res.json();
    if (!options.pending) break;
    await new Promise((r) => setTimeout(r, delay));
  }
  const list = document.createElement('ul');
  for (const o of options.options) { const li = document.createElement('li'); li.textContent = o.name + ' ' + o.premiumCents; list.append(li); }
  document.body.append(list);
  await new Promise((r) => requestAnimationFrame(() => r()));
  return { quote: tQuote - t0, options: performance.now() - t0 };
})()`;

async function widgetRun(context: BrowserContext, demoUrl: string, widgetUrl: string, key: string) {
  const page = await context.newPage();
  await page.route(`${demoUrl}/__bench`, (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><html lang="en"><head><title>bench</title><script src="${widgetUrl}/widget.js"></script></head><body><div id="w"></div></body></html>`,
    }),
  );
  await page.goto(`${demoUrl}/__bench`);
  const abs = 'performance.timeOrigin + performance.now()';
  const t0 = (await page.evaluate(`(() => {
    window.__t = {};
    SvcWidget.once('quote.ready', () => { window.__t.form = ${abs}; });
    SvcWidget.on('quote.error', (e) => { window.__t.error = e.code; });
    const t0 = ${abs};
    SvcWidget.mount('#w', Object.assign({ publishableKey: ${JSON.stringify(key)}, tier: 3 }, ${JSON.stringify(TRIP)}));
    return t0;
  })()`)) as number;
  await page.waitForFunction(() => (globalThis as any).__t.form !== undefined, undefined, { timeout: 30_000 });
  const form = (await page.evaluate('window.__t.form')) as number;
  const frame = page.frames().find((f) => f.url().startsWith(`${widgetUrl}/frame`))!;
  // Options shown: the first plan card enters the iframe's DOM (observed inside the iframe).
  const tSubmit = (await frame.evaluate(`(() => {
    window.__shown = undefined;
    new MutationObserver((_, obs) => {
      if (document.querySelector('article.svc-plan')) { window.__shown = ${abs}; obs.disconnect(); }
    }).observe(document.body, { childList: true, subtree: true });
    const t = ${abs};
    document.querySelector('form button[type=submit]').click();
    return t;
  })()`)) as number;
  // A function, not a string: the iframe's CSP forbids eval.
  await frame.waitForFunction(() => (globalThis as any).__shown !== undefined, undefined, { timeout: 30_000 });
  const shown = (await frame.evaluate('window.__shown')) as number;
  await page.close();
  return { form: form - t0, options: shown - tSubmit, total: form - t0 + (shown - tSubmit) };
}

async function bareRun(context: BrowserContext, demoUrl: string, embedUrl: string, key: string) {
  const page = await context.newPage();
  await page.route(`${demoUrl}/__bare`, (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: '<!doctype html><html lang="en"><head><title>bare</title></head><body></body></html>',
    }),
  );
  await page.goto(`${demoUrl}/__bare`);
  const result = (await page.evaluate(BARE_SCRIPT(embedUrl, key))) as { quote: number; options: number };
  await page.close();
  return result;
}

async function main(): Promise<void> {
  build();
  sizes();
  const platform = await startPlatform();
  const browser = await launchChromium([
    // The bench pages are answered by Playwright's router on the demo origin (the key's allowed origin); Chromium
    // would refuse their requests to loopback servers (local network access checks) as from a public page.
    '--disable-features=LocalNetworkAccessChecks,PrivateNetworkAccessChecks,BlockInsecurePrivateNetworkRequests',
  ]);
  const hardStop = setTimeout(() => {
    console.error('bench:widget: hard deadline reached');
    process.exit(1);
  }, 300_000);
  try {
    const widget: { form: number; options: number; total: number }[] = [];
    const bare: { quote: number; options: number }[] = [];
    // One warm-up of each (server JIT, first database reads), not counted.
    for (let i = 0; i <= RUNS; i++) {
      for (const which of i % 2 ? (['bare', 'widget'] as const) : (['widget', 'bare'] as const)) {
        const context = await browser.newContext();
        if (which === 'widget') {
          const r = await widgetRun(context, url(ports.demo), url(ports.widget), platform.demo.publishableKey);
          if (i > 0) widget.push(r);
        } else {
          const r = await bareRun(context, url(ports.demo), url(ports.embed), platform.demo.publishableKey);
          if (i > 0) bare.push(r);
        }
        await context.close();
      }
    }
    const w = {
      form: median(widget.map((r) => r.form)),
      options: median(widget.map((r) => r.options)),
      total: median(widget.map((r) => r.total)),
    };
    const b = { quote: median(bare.map((r) => r.quote)), options: median(bare.map((r) => r.options)) };
    const ms = (n: number) => `${n.toFixed(0)} ms`.padStart(8);
    console.log(`\nTime in headless Chromium on loopback (medians of ${RUNS} cold-cache runs each, alternating)`);
    console.log(`  widget: mount() → quote.ready (form on screen)        ${ms(w.form)}`);
    console.log(`  widget: submit in the iframe → options shown          ${ms(w.options)}`);
    console.log(`  widget: both (no human in between)                    ${ms(w.total)}`);
    console.log(`  bare page: POST /api/embed/quote answered             ${ms(b.quote)}`);
    console.log(`  bare page: both API calls → options in its DOM        ${ms(b.options)}`);
    console.log(`  ratio widget ÷ bare, quote → options shown            ${(w.options / b.options).toFixed(2)}`);
    console.log(`  ratio widget ÷ bare, mount → options shown            ${(w.total / b.options).toFixed(2)}`);
  } finally {
    clearTimeout(hardStop);
    await browser.close();
    await platform.stop();
  }
}

if (require.main === module) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
