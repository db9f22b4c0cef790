import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { describeWithChromium, launchChromium, runAxe } from '@expedition/platform/chromium';
import { buildLoader, POST_MESSAGE_PROBE, startStubWidget, type StubWidget } from './widget-stub-frame';

/**
 * The loader's fallback (loader 1.1.0) in real Chromium against the stub frame of widget-stub-frame.ts: a frame that
 * loaded but never said hello (refused by its `frame-ancestors`, or by the page's own CSP `frame-src`) is replaced by
 * a link to the hosted quote page (Tier 1) with the trip's parameters, named by MountConfig.title, and
 * `widget.error` `frame_refused` is emitted once. Screenshots in SCREENSHOT_DIR (default: a temporary directory).
 */
const SHOTS = process.env.SCREENSHOT_DIR ?? path.join(tmpdir(), 'expedition-loader-fallback');
const KEY = `pk_op_test_${'cd'.repeat(24)}`;
const TITLE = 'Reiseversicherung für diese Reise';
const TRIP = {
  destination: 'South Georgia',
  startDate: '2027-01-22',
  endDate: '2027-02-02',
  tripCost: 29800,
  travelers: 2,
  travelerAges: [46, 71],
  residence: 'GB',
  currency: 'GBP',
  locale: 'de-DE',
  email: 'traveler@example.com',
  name: 'Ada Lovelace',
};

type Recorded = { name: string; event: Record<string, unknown> };

describeWithChromium()("the widget loader's fallback link when the frame is refused (Chromium, stub frame)", () => {
  let stub: StubWidget;
  let browser: Browser;

  beforeAll(async () => {
    buildLoader();
    mkdirSync(SHOTS, { recursive: true });
    stub = await startStubWidget();
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await stub?.stop();
  });

  /** `bypassCSP` lets axe in (the host page's CSP forbids inline scripts); frame-ancestors still applies. */
  async function hostPage(url: string, viewport = { width: 1280, height: 800 }, bypassCSP = false) {
    const context = await browser.newContext({ viewport, bypassCSP });
    await context.addInitScript(POST_MESSAGE_PROBE);
    const page = await context.newPage();
    const consoleErrors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()));
    await page.goto(url);
    return { page, consoleErrors };
  }

  /** Mounts into `target`, recording every event (global handlers); returns the instance id. */
  const mount = (page: Page, target: string, config: Record<string, unknown>) =>
    page.evaluate(
      ({ target, config }) => {
        const w = window as any;
        if (!w.__events) {
          w.__events = [];
          w.__handles = {};
          for (const name of ['quote.ready', 'quote.error', 'widget.ready', 'widget.error'])
            w.SvcWidget.on(name, (event: unknown) => w.__events.push({ name, event }));
        }
        const handle = w.SvcWidget.mount(target, config);
        w.__handles[handle.instanceId] = handle;
        return handle.instanceId as string;
      },
      { target, config },
    );
  const events = (page: Page): Promise<Recorded[]> => page.evaluate(() => (window as any).__events);
  const waitForEvent = (page: Page, name: string) =>
    page.waitForFunction((name) => (window as any).__events.some((e: Recorded) => e.name === name), name);
  const fallback = (page: Page, id: string) => page.locator(`a[data-svc-instance="${id}"]`);
  const hostedParams = (href: string) => {
    const url = new URL(href);
    return { at: url.origin + url.pathname, params: Object.fromEntries(url.searchParams) };
  };

  it('a page on an origin the frame refuses: the iframe becomes a link to the hosted quote page with the trip, named by title; widget.error frame_refused once', async () => {
    const { page, consoleErrors } = await hostPage(stub.otherHostUrl);
    const started = Date.now();
    // The refusal's timer (3 s after load) and the load timeout (3.5 s) both run out: one widget.error all the same.
    const id = await mount(page, '#a', { publishableKey: KEY, title: TITLE, loadTimeoutMs: 3500, ...TRIP });
    await waitForEvent(page, 'widget.error');
    await page.waitForTimeout(Math.max(0, 4500 - (Date.now() - started)));

    expect(await events(page)).toEqual([
      {
        name: 'widget.error',
        event: { code: 'frame_refused', message: expect.stringContaining(stub.otherHostUrl), instanceId: id },
      },
    ]);
    expect(consoleErrors.filter((m) => m.startsWith('SvcWidget:'))).toEqual([
      `SvcWidget: frame refused: is ${stub.otherHostUrl} an allowed origin of the key?`,
    ]);
    // The link took the iframe's place in the container; its accessible name is the operator's title.
    expect(await page.evaluate(() => document.querySelectorAll('iframe').length)).toBe(0);
    expect(await page.evaluate(() => Array.from(document.querySelector('#a')!.children, (c) => c.tagName))).toEqual([
      'A',
    ]);
    const link = page.getByRole('link', { name: TITLE });
    expect(await link.getAttribute('data-svc-instance')).toBe(id);
    // The hosted page's parameters only (api-map: prefillFromQuery): never the traveler's e-mail, name or ages.
    expect(hostedParams((await link.getAttribute('href'))!)).toEqual({
      at: `${stub.widgetUrl}/quote`,
      params: {
        pk: KEY,
        locale: 'de-DE',
        destination: 'South Georgia',
        startDate: '2027-01-22',
        endDate: '2027-02-02',
        tripCost: '29800',
        travelers: '2',
        residence: 'GB',
        currency: 'GBP',
      },
    });
    // It is an ordinary link: the same tab, our hosted page (answered here by the test).
    const hosted = (url: URL) => url.origin === stub.widgetUrl && url.pathname === '/quote';
    await page.route(hosted, (route) =>
      route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>hosted quote</title>' }),
    );
    await link.click();
    await page.waitForURL(hosted);
    expect(hostedParams(page.url()).params['destination']).toBe('South Georgia');
    await page.context().close();
  });

  it.each([390, 1280])(
    'the fallback has no WCAG 2.1 A/AA violation (axe) at %i px, without a title too',
    async (width) => {
      const { page } = await hostPage(stub.otherHostUrl, { width, height: 700 }, true);
      // A trip page around the widget, as an operator's would be (built by script: the host's CSP has no inline style).
      await page.evaluate(() => {
        const main = document.querySelector('main')!;
        main.querySelector('h1')!.textContent = 'South Georgia & Antarctic Peninsula, 12 nights';
        const intro = document.createElement('p');
        intro.textContent = 'Departs 22 January 2027 from Ushuaia. Protect your trip:';
        main.insertBefore(intro, document.querySelector('#a'));
        main.style.cssText =
          'font: 16px/1.5 system-ui, sans-serif; max-width: 720px; margin: 24px auto; padding: 0 16px';
      });
      const id = await mount(page, '#a', { publishableKey: KEY, ...TRIP });
      await waitForEvent(page, 'widget.error');
      const link = fallback(page, id);
      await expect(link.textContent()).resolves.toBe('Travel insurance quote');
      await page.screenshot({ path: path.join(SHOTS, `loader-fallback-${width}.png`), fullPage: true });
      await link.focus();
      await page.screenshot({ path: path.join(SHOTS, `loader-fallback-focus-${width}.png`) });
      expect((await runAxe(page, { frames: true })).violations).toEqual([]);
      await page.context().close();
    },
  );

  it('a host page whose own CSP frame-src leaves the widget out gets the link as well', async () => {
    const { page } = await hostPage(`${stub.hostUrl}/no-frame-src`);
    const id = await mount(page, '#a', { pk: KEY, destination: 'Antarctica' });
    await waitForEvent(page, 'widget.error');
    expect((await events(page)).map((e) => e.event['code'])).toEqual(['frame_refused']);
    expect(hostedParams((await fallback(page, id).getAttribute('href'))!).params).toEqual({
      pk: KEY,
      destination: 'Antarctica',
    });
    await page.context().close();
  });

  it('after the refusal, update() and a second mount keep the link current; destroy() removes it, also from a widget.error handler', async () => {
    const { page } = await hostPage(stub.otherHostUrl);
    const id = await mount(page, '#a', { publishableKey: KEY, destination: 'Arctic' });
    await waitForEvent(page, 'widget.error');
    await page.evaluate((id) => (window as any).__handles[id].update({ startDate: '2027-03-01', title: 'Insure' }), id);
    const link = fallback(page, id);
    expect(await link.textContent()).toBe('Insure');
    expect(hostedParams((await link.getAttribute('href'))!).params).toEqual({
      pk: KEY,
      destination: 'Arctic',
      startDate: '2027-03-01',
    });
    // React StrictMode's second mount: the same handle, no iframe comes back.
    expect(await mount(page, '#a', { publishableKey: KEY, destination: 'Svalbard' })).toBe(id);
    expect(hostedParams((await link.getAttribute('href'))!).params['destination']).toBe('Svalbard');
    expect(await page.evaluate(() => document.querySelectorAll('#a > *').length)).toBe(1);
    await page.evaluate((id) => (window as any).__handles[id].destroy(), id);
    expect(await page.evaluate(() => document.querySelectorAll('#a > *').length)).toBe(0);

    // A page that shows its own fallback: its widget.error handler destroys the handle (the link is already there).
    const other = await page.evaluate((key) => {
      const w = window as any;
      const handle = w.SvcWidget.mount('#b', { publishableKey: key });
      handle.once('widget.error', () => {
        w.__linkSeenByHandler = document.querySelectorAll('#b a[data-svc-instance]').length;
        handle.destroy();
        document.querySelector('#b')!.textContent = 'Our own insurance offer';
      });
      return handle.instanceId as string;
    }, KEY);
    await page.waitForFunction(() => (window as any).__linkSeenByHandler !== undefined);
    expect(
      await page.evaluate(() => [(window as any).__linkSeenByHandler, document.querySelector('#b')!.innerHTML]),
    ).toEqual([1, 'Our own insurance offer']);
    expect(await fallback(page, other).count()).toBe(0);
    await page.context().close();
  });

  it('frame_timeout (the frame never loads) leaves the frame where it is: no link, it may still arrive', async () => {
    const { page } = await hostPage(stub.hostUrl);
    const id = await mount(page, '#a', { publishableKey: 'pk_stub_hang', loadTimeoutMs: 1500 });
    await waitForEvent(page, 'widget.error');
    expect((await events(page)).map((e) => e.event['code'])).toEqual(['frame_timeout']);
    expect(await page.locator(`#a iframe[data-svc-instance="${id}"]`).count()).toBe(1);
    expect(await fallback(page, id).count()).toBe(0);
    await page.context().close();
  });
});
