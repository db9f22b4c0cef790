import { existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Frame, type Page } from 'playwright-core';
import { noteSkippedSuite } from '@expedition/platform/testing';
import { CERTIFICATE, DIST, EMBED, FOREIGN, HOST, KEYS, startWorld, WIDGET, type World } from './harness';

/**
 * The iframe UI in real Chromium: the real bundle in a document with a strict CSP, embedded by a host page on another
 * origin, against a fake embed API. Protocol, quoting, plan cards, the three tiers, every quote.error code, refusals,
 * message filtering, and axe-core on every screen (screenshots in $TMPDIR/expedition-screens/).
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const available = existsSync(CHROMIUM) && existsSync(path.join(DIST, 'manifest.json'));
if (!available && process.env.REQUIRE_SERVICES === '1')
  throw new Error(`Chromium (${CHROMIUM}) or the widget-frame bundle is missing (REQUIRE_SERVICES=1)`);
if (!available)
  noteSkippedSuite(
    `Chromium not found at ${CHROMIUM} or dist/browser/widget-frame not built (npx nx run widget-frame:bundle)`,
  );
const describeWithBrowser = available ? describe : describe.skip;
const SHOTS = path.join(tmpdir(), 'expedition-screens');

const YEAR = new Date().getUTCFullYear() + 1;
const PREFILL = {
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

interface Received {
  type: string;
  instanceId: string;
  payload?: Record<string, unknown>;
  version?: string;
  height?: number;
}

describeWithBrowser('the widget iframe UI in Chromium', () => {
  let world: World;
  let browser: Browser;
  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    world = await startWorld();
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
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
    await page.goto(HOST);
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

  it('says hello, fetches nothing and shows nothing before init, ignores forged inits, then renders and emits quote.ready', async () => {
    const { page, context, errors } = await host();
    const frame = await embed(page, KEYS.tier3, 'w1', { prefill: PREFILL }, { holdInit: true });
    const [hello] = await events(page, 'svc:frame.hello');
    expect(hello).toEqual({ type: 'svc:frame.hello', instanceId: 'w1', version: '1.0.0' });

    // Forged inits: a sibling frame of the parent's own origin (right origin, wrong window) and a foreign origin.
    await page.evaluate(
      ([foreign]) => {
        for (const src of [`${location.origin}/poster`, `${foreign}/poster`]) {
          const f = document.createElement('iframe');
          f.src = src;
          f.style.display = 'none';
          document.body.append(f);
        }
      },
      [FOREIGN] as const,
    );
    await page.waitForFunction(
      () =>
        document.querySelectorAll('iframe').length === 3 &&
        [...document.querySelectorAll('iframe')].every((f) => (f as HTMLIFrameElement).contentDocument !== undefined),
    );
    for (const origin of [HOST, FOREIGN]) {
      const poster = await page
        .waitForEvent('framenavigated', { predicate: (f) => f.url() === `${origin}/poster`, timeout: 5000 })
        .catch(() => page.frames().find((f) => f.url() === `${origin}/poster`)!);
      await poster.waitForLoadState();
      await poster.evaluate(() =>
        parent.frames[0]!.postMessage({ type: 'svc:frame.init', instanceId: 'w1', config: { tier: 3 } }, '*'),
      );
    }
    // A round trip through the frame's event loop: the forged messages were delivered before this evaluate returns.
    await frame.evaluate(() => new Promise((r) => setTimeout(r, 0)));
    expect(await frame.locator('form').count()).toBe(0);
    expect(world.requests).toEqual([]);
    expect((await received(page)).map((m) => m.type)).toEqual(['svc:frame.hello']);

    await page.evaluate(() => (window as any).sendInit('w1'));
    await frame.waitForSelector('form[aria-label="Trip details"]');
    const ready = await waitForEvent(page, 'svc:quote.ready');
    expect(ready.payload).toEqual({});
    expect(await frame.inputValue('#svc-email')).toBe('ana@example.com');
    expect(await frame.inputValue('#svc-destination')).toBe('antarctica');
    expect(world.requests).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('Tier 3 journey: quote → polling → cards (recommended first) → quote.selected in integer cents → decline → authenticate → paid', async () => {
    world.scenario.options429Once = true;
    const { page, context, errors } = await host();
    const frame = await embed(page, KEYS.tier3, 'w1', { prefill: PREFILL, locale: 'en-US' });
    await frame.waitForSelector('form');
    await quote(frame);

    const readies = await events(page, 'svc:quote.ready');
    const quoteId = readies[1]!.payload!['quoteId'];
    expect(typeof quoteId).toBe('string');
    await waitForEvent(page, 'svc:quote.ready', 'm.payload.plansCount === 3');
    expect((await events(page, 'svc:quote.ready')).map((m) => m.payload)).toEqual([
      {},
      { quoteId },
      { quoteId, plansCount: 3 },
    ]);
    // The 429 of the first poll was honoured, then polling went on (and every request carried the key).
    const polls = world.requests.filter((r) => r.path === '/options');
    expect(polls.length).toBeGreaterThanOrEqual(2);
    expect(world.requests.every((r) => r.key === KEYS.tier3 && r.origin === WIDGET)).toBe(true);
    expect(world.requests[0]!.body).toEqual({
      destination: 'antarctica',
      startDate: PREFILL.startDate,
      endDate: PREFILL.endDate,
      travelers: 2,
      travelerAges: [45, 72],
      tripCost: 24000,
      currency: 'USD',
      residence: 'US',
      state: 'CA',
      email: 'ana@example.com',
      name: 'Ana Traveler',
      locale: 'en',
    });

    const ids = await frame.$$eval('.svc-plan[data-plan-id]', (els) => els.map((e) => e.getAttribute('data-plan-id')));
    expect(ids).toEqual(['polar-shield-standard', 'austral-voyager-basic', 'meridian-private-charter']);
    expect(await frame.textContent('.svc-plan--recommended')).toContain('$412.34');
    expect(await frame.textContent('.svc-plans')).toContain('not a binding contract');

    // A click on a card, twice (every click fires), then the keyboard way.
    await frame.click('[data-plan-id="austral-voyager-basic"] .svc-plan__limits');
    await frame.click('[data-plan-id="austral-voyager-basic"] .svc-plan__limits');
    await frame.focus('[data-plan-id="meridian-private-charter"] button[aria-pressed]');
    await frame.page().keyboard.press('Enter');
    const selected = await events(page, 'svc:quote.selected');
    expect(selected.map((m) => m.payload)).toEqual([
      { planId: 'austral-voyager-basic', premiumCents: 28950, currency: 'USD' },
      { planId: 'austral-voyager-basic', premiumCents: 28950, currency: 'USD' },
      { planId: 'meridian-private-charter', premiumCents: 61875, currency: 'USD' },
    ]);
    expect(selected.every((m) => Number.isInteger(m.payload!['premiumCents']) && !('quoteId' in m.payload!))).toBe(
      true,
    );
    // An inquiry plan has no Buy button.
    expect(await frame.locator('[data-plan-id="meridian-private-charter"] button', { hasText: 'Buy' }).count()).toBe(0);

    await frame.click('[data-plan-id="polar-shield-standard"] button:has-text("Buy")');
    await frame.waitForSelector('#svc-card-number');
    expect(await frame.textContent('.svc-test-cards')).toContain('4242 4242 4242 4242');
    const pay = async (card: string) => {
      await frame.fill('#svc-card-number', card);
      await frame.fill('#svc-card-expiry', '12/30');
      await frame.fill('#svc-card-cvc', '123');
      await frame.click('.svc-card-form button[type=submit]');
    };
    await pay('4000 0000 0000 0002');
    const failed = await waitForEvent(page, 'svc:payment.failed');
    expect(failed.payload).toEqual({ code: 'generic_decline', message: 'Your card was declined.' });
    await frame.waitForSelector('.svc-card-form [role=alert]');
    expect(await frame.isEnabled('.svc-card-form button[type=submit]')).toBe(true);

    await pay('4000 0025 0000 3155');
    await frame.waitForSelector('text=Authenticate this payment (test)');
    await frame.click('button:has-text("Decline")');
    await waitForEvent(page, 'svc:payment.failed', "m.payload.code === 'payment_intent_authentication_failure'");
    await pay('4000 0025 0000 3155');
    await frame.click('button:has-text("Approve payment")');
    const paid = await waitForEvent(page, 'svc:payment.succeeded');
    expect(paid.payload).toEqual({ quoteId, planId: 'polar-shield-standard', premiumCents: 41234, currency: 'USD' });
    await frame.waitForSelector('.svc-confirmation');
    expect(await frame.textContent('.svc-confirmation')).toContain('$412.34');
    expect(await frame.textContent('.svc-confirmation')).toContain(CERTIFICATE.policyNumber);
    // The certificate (PDF) in a new tab, without a Referer (its URL carries the policy's token).
    const certificate = frame.locator('a.svc-certificate');
    expect(await certificate.textContent()).toBe('Download your certificate (PDF)');
    expect(await certificate.getAttribute('href')).toBe(CERTIFICATE.url);
    expect(await certificate.getAttribute('target')).toBe('_blank');
    expect(await certificate.getAttribute('rel')).toBe('noopener noreferrer');
    expect(await frame.locator('form[aria-label="Trip details"]').count()).toBe(0);

    // Auto-resize: whole CSS pixels, only on change, applied by the host.
    const heights = (await events(page, 'svc:frame.resize')).map((m) => m.height!);
    expect(heights.length).toBeGreaterThan(1);
    expect(heights.every((h) => Number.isInteger(h) && h > 0)).toBe(true);
    expect(heights.every((h, i) => i === 0 || h !== heights[i - 1])).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('Tier 2: Buy asks for the hosted checkout link and opens it in a new tab (and offers the link)', async () => {
    const { page, context } = await host();
    const frame = await embed(page, KEYS.tier2, 'w2', { prefill: PREFILL, tier: 3 });
    await frame.waitForSelector('form');
    await quote(frame);
    const [popup] = await Promise.all([
      context.waitForEvent('page'),
      frame.click('[data-plan-id="polar-shield-standard"] button:has-text("Buy")'),
    ]);
    await popup.waitForLoadState();
    expect(popup.url()).toMatch(new RegExp(`^${EMBED}/checkout/[0-9a-f-]+\\?plan=polar-shield-standard$`));
    expect(await popup.evaluate(() => window.opener)).toBeNull();
    expect(await frame.getAttribute('text=Continue to checkout', 'href')).toBe(popup.url());
    expect(world.requests.find((r) => r.path === '/checkout')?.body).toMatchObject({
      planId: 'polar-shield-standard',
      email: 'ana@example.com',
    });
    expect(await events(page, 'svc:quote.selected')).toHaveLength(1);
    expect(await frame.locator('#svc-card-number').count()).toBe(0);
    await context.close();
  });

  it('Tier 1 in a frame (config.tier 1): cards and events, no Buy', async () => {
    const { page, context } = await host();
    const frame = await embed(page, KEYS.tier3, 'w3', { prefill: PREFILL, tier: 1 });
    await frame.waitForSelector('form');
    await quote(frame);
    expect(await frame.locator('button:has-text("Buy")').count()).toBe(0);
    // The card links the plan's policy wording (a new tab); a card without the link names the underwriter only.
    const wording = frame.locator('[data-plan-id="polar-shield-standard"] .svc-plan__terms a');
    expect(await wording.getAttribute('href')).toBe('http://quote.test/policy-wording/polar-shield-standard');
    expect(await wording.getAttribute('target')).toBe('_blank');
    expect(await frame.locator('[data-plan-id="polar-shield-standard"] .svc-plan__terms').textContent()).toContain(
      'Underwritten by Polar Shield Underwriters Ltd.',
    );
    await frame.click('[data-plan-id="polar-shield-standard"] h3');
    expect((await waitForEvent(page, 'svc:quote.selected')).payload).toEqual({
      planId: 'polar-shield-standard',
      premiumCents: 41234,
      currency: 'USD',
    });
    await context.close();
  });

  it('every failure is a quote.error with a stable code and a message on screen, and the form stays usable', async () => {
    const { page, context } = await host();
    const frame = await embed(page, KEYS.tier3, 'w4', { prefill: PREFILL });
    await frame.waitForSelector('form');
    const lastError = async () => (await events(page, 'svc:quote.error')).pop()?.payload;

    world.scenario.quoteGate = 429;
    await frame.click('button[type=submit]');
    await waitForEvent(page, 'svc:quote.error');
    expect(await lastError()).toEqual({
      code: 'rate_limited',
      message: 'Too many requests right now. Please wait a moment and try again.',
    });
    expect(await frame.textContent('.svc-notice')).toContain('Too many requests');

    // The gate's 401 carries no CORS header: the browser cannot read it, so it is a network failure to the iframe.
    world.scenario.quoteGate = 401;
    await frame.click('button[type=submit]');
    await waitForEvent(page, 'svc:quote.error', "m.payload.code === 'network'");

    await frame.fill('#svc-email', 'quote-error@sandbox.test');
    await frame.click('button[type=submit]');
    await waitForEvent(page, 'svc:quote.error', "m.payload.code === 'quote_refused'");
    expect(await lastError()).toEqual({
      code: 'quote_refused',
      message: 'Sandbox: this test e-mail always fails to quote',
    });
    expect(await frame.textContent('.svc-notice')).toContain('We couldn’t quote this trip');

    // Inline validation: tied to the field, nothing sent.
    const before = world.requests.length;
    await frame.fill('#svc-email', 'not-an-email');
    await frame.click('button[type=submit]');
    expect(await frame.getAttribute('#svc-email', 'aria-invalid')).toBe('true');
    expect(await frame.getAttribute('#svc-email', 'aria-describedby')).toContain('svc-email-error');
    expect(await frame.textContent('#svc-email-error')).toContain('e-mail address like');
    expect(world.requests.length).toBe(before);

    await frame.fill('#svc-email', 'ana@example.com');
    await quote(frame);
    expect(await frame.textContent('.svc-notice')).toBe('');
    await context.close();
  });

  it('a quote that is not instant-eligible says a person will follow up and does not poll', async () => {
    const { page, context } = await host();
    const frame = await embed(page, KEYS.tier3, 'w5', { prefill: { ...PREFILL, email: 'manual@sandbox.test' } });
    await frame.waitForSelector('form');
    await frame.click('button[type=submit]');
    await frame.waitForSelector('text=A person will follow up by e-mail');
    expect(world.requests.map((r) => r.path)).toEqual(['/quote']);
    expect((await events(page, 'svc:quote.ready')).pop()?.payload).toEqual({ quoteId: expect.any(String) });
    await context.close();
  });

  it('options that never arrive end in quote.error options_timeout after a bounded time', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.clock.install();
    const page = await context.newPage();
    await page.goto(HOST);
    const frame = await embed(page, KEYS.tier3, 'w6', {
      prefill: { ...PREFILL, email: 'options-pending@sandbox.test' },
    });
    await frame.waitForSelector('form');
    await frame.click('button[type=submit]');
    for (let i = 0; i < 60; i++) {
      if ((await events(page, 'svc:quote.error')).length) break;
      await context.clock.runFor(2000);
      await new Promise((r) => setTimeout(r, 50));
    }
    expect((await events(page, 'svc:quote.error')).map((m) => m.payload!['code'])).toEqual(['options_timeout']);
    const polls = world.requests.filter((r) => r.path === '/options').length;
    expect(polls).toBeGreaterThan(3);
    expect(polls).toBeLessThanOrEqual(16);
    await frame.waitForSelector('text=a person will follow up by e-mail');
    await context.close();
  });

  it('a refused document (revoked key) shows no form and posts quote.error unauthorized to the parent origin', async () => {
    const { page, context } = await host();
    const frame = await embed(page, KEYS.revoked, 'w7', { prefill: PREFILL });
    await waitForEvent(page, 'svc:quote.error');
    expect((await received(page)).map((m) => [m.type, m.payload])).toEqual([
      ['svc:frame.hello', undefined],
      ['svc:quote.error', { code: 'unauthorized', message: 'This publishable key is not valid.' }],
    ]);
    expect(await frame.textContent('main')).toContain('This insurance widget isn’t available here.');
    expect(await frame.locator('form').count()).toBe(0);
    expect(world.requests).toEqual([]);
    await context.close();
  });

  it('never posts with "*": a frame told another parent origin delivers nothing to the real parent', async () => {
    world.bootOverrides.set(KEYS.tier1, { parentOrigin: FOREIGN });
    const { page, context } = await host();
    await page.evaluate(([k]) => (window as any).embed(k, 'w8', {}, {}), [KEYS.tier1] as const);
    const frame = await page.waitForEvent('framenavigated', { predicate: (f) => f.url().includes('instance=w8') });
    // Module scripts run before DOMContentLoaded: once it fired, the frame has booted and said hello (to its target).
    await frame.waitForLoadState('domcontentloaded');
    expect(await frame.evaluate(() => document.querySelector('script[type=module]') !== null)).toBe(true);
    // A probe posted after boot from the same window to the same parent arrives after anything the frame posted before
    // (postMessage keeps order per source and target): when it is in, a hello sent with "*" would be too.
    await frame.evaluate((hostOrigin) => parent.postMessage({ probe: true }, hostOrigin), HOST);
    await page.waitForFunction(() => (window as any).all.some((m: { data: { probe?: boolean } }) => m.data?.probe));
    expect(await page.evaluate(() => (window as any).all.map((m: { data: unknown }) => m.data))).toEqual([
      { probe: true },
    ]);
    await context.close();
  });

  it('honours svc:frame.update: new prefill values, appearance through the CSSOM, tier', async () => {
    const { page, context } = await host();
    const frame = await embed(page, KEYS.tier3, 'w9', { prefill: PREFILL });
    await frame.waitForSelector('form');
    await page.evaluate(() =>
      (window as any).sendUpdate('w9', {
        prefill: { email: 'new@example.com', travelers: 3 },
        appearance: { accentColor: '#ffcc00', borderRadius: '2px' },
        tier: 1,
      }),
    );
    await frame.waitForFunction(
      () => (document.getElementById('svc-email') as HTMLInputElement).value === 'new@example.com',
    );
    expect(await frame.locator('.svc-ages input').count()).toBe(3);
    await frame.fill('#svc-age-2', '12');
    expect(await frame.evaluate(() => document.documentElement.style.getPropertyValue('--svc-accent'))).toBe('#ffcc00');
    expect(await frame.evaluate(() => document.documentElement.style.getPropertyValue('--svc-accent-contrast'))).toBe(
      '#0b1220',
    );
    await quote(frame);
    expect(await frame.locator('button:has-text("Buy")').count()).toBe(0);
    await context.close();
  });

  it('the hosted Tier 1 page: operator header, prefill from the query, buys through the checkout link in the same tab', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(
      `${WIDGET}/quote?pk=${KEYS.tier1}&destination=Svalbard&travelers=1&tripCost=9000&residence=GB&startDate=${YEAR}-06-01&endDate=${YEAR}-06-09`,
    );
    await page.waitForSelector('form');
    expect(await page.textContent('header')).toContain('Polar Journeys Ltd');
    expect(await page.inputValue('#svc-destination')).toBe('svalbard');
    await page.fill('#svc-age-0', '40');
    await page.fill('#svc-email', 'sam@example.com');
    await page.click('button[type=submit]');
    await page.waitForSelector('.svc-plan[data-plan-id]');
    await Promise.all([
      page.waitForURL(`${EMBED}/checkout/**`),
      page.click('[data-plan-id="polar-shield-standard"] button:has-text("Buy")'),
    ]);
    expect(page.url()).toContain('plan=polar-shield-standard');
    await context.close();
  });

  describe('accessibility (axe-core) and screenshots at 1280 and 390 px', () => {
    interface AxeViolation {
      id: string;
      impact: string | null;
      help: string;
      nodes: { target: string[] }[];
    }
    async function audit(frame: Frame, page: Page, name: string, width: number): Promise<void> {
      await frame.addScriptTag({ path: require.resolve('axe-core/axe.min.js') });
      const violations = await frame.evaluate(async () => {
        const axe = (globalThis as any).axe;
        const result = await axe.run(document, {
          runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
        });
        return result.violations.map((v: AxeViolation) => ({
          id: v.id,
          impact: v.impact,
          help: v.help,
          nodes: v.nodes.map((n) => ({ target: n.target })),
        }));
      });
      // A viewport as tall as the page instead of `fullPage` (which leaves cross-origin iframes partly unpainted).
      const height = await page.evaluate(() => document.documentElement.scrollHeight);
      await page.setViewportSize({ width, height: Math.max(height, 600) });
      await frame.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      await page.screenshot({ path: path.join(SHOTS, `widget-frame-${name}-${width}.png`) });
      await page.setViewportSize({ width, height: 900 });
      const serious = (violations as AxeViolation[]).filter((v) => v.impact === 'serious' || v.impact === 'critical');
      expect({ screen: `${name} at ${width}px`, serious }).toEqual({ screen: `${name} at ${width}px`, serious: [] });
    }

    it.each([1280, 390])('the form, the plan cards, the card form and the confirmation at %i px', async (width) => {
      const { page, context } = await host({ width, bypassCSP: true });
      const frame = await embed(page, KEYS.tier3, `a${width}`, { prefill: { ...PREFILL, email: '' } });
      await frame.waitForSelector('form');
      await frame.click('button[type=submit]'); // shows the inline error
      await audit(frame, page, 'form-invalid', width);
      await frame.fill('#svc-email', 'ana@example.com');
      await quote(frame);
      await frame.click('[data-plan-id="polar-shield-standard"] .svc-plan__limits');
      await audit(frame, page, 'plans', width);
      await frame.click('[data-plan-id="polar-shield-standard"] button:has-text("Buy")');
      await frame.waitForSelector('#svc-card-number');
      await frame.fill('#svc-card-number', '4000 0000 0000 0002');
      await frame.fill('#svc-card-expiry', '12/30');
      await frame.fill('#svc-card-cvc', '123');
      await frame.click('.svc-card-form button[type=submit]');
      await frame.waitForSelector('.svc-card-form [role=alert]');
      await audit(frame, page, 'card-declined', width);
      await frame.fill('#svc-card-number', '4242 4242 4242 4242');
      await frame.click('.svc-card-form button[type=submit]');
      await frame.waitForSelector('.svc-confirmation');
      await audit(frame, page, 'confirmation', width);
      await context.close();
    });

    it.each([1280, 390])('the hosted page and a refused frame at %i px', async (width) => {
      const context = await browser.newContext({ viewport: { width, height: 900 }, bypassCSP: true });
      const page = await context.newPage();
      await page.goto(`${WIDGET}/quote?pk=${KEYS.tier1}&destination=arctic&travelers=2&tripCost=12000&residence=DE`);
      await page.waitForSelector('form');
      await audit(page.mainFrame(), page, 'hosted', width);
      await context.close();

      const { page: hostPage, context: ctx2 } = await host({ width, bypassCSP: true });
      const frame = await embed(hostPage, KEYS.revoked, `r${width}`, {});
      await frame.waitForSelector('.svc-refused');
      await audit(frame, hostPage, 'refused', width);
      await ctx2.close();
    });
  });
});
