import { mkdirSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import request from 'supertest';
import { describeWithChromium, launchChromium, runAxe } from '@expedition/platform/chromium';
import { PurchaseReceiptSchema } from '@expedition/contracts';
import { buyByMachinePayment, lookUpPolicy } from './bought-policy';
import { antarcticaQuote, createHarness, PUBLIC_URL, type Harness } from './harness';

const describeWithBrowser = describeWithChromium();

const PORT = 14083;
const SCREENS = path.join(process.env['TMPDIR'] ?? tmpdir(), 'expedition-screens');

describeWithBrowser('the policy page and a policy wording page in Chromium (CSP, mobile and desktop, axe-core)', () => {
  let h: Harness;
  let server: Server;
  let browser: Browser;
  let pagePath = '';
  let checkoutPath = '';

  beforeAll(async () => {
    h = await createHarness();
    // A policy bought by machine payment; its checkout-link twin carries names, this one shows "Traveler 1".
    const { purchase, planId } = await buyByMachinePayment(h.app, 'spt_test_success_browser_page');
    const policy = await lookUpPolicy(h.app, PurchaseReceiptSchema.parse(purchase.body));
    pagePath = policy.pageUrl!.replace(PUBLIC_URL, '');
    // A checkout link of another quote, still open (the payment page).
    const open = await request(h.app).post('/api/v1/quotes').send(antarcticaQuote);
    const link = await request(h.app)
      .post('/api/v1/checkout')
      .send({ quoteId: open.body.quoteId, planId, sessionId: open.body.sessionId });
    checkoutPath = new URL(link.body.checkoutUrl as string).pathname;
    server = await new Promise<Server>((resolve) => {
      const s = h.app.listen(PORT, '127.0.0.1', () => resolve(s));
    });
    browser = await launchChromium();
    mkdirSync(SCREENS, { recursive: true });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
    await h?.close();
  });

  const pages = () =>
    [
      ['policy', pagePath, 'Your travel insurance policy'],
      ['wording', '/policy-wording/polar-shield-standard', 'Polar Shield Standard: policy wording'],
    ] as const;

  for (const width of [390, 1280]) {
    it(`renders both pages at ${width} px: styled under the CSP, no horizontal scroll, no axe violation`, async () => {
      for (const [name, url, heading] of pages()) {
        const context = await browser.newContext({ viewport: { width, height: 900 } });
        const page = await context.newPage();
        const errors: string[] = [];
        page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
        const res = await page.goto(`http://127.0.0.1:${PORT}${url}`);
        expect(res?.status()).toBe(200);
        await expect(page.locator('h1').textContent()).resolves.toBe(heading);
        // The inline stylesheet ran under the hash-based CSP: the card has its white background.
        await expect(
          page.evaluate<string>("getComputedStyle(document.querySelector('main')).backgroundColor"),
        ).resolves.toBe('rgb(255, 255, 255)');
        // Nothing wider than the screen (a phone never scrolls sideways).
        await expect(page.evaluate<boolean>('document.documentElement.scrollWidth <= window.innerWidth')).resolves.toBe(
          true,
        );
        expect(errors).toEqual([]);
        await page.screenshot({ path: path.join(SCREENS, `quote-api-${name}-${width}.png`), fullPage: true });

        const result = await runAxe(page, { rules: 'all' });
        expect(result.violations.map((v) => `${v.id} (${v.impact})`)).toEqual([]);
        await context.close();
      }
    }, 60_000);
  }

  /** Text that runs out of the page or is cut off by a box that hides its overflow (see the widget's language suite). */
  const OVERFLOWING = `(() => {
    const problems = [];
    const width = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth > width + 1) problems.push('document scrolls sideways');
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = (node.textContent || '').trim();
      const parent = node.parentElement;
      if (!text || !parent || parent.closest('script, style')) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      for (const rect of Array.from(range.getClientRects())) if (rect.width > 0 && (rect.right > width + 1 || rect.left < -1)) problems.push(text.slice(0, 40));
      for (let el = parent; el && el !== document.body; el = el.parentElement) {
        const style = getComputedStyle(el);
        if ((['hidden', 'clip'].includes(style.overflowX) || style.textOverflow === 'ellipsis') && el.scrollWidth > el.clientWidth + 1) { problems.push('clipped: ' + text.slice(0, 40)); break; }
      }
    }
    return [...new Set(problems)];
  })()`;

  for (const width of [390, 1280]) {
    it(`renders the policy page, the wording and the checkout page in every language and the pseudo-locale at ${width} px: no clipped or overflowing text, axe clean`, async () => {
      for (const lang of ['de', 'fr', 'es', 'en-XA']) {
        const urls = [
          ['policy', `${pagePath}&locale=${lang}`],
          ['wording', `/policy-wording/polar-shield-standard?locale=${lang}`],
          ['checkout', `${checkoutPath}?locale=${lang}`],
        ] as const;
        for (const [name, url] of urls) {
          const context = await browser.newContext({ viewport: { width, height: 900 } });
          const page = await context.newPage();
          const res = await page.goto(`http://127.0.0.1:${PORT}${url}`);
          expect(res?.status()).toBe(200);
          await expect(page.evaluate<string>('document.documentElement.lang')).resolves.toBe(lang);
          await page.screenshot({ path: path.join(SCREENS, `quote-api-${name}-${lang}-${width}.png`), fullPage: true });
          expect({ page: `${name} ${lang}`, overflowing: await page.evaluate<string[]>(OVERFLOWING) }).toEqual({
            page: `${name} ${lang}`,
            overflowing: [],
          });
          const result = await runAxe(page, { rules: 'all' });
          expect({
            page: `${name} ${lang}`,
            violations: result.violations.map((v) => `${v.id} (${v.impact})`),
          }).toEqual({ page: `${name} ${lang}`, violations: [] });
          await context.close();
        }
      }
    }, 120_000);
  }
});
