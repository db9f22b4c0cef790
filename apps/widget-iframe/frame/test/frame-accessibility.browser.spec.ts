import path from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { runAxe, seriousOrCritical } from '@expedition/platform/chromium';
import { describeWithBrowser, PREFILL, SHOTS, useFrameSession } from './frame-session';
import { KEYS, worldUrls } from './world-config';

/**
 * axe-core on every screen of the iframe UI in real Chromium, at 1280 and 390 px, with a screenshot of each in
 * $TMPDIR/expedition-screens/. Shared set-up: frame-session.ts.
 */
describeWithBrowser('the widget iframe UI in Chromium', () => {
  const urls = worldUrls(13960);
  const { WIDGET } = urls;
  const session = useFrameSession(urls);
  const { host, embed, quote } = session;

  describe('accessibility (axe-core) and screenshots at 1280 and 390 px', () => {
    async function audit(frame: Frame, page: Page, name: string, width: number): Promise<void> {
      const { violations } = await runAxe(frame);
      // A viewport as tall as the page instead of `fullPage` (which leaves cross-origin iframes partly unpainted).
      const height = await page.evaluate(() => document.documentElement.scrollHeight);
      await page.setViewportSize({ width, height: Math.max(height, 600) });
      await frame.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      await page.screenshot({ path: path.join(SHOTS, `widget-frame-${name}-${width}.png`) });
      await page.setViewportSize({ width, height: 900 });
      const serious = seriousOrCritical(violations);
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
      const context = await session.browser.newContext({ viewport: { width, height: 900 }, bypassCSP: true });
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
