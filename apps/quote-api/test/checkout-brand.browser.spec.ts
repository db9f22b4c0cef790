import { mkdirSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import request from 'supertest';
import { describeWithChromium, launchChromium, runAxe } from '@expedition/platform/chromium';
import { TEST_CARDS } from '@expedition/payments';
import { antarcticaQuote, createHarness, type Harness } from './harness';

const describeWithBrowser = describeWithChromium();

const PORT = 14084;
/** Where the screenshots go (SCREENSHOTS_DIR, else the temporary directory). */
const SCREENS = process.env['SCREENSHOTS_DIR'] ?? path.join(process.env['TMPDIR'] ?? tmpdir(), 'expedition-screens');
/** The widget's accent (libs/ui tokens.css --svc-accent) as the browser computes it. */
const ACCENT = 'rgb(11, 92, 173)';
/** The paid page's operator colour, #7a1f5c. */
const BRAND = 'rgb(122, 31, 92)';

describeWithBrowser('the checkout page and the paid page in Chromium: operator, carrier, shared tokens', () => {
  let h: Harness;
  let server: Server;
  let browser: Browser;
  const links = { page: '', paid: '' };

  async function operatorLink(name: string, brandColor?: string) {
    const quote = await request(h.app).post('/api/v1/quotes').send(antarcticaQuote);
    const plan = (quote.body.plans as { planId: string; availabilityMode: string }[]).find(
      (p) => p.availabilityMode === 'full',
    )!;
    const operator = await h.db.prisma.operator.create({ data: { name, status: 'active', brandColor } });
    await h.db.prisma.quote.update({ where: { id: quote.body.quoteId }, data: { operatorId: operator.id } });
    const res = await request(h.app)
      .post('/api/v1/checkout')
      .send({ quoteId: quote.body.quoteId, planId: plan.planId, sessionId: quote.body.sessionId });
    return new URL(res.body.checkoutUrl as string).pathname;
  }

  beforeAll(async () => {
    h = await createHarness();
    links.page = await operatorLink('Southern Ice Expeditions');
    // The paid page's operator set a brand colour in the portal: it replaces the accent.
    links.paid = await operatorLink('Southern Ice Expeditions', '#7a1f5c');
    const paid = await request(h.app)
      .post(`${links.paid}/pay`)
      .type('form')
      .send({ cardNumber: TEST_CARDS.success, expiry: '12/30', cvc: '123' });
    expect(paid.status).toBe(303);
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

  for (const width of [390, 1280]) {
    it(`renders both in English and German at ${width} px under the CSP, accent links, no sideways scroll, axe clean`, async () => {
      for (const lang of ['en', 'de']) {
        for (const [name, link] of Object.entries(links)) {
          const context = await browser.newContext({ viewport: { width, height: 900 } });
          const page = await context.newPage();
          // The page counts down to the link's expiry in the harness's time: the browser lives in that time too.
          await page.clock.setFixedTime(h.clock.now());
          const errors: string[] = [];
          page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
          const res = await page.goto(`http://127.0.0.1:${PORT}${link}?locale=${lang}`);
          expect(res?.status()).toBe(200);
          await expect(page.locator('#operator').textContent()).resolves.toContain('Southern Ice Expeditions');
          await expect(page.locator('#carrier').textContent()).resolves.toMatch(/\((illustrative|fiktiv)\)$/);
          // The inline stylesheet ran under the nonce CSP: the shared tokens colour the links (no browser blue).
          const linkColour = await page.evaluate<string>(
            "getComputedStyle(document.querySelector('.langs a:not([aria-current])')).color",
          );
          expect(linkColour).toBe(name === 'paid' ? BRAND : ACCENT);
          if (name === 'paid') {
            const button = await page.evaluate<string>(
              "getComputedStyle(document.getElementById('certificate')).backgroundColor",
            );
            expect(button).toBe(BRAND);
          }
          await expect(
            page.evaluate<boolean>('document.documentElement.scrollWidth <= window.innerWidth'),
          ).resolves.toBe(true);
          expect(errors).toEqual([]);
          await page.screenshot({ path: path.join(SCREENS, `checkout-${name}-${lang}-${width}.png`), fullPage: true });
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
