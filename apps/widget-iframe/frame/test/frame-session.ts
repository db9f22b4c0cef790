import { existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Browser, type BrowserContext, type Frame, type Page } from 'playwright-core';
import { describeWithChromium, launchChromium } from '@expedition/platform/chromium';
import { startWorld, type World } from './harness';
import { DIST, type WorldUrls } from './world-config';

/**
 * What the widget frame's Chromium suites share: whether Chromium and the bundle are there, a world (harness.ts) on
 * the suite's own ports with Chromium, and the steps every test takes (a host page, an embedded frame, the messages
 * the host received, a quote). Screenshots go to $TMPDIR/expedition-screens/.
 */
export const describeWithBrowser = describeWithChromium({
  present: existsSync(path.join(DIST, 'manifest.json')),
  missing: 'dist/browser/widget-frame not built (npx nx run widget-frame:bundle)',
});
export const SHOTS = path.join(tmpdir(), 'expedition-screens');

export const YEAR = new Date().getUTCFullYear() + 1;
export const PREFILL = {
  destination: 'antarctica',
  startDate: `${YEAR}-01-10`,
  endDate: `${YEAR}-01-24`,
  travelers: 2,
  travelerAges: [45, 72],
  tripCost: 24000,
  residence: 'US',
  state: 'CA',
  email: 'ana@example.com',
  name: 'Ana Traveler',
};

export interface Received {
  type: string;
  instanceId: string;
  payload?: Record<string, unknown>;
  version?: string;
  height?: number;
}

/** Starts the world on `urls` and Chromium before the suite, resets the fake embed API before each test. */
export function useFrameSession(urls: WorldUrls) {
  let world: World;
  let browser: Browser;
  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    world = await startWorld(urls);
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await world?.close();
  });
  beforeEach(() => {
    world.requests.length = 0;
    world.scenario.pendingPolls = 1;
    world.scenario.options429Once = false;
    world.scenario.quoteGate = undefined;
    world.bootOverrides.clear();
  });

  async function host(
    opts: { width?: number; bypassCSP?: boolean } = {},
  ): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
    const context = await browser.newContext({
      viewport: { width: opts.width ?? 1280, height: 900 },
      bypassCSP: opts.bypassCSP ?? false,
    });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(urls.HOST);
    return { context, page, errors };
  }

  async function embed(
    page: Page,
    key: string,
    instance: string,
    config: Record<string, unknown>,
    opts: Record<string, unknown> = {},
  ): Promise<Frame> {
    await page.evaluate(([k, i, c, o]) => (window as any).embed(k, i, c, o), [key, instance, config, opts] as const);
    const failed: string[] = [];
    page.on('requestfailed', (r) => failed.push(`${r.url()}: ${r.failure()?.errorText}`));
    page.on('console', (m) => m.type() === 'error' && failed.push(m.text()));
    await page
      .waitForFunction(
        (i) => (window as any).received.some((m: Received) => m.type === 'svc:frame.hello' && m.instanceId === i),
        instance,
        { timeout: 20_000 },
      )
      .catch(async (error: Error) => {
        const html = await page
          .frames()
          .find((f) => f.url().includes(`instance=${instance}`))
          ?.content();
        throw new Error(`${error.message}\nframe: ${html?.slice(0, 600)}\nfailures: ${failed.join(' | ')}`);
      });
    const frame = page.frames().find((f) => f.url().includes(`instance=${instance}`));
    if (!frame) throw new Error('no frame');
    return frame;
  }

  const received = (page: Page): Promise<Received[]> => page.evaluate(() => (window as any).received);
  const events = async (page: Page, type: string) => (await received(page)).filter((m) => m.type === type);
  async function waitForEvent(page: Page, type: string, predicate = 'true'): Promise<Received> {
    const handle = await page.waitForFunction(
      ([t, p]) =>
        (window as any).received.filter((m: Received) => m.type === t && new Function('m', `return ${p}`)(m)).pop(),
      [type, predicate] as const,
      { timeout: 20_000 },
    );
    return (await handle.jsonValue()) as Received;
  }

  async function quote(frame: Frame): Promise<void> {
    await frame.click('button[type=submit]');
    await frame.waitForSelector('.svc-plan[data-plan-id]', { timeout: 20_000 });
  }

  return {
    get world() {
      return world;
    },
    get browser() {
      return browser;
    },
    host,
    embed,
    received,
    events,
    waitForEvent,
    quote,
  };
}
