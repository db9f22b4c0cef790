import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Frame, Page } from 'playwright-core';
import { widgetMessages } from '@expedition/i18n/documents';
import { launchChromium, runAxe, seriousOrCritical } from '@expedition/platform/chromium';
import { describeWithBrowser, PREFILL, YEAR } from './frame-session';
import { startWorld, type World } from './harness';
import { KEYS, worldUrls } from './world-config';

/** This suite's own ports (the other frame suites use 13950–13969), so suites can run side by side. */
const urls = worldUrls(13970);
const { HOST, WIDGET } = urls;

/**
 * What the traveler reads once the choice is made, in real Chromium, in English and German at 390 and 1280 px:
 * - after a Tier 3 test payment the view is a confirmation: the pre-purchase heading ("Protect your trip") and the
 *   test-mode hint are gone, "You are covered" leads, and a quiet note says plainly that this is a test policy
 *   (specimen) with no real cover;
 * - each plan card has one action: "Buy this plan" on the hosted Tier 1 page, "Buy" in a Tier 3 iframe (buying also
 *   fires quote.selected to the operator's page).
 * axe clean (WCAG 2.1 AA, serious and critical); screenshots in $WIDGET_SHOTS (default $TMPDIR/expedition-screens),
 * frame-<screen>-<lang>-<width>.png.
 */
const SHOTS = process.env.WIDGET_SHOTS ?? path.join(tmpdir(), 'expedition-screens');

const TRIP = `destination=antarctica&startDate=${YEAR}-01-10&endDate=${YEAR}-01-24`;

const normalize = (text: string | null) => (text ?? '').replace(/\s+/g, ' ').trim();

describeWithBrowser('after the choice: the confirmation and the hosted plan cards, in Chromium', () => {
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

  /** axe on the document, then a screenshot of the whole page (a viewport as tall as the page). */
  async function audit(frame: Frame, page: Page, name: string, width: number): Promise<void> {
    const { violations } = await runAxe(frame);
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    await page.setViewportSize({ width, height: Math.max(height, 600) });
    await frame.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    await page.screenshot({ path: path.join(SHOTS, `frame-${name}-${width}.png`) });
    await page.setViewportSize({ width, height: 900 });
    const serious = seriousOrCritical(violations);
    expect({ screen: `${name} at ${width}px`, serious }).toEqual({ screen: `${name} at ${width}px`, serious: [] });
  }

  describe.each(['en', 'de'] as const)('in %s', (lang) => {
    const t = widgetMessages(lang);

    it.each([390, 1280])(
      'after a test payment (Tier 3): the confirmation and a test-policy note, no pre-purchase heading or hint, at %i px',
      async (width) => {
        const context = await browser.newContext({ viewport: { width, height: 900 }, bypassCSP: true });
        const page = await context.newPage();
        await page.goto(HOST);
        const instance = `pay-${lang}-${width}`;
        await page.evaluate(([k, i, c]) => (window as any).embed(k, i, c, {}), [
          KEYS.tier3,
          instance,
          { prefill: PREFILL, locale: lang },
        ] as const);
        await page.waitForFunction((i) => (window as any).frames_[i]?.hello, instance, { timeout: 20_000 });
        const frame = page.frames().find((f) => f.url().includes(`instance=${instance}`))!;
        await frame.waitForSelector('form');

        // Before buying: the heading that asks to buy and the test-mode hint.
        expect(normalize(await frame.textContent('h1'))).toBe(t.page.widgetTitle());
        expect(await frame.locator('.svc-test-hint').count()).toBe(1);

        await frame.click('button[type=submit]');
        await frame.waitForSelector('.svc-plan[data-plan-id]', { timeout: 20_000 });
        // One action on the Tier 3 card: Buy pays here (and tells the operator's page, quote.selected).
        const actions = frame.locator('[data-plan-id="polar-shield-standard"] .svc-plan__actions button');
        expect((await actions.allTextContents()).map(normalize)).toEqual([`${t.plans.buy()} Polar Shield Standard`]);
        await actions.nth(0).click();
        await frame.waitForSelector('#svc-card-number');
        await frame.fill('#svc-card-number', '4242 4242 4242 4242');
        await frame.fill('#svc-card-expiry', '12/30');
        await frame.fill('#svc-card-cvc', '123');
        await frame.click('.svc-card-form button[type=submit]');
        await frame.waitForSelector('.svc-confirmation');

        // After: a confirmation. The pre-purchase heading and the test-mode hint are gone.
        expect(await frame.locator('h1').count()).toBe(0);
        expect(await frame.locator('.svc-test-hint').count()).toBe(0);
        expect(await frame.locator('form').count()).toBe(0);
        expect(normalize(await frame.textContent('h2'))).toBe(t.checkout.covered());
        // Plainly a test: the quiet note inside the confirmation (announced with it).
        const note = frame.locator('.svc-confirmation .svc-specimen-note');
        expect(normalize(await note.textContent())).toBe(t.checkout.testPolicy());
        expect(await frame.textContent('.svc-confirmation')).toContain('POL-2026-TESTAB');
        await audit(frame, page, `after-payment-${lang}`, width);
        await context.close();
      },
    );

    it.each([390, 1280])('the hosted Tier 1 page: one action per plan, "Buy this plan", at %i px', async (width) => {
      const context = await browser.newContext({ viewport: { width, height: 900 }, bypassCSP: true });
      const page = await context.newPage();
      await page.goto(
        `${WIDGET}/quote?pk=${KEYS.tier1}&${TRIP}&travelers=1&tripCost=12000&residence=DE&locale=${lang}`,
      );
      await page.waitForSelector('form');
      await page.fill('#svc-age-0', '45');
      await page.fill('#svc-email', 'ana@example.com');
      await page.click('button[type=submit]');
      await page.waitForSelector('.svc-plan[data-plan-id]', { timeout: 20_000 });

      const cards = await page.$$eval('.svc-plan[data-plan-id]', (els) =>
        els.map((el) => ({
          plan: el.getAttribute('data-plan-id'),
          buttons: [...el.querySelectorAll('button')].map((b) => ({
            text: (b.textContent ?? '').replace(/\s+/g, ' ').trim(),
            pressed: b.getAttribute('aria-pressed'),
            describedBy: b.getAttribute('aria-describedby'),
          })),
          note: el.querySelector('.svc-plan__note')?.textContent ?? null,
        })),
      );
      const buy = (plan: string) => ({ text: t.plans.buyPlan(), pressed: null, describedBy: `svc-plan-${plan}` });
      expect(cards).toEqual([
        { plan: 'polar-shield-standard', buttons: [buy('polar-shield-standard')], note: null },
        { plan: 'austral-voyager-basic', buttons: [buy('austral-voyager-basic')], note: null },
        // An inquiry plan: no action at all, the note says whom to ask.
        { plan: 'meridian-private-charter', buttons: [], note: t.plans.notSoldOnline() },
      ]);
      // A click on a card selects nothing: there is no page around it to tell.
      await page.click('[data-plan-id="austral-voyager-basic"] .svc-plan__limits');
      expect(await page.locator('.svc-plan--selected').count()).toBe(0);
      await audit(page.mainFrame(), page, `hosted-plans-${lang}`, width);

      // The one action buys: the hosted checkout in the same tab.
      await Promise.all([
        page.waitForURL(/\/checkout\/.+plan=austral-voyager-basic$/),
        page.click(`[data-plan-id="austral-voyager-basic"] button:has-text("${t.plans.buyPlan()}")`),
      ]);
      await context.close();
    });
  });
});
