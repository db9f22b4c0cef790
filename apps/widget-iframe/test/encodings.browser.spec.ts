import { existsSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import express from 'express';
import type { Browser } from 'playwright-core';
import { describeWithChromium, launchChromium } from '@expedition/platform/chromium';
import { defaultAssetDirs } from '../src/config';
import { loadPinnedReleases } from '../src/loader-channels';
import { createHarness, seedKey, seedOperator, type Harness } from './harness';

/**
 * Chromium loads the REAL loader and frame builds from this server, brotli-encoded, and the widget renders its form:
 * the encodings are not only correct bytes on the wire (encodings.api.spec.ts) but what a browser decodes and runs.
 * Ephemeral ports: the widget server on `localhost`, the operator's page on `127.0.0.1` (another origin).
 */
const dirs = defaultAssetDirs(path.join(__dirname, '..', 'src'));
const built =
  existsSync(path.join(dirs.frameDir, 'manifest.json')) && existsSync(path.join(dirs.loaderDir, 'widget.js'));
const describeRunnable = describeWithChromium({
  present: built,
  missing: 'the browser bundles are not built (npx nx run-many -t bundle)',
});

/** The page's global object, as the functions evaluated in Chromium see it (this project compiles without DOM typings). */
declare const window: {
  __events: Array<{ name: string; event: unknown }>;
  SvcWidget: {
    on(name: string, fn: (e: unknown) => void): unknown;
    mount(target: string, config: Record<string, unknown>): unknown;
  };
};

describeRunnable('the widget in Chromium, served brotli-encoded', () => {
  let h: Harness;
  let browser: Browser;
  const servers: Server[] = [];
  let widgetUrl: string;
  let pageUrl: string;
  let key: string;

  const listen = async (app: express.Express, host: string) => {
    const server = app.listen(0, host);
    servers.push(server);
    await new Promise((resolve) => server.once('listening', resolve));
    return (server.address() as AddressInfo).port;
  };

  beforeAll(async () => {
    h = await createHarness({
      deps: { loaderDir: dirs.loaderDir, frameDir: dirs.frameDir, releases: loadPinnedReleases(dirs.releasesDir) },
    });
    widgetUrl = `http://localhost:${await listen(h.app, '127.0.0.1')}`;
    const page = express();
    page.get('/', (_req, res) => {
      res
        .type('html')
        .send(`<!doctype html><title>Tours</title><div id="w"></div><script src="${widgetUrl}/widget.js"></script>`);
    });
    pageUrl = `http://127.0.0.1:${await listen(page, '127.0.0.1')}`;
    key = await seedKey(h.prisma, await seedOperator(h.prisma, { origins: [pageUrl] }), 'test');
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
    await h?.close();
  });

  it('loads the loader and every asset of the frame as brotli, and the form renders (quote.ready)', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const encodings = new Map<string, string | undefined>();
    page.on('response', (res) => {
      const url = new URL(res.url());
      if (url.origin === widgetUrl && (url.pathname === '/widget.js' || url.pathname.startsWith('/assets/'))) {
        encodings.set(url.pathname, res.headers()['content-encoding']);
      }
    });
    await page.goto(pageUrl);
    await page.evaluate((key) => {
      const w = window;
      w.__events = [];
      for (const name of ['widget.ready', 'widget.error', 'quote.ready', 'quote.error'])
        w.SvcWidget.on(name, (e: unknown) => w.__events.push({ name, event: e }));
      w.SvcWidget.mount('#w', { publishableKey: key, loadTimeoutMs: 20_000 });
    }, key);
    await page.waitForFunction(
      () => window.__events.some((e) => e.name === 'quote.ready' || e.name.endsWith('.error')),
      undefined,
      { timeout: 30_000 },
    );
    const events = await page.evaluate(() => window.__events.map((e) => e.name));
    expect(events).toContain('quote.ready');
    expect(events.filter((name: string) => name.endsWith('.error'))).toEqual([]);
    const frame = page.frames().find((f) => f.url().startsWith(`${widgetUrl}/frame`));
    expect(frame).toBeDefined();
    expect(await frame!.locator('form').first().isVisible()).toBe(true);

    expect(encodings.get('/widget.js')).toBe('br');
    const assets = [...encodings].filter(([pathname]) => pathname.startsWith('/assets/'));
    expect(assets.length).toBeGreaterThanOrEqual(2); // the entry script and the stylesheet
    for (const [, encoding] of assets) expect(encoding).toBe('br');
    await context.close();
  });
});
