/**
 * The widget's speed as a traveler sees it, in headless Chromium on loopback against `npm start`'s launcher (started
 * here on ports the OS picks, fresh PGlite data), read from Performance API marks:
 *   - mount → form visible: the bench page's own mark `svc:mount` right before `SvcWidget.mount()` (the loader has
 *     no bytes to spare for a mark of its own) → the frame's `svc:form-visible`, the frame's time brought onto the
 *     page's timeline through the difference of their `performance.timeOrigin`;
 *   - submit → plans visible: the frame's `svc:quote-submitted` → `svc:plans-visible`, both on the frame's timeline
 *     (apps/widget-iframe/frame/src/marks.ts).
 * The baselines: for mount → form, an empty document of the widget's origin in an iframe, painted (what any
 * cross-origin iframe costs); for submit → plans, a bare page making the same two API calls (POST /api/embed/quote, then GET /api/embed/options on the
 * widget's schedule) and writing the plan names into its DOM, no widget. Every run gets a fresh browser context (cold
 * cache) on the demo operator's origin; widget and bare runs alternate. No assertion on time anywhere.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { CHROMIUM, launchChromium } from '@expedition/platform/chromium';
import { freePorts, withoutEndpoints } from '@expedition/platform/testing';

const root = path.resolve(__dirname, '..', '..');
const WAIT_MS = 30_000;

export interface WidgetSample {
  /** mount → form visible, ms. */
  form: number;
  /** Where mount → form went, ms after the mount mark: the frame's navigation starts, its document has arrived,
   * its scripts have run (DOMContentLoaded: module scripts are deferred). */
  frameStart: number;
  documentArrived: number;
  scriptsRun: number;
  /** submit → plans visible, ms. */
  plans: number;
}

export interface WidgetTiming {
  widget: WidgetSample[];
  /** The bare page: both API calls → the plans in its DOM, ms. */
  bare: number[];
  /** The bare page: an empty document of the widget's origin in an iframe → painted, ms (the floor under mount). */
  bareFrame: number[];
  /** Responses 429 (the demo key's 60 requests a minute): a run that waited for Retry-After is not comparable. */
  rateLimited: number;
}

/** Why the timing cannot run on this machine, or undefined. */
export function timingUnavailable(): string | undefined {
  return existsSync(CHROMIUM) ? undefined : `Chromium not found at ${CHROMIUM} (set CHROMIUM_PATH)`;
}

interface Platform {
  embedUrl: string;
  widgetUrl: string;
  demoUrl: string;
  key: string;
  stop(): Promise<void>;
}

/** `npm start`'s launcher in one process (tsx as a loader), nothing inherited that locates a service. */
async function startPlatform(): Promise<Platform> {
  const free = await freePorts(6);
  const [quote, embed, widget, portal, dispatcher, demo] = free as [number, number, number, number, number, number];
  const url = (port: number) => `http://localhost:${port}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'expedition-bench-widget-'));
  const env: NodeJS.ProcessEnv = {
    ...withoutEndpoints(process.env),
    DATA_DIR: dataDir,
    QUOTE_API_PORT: String(quote),
    EMBED_API_PORT: String(embed),
    WIDGET_PORT: String(widget),
    PORTAL_PORT: String(portal),
    DISPATCHER_PORT: String(dispatcher),
    DEMO_PORT: String(demo),
    LOG_LEVEL: 'warn',
    NODE_OPTIONS: '',
    TSX_TSCONFIG_PATH: 'tools/tsconfig.json',
  };
  let output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'tools/launcher/main.ts'], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const deadline = Date.now() + 120_000;
    for (const port of free) {
      while (
        !(await fetch(`${url(port)}/healthz`).then(
          (r) => r.ok,
          () => false,
        ))
      ) {
        if (child.exitCode !== null || Date.now() > deadline)
          throw new Error(`the launcher did not start:\n${output.slice(-2000)}`);
        await new Promise((r) => setTimeout(r, 250));
      }
    }
    const { publishableKey } = JSON.parse(readFileSync(path.join(dataDir, 'demo-operator.json'), 'utf8'));
    return { embedUrl: url(embed), widgetUrl: url(widget), demoUrl: url(demo), key: publishableKey, stop };
  } catch (err) {
    await stop();
    throw err;
  }
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

/**
 * Runs in the bare page (a string: the bench's tsconfig has no DOM typings). Polls on the widget's schedule (at once,
 * then 0.5 s doubling to 5 s: apps/widget-iframe/frame/src/polling.ts), so the ratio is the widget's own cost.
 */
const BARE_SCRIPT = (embedUrl: string, key: string) => `(async () => {
  const t0 = performance.now();
  const headers = { 'Content-Type': 'application/json', 'X-SVC-Publishable-Key': ${JSON.stringify(key)} };
  const quote = await (await fetch(${JSON.stringify(embedUrl)} + '/api/embed/quote', { method: 'POST', headers, body: ${JSON.stringify(JSON.stringify(TRIP))} })).json();
  let options;
  for (let delay = 0; ; ) {
    const res = await fetch(${JSON.stringify(embedUrl)} + '/api/embed/options?quoteId=' + encodeURIComponent(quote.quoteId), { headers });
    if (res.status === 429) { await new Promise((r) => setTimeout(r, 1000 * Number(res.headers.get('Retry-After') || 1))); continue; }
    options = await res.json();
    if (!options.pending) break;
    delay = Math.min(Math.max(delay * 2, 500), 5000);
    await new Promise((r) => setTimeout(r, delay));
  }
  const list = document.createElement('ul');
  for (const o of options.options) { const li = document.createElement('li'); li.textContent = o.name + ' ' + o.premiumCents; list.append(li); }
  document.body.append(list);
  await new Promise((r) => requestAnimationFrame(() => r()));
  return performance.now() - t0;
})()`;

/**
 * A page of the demo operator's origin (the key's allowed origin), answered by Playwright's router. The route is
 * removed once the page has loaded: while a page has any route, Playwright holds every request of the page (the
 * frame's included) until its own process has looked at it, 25–75 ms each on a loaded machine, which no browser of a
 * traveler pays.
 */
async function pageAt(context: BrowserContext, pageUrl: string, head: string): Promise<Page> {
  const page = await context.newPage();
  await page.route(pageUrl, (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><html lang="en"><head><title>bench</title>${head}</head><body><div id="w"></div></body></html>`,
    }),
  );
  await page.goto(pageUrl);
  await page.unrouteAll();
  return page;
}

/** A frame mark's time on the host page's timeline (ms), or null while the frame has not set it. */
const FRAME_MARK = (name: string, which: 'first' | 'last') => `(() => {
  const marks = performance.getEntriesByName(${JSON.stringify(name)}, 'mark');
  const m = marks[${which === 'first' ? '0' : 'marks.length - 1'}];
  return m ? { at: m.startTime, origin: performance.timeOrigin } : null;
})()`;
type MarkTime = { at: number; origin: number } | null;

async function widgetRun(context: BrowserContext, platform: Platform): Promise<WidgetSample> {
  const page = await pageAt(
    context,
    `${platform.demoUrl}/__bench`,
    `<script src="${platform.widgetUrl}/widget.js"></script>`,
  );
  await page.evaluate(`(() => {
    window.__ready = false;
    SvcWidget.once('quote.ready', () => { window.__ready = true; });
    SvcWidget.on('quote.error', (e) => { window.__error = e.code; });
    performance.mark('svc:mount');
    SvcWidget.mount('#w', Object.assign({ publishableKey: ${JSON.stringify(platform.key)}, tier: 3 }, ${JSON.stringify(TRIP)}));
  })()`);
  await page.waitForFunction(`window.__ready || window.__error`, undefined, { timeout: WAIT_MS });
  const error = await page.evaluate('window.__error');
  if (error) throw new Error(`the widget answered quote.error ${String(error)}`);
  const mount = (await page.evaluate(FRAME_MARK('svc:mount', 'first'))) as MarkTime;
  const frame = page.frames().find((f) => f.url().startsWith(`${platform.widgetUrl}/frame`));
  if (!frame || !mount) throw new Error('the widget frame or the svc:mount mark is missing');
  const formVisible = (await frame.evaluate(FRAME_MARK('svc:form-visible', 'first'))) as MarkTime;
  if (!formVisible) throw new Error('the frame set no svc:form-visible mark (a bundle built before the marks?)');
  const navigation = await frame.evaluate(() => {
    // The DOM's PerformanceNavigationTiming (the tools project compiles with Node's types only).
    const n = performance.getEntriesByType('navigation' as never)[0] as unknown as
      { responseEnd: number; domContentLoadedEventEnd: number } | undefined;
    return n ? { responseEnd: n.responseEnd, domContentLoaded: n.domContentLoadedEventEnd } : null;
  });

  await frame.evaluate(`document.querySelector('form button[type=submit]').click()`);
  // A function, not a string: the iframe's CSP forbids eval.
  await frame.waitForFunction(() => performance.getEntriesByName('svc:plans-visible', 'mark').length > 0, undefined, {
    timeout: WAIT_MS,
  });
  const submitted = (await frame.evaluate(FRAME_MARK('svc:quote-submitted', 'last'))) as MarkTime;
  const plansVisible = (await frame.evaluate(FRAME_MARK('svc:plans-visible', 'first'))) as MarkTime;
  await page.close();
  if (!submitted || !plansVisible) throw new Error('the frame set no svc:quote-submitted mark');
  const frameStart = formVisible.origin - (mount.origin + mount.at);
  return {
    form: formVisible.origin + formVisible.at - (mount.origin + mount.at),
    frameStart,
    documentArrived: frameStart + (navigation?.responseEnd ?? NaN),
    scriptsRun: frameStart + (navigation?.domContentLoaded ?? NaN),
    plans: plansVisible.at - submitted.at,
  };
}

/**
 * What any cross-origin iframe costs before a line of ours runs: an iframe on the widget's host name (another port,
 * so cross-origin and same-site as the widget's frame; on loopback both share the page's renderer process) with an
 * empty document that reports its second animation frame, as the frame's `svc:form-visible` comes after the paint.
 * It is served by a plain loopback server (`serveEmptyFrame`), not by Playwright's router, for the reason in pageAt.
 */
const EMPTY_FRAME = `<!doctype html><html lang="en"><title>empty</title><p>form</p><script>
requestAnimationFrame(() => requestAnimationFrame(() => parent.postMessage('painted', '*')));
</script></html>`;
const BARE_FRAME_SCRIPT = (src: string) => `new Promise((resolve) => {
  const t0 = performance.now();
  addEventListener('message', (e) => e.data === 'painted' && resolve(performance.now() - t0), { once: true });
  const frame = document.createElement('iframe');
  frame.src = ${JSON.stringify(src)};
  document.body.append(frame);
})`;

/** The empty frame's server, on the widget's host name; its URL. */
async function serveEmptyFrame(widgetUrl: string): Promise<{ url: string; server: Server }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
    res.end(EMPTY_FRAME);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = new URL(widgetUrl);
  url.port = String((server.address() as { port: number }).port);
  url.pathname = '/__bench-empty';
  return { url: url.href, server };
}

async function bareRun(
  context: BrowserContext,
  platform: Platform,
  emptyUrl: string,
): Promise<{ plans: number; frame: number }> {
  const page = await pageAt(context, `${platform.demoUrl}/__bare`, '');
  const frame = (await page.evaluate(BARE_FRAME_SCRIPT(emptyUrl))) as number;
  const plans = (await page.evaluate(BARE_SCRIPT(platform.embedUrl, platform.key))) as number;
  await page.close();
  return { plans, frame };
}

/**
 * `runs` widget runs and `runs` bare runs, alternating, after `warmups` of each not counted (server JIT, first
 * database reads). Needs the bundles built (dist/browser/widget-loader, dist/browser/widget-frame).
 */
export async function measureWidgetTiming({ runs, warmups }: { runs: number; warmups: number }): Promise<WidgetTiming> {
  const platform = await startPlatform();
  const empty = await serveEmptyFrame(platform.widgetUrl);
  try {
    const browser = await launchChromium([
      // The bench pages are answered by Playwright's router on the demo origin (the key's allowed origin); Chromium
      // would refuse their requests to loopback servers (local network access checks) as from a public page.
      '--disable-features=LocalNetworkAccessChecks,PrivateNetworkAccessChecks,BlockInsecurePrivateNetworkRequests',
    ]);
    try {
      const timing: WidgetTiming = { widget: [], bare: [], bareFrame: [], rateLimited: 0 };
      for (let i = 0; i < warmups + runs; i++) {
        for (const which of i % 2 ? (['bare', 'widget'] as const) : (['widget', 'bare'] as const)) {
          const context = await browser.newContext();
          context.on('response', (res) => void (res.status() === 429 && timing.rateLimited++));
          try {
            if (which === 'widget') {
              const sample = await widgetRun(context, platform);
              if (i >= warmups) timing.widget.push(sample);
            } else {
              const bare = await bareRun(context, platform, empty.url);
              if (i >= warmups) {
                timing.bare.push(bare.plans);
                timing.bareFrame.push(bare.frame);
              }
            }
          } finally {
            await context.close();
          }
        }
      }
      return timing;
    } finally {
      await browser.close();
    }
  } finally {
    empty.server.close();
    await platform.stop();
  }
}
