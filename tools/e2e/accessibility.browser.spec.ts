import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { describeWithChromium, launchChromium, runAxe } from '@expedition/platform/chromium';
import { antarcticaCheckoutLink, launch, postJson, type Launched } from './launcher-harness';
import { ensureWidgetBundles } from './widget-stub-frame';

/**
 * Every screen a payer or an operator's visitor sees on the money path, in Chromium at a desktop and a phone width:
 * axe-core finds no WCAG 2.1 A/AA violation, and a screenshot of each is written for a person to look at
 * (`$TMPDIR/expedition-screens/`).
 */
const describeWithBrowser = describeWithChromium();
const SHOTS = path.join(tmpdir(), 'expedition-screens');
const WIDTHS = [1280, 390] as const;

describeWithBrowser('accessibility of the payer-facing screens (axe-core, 1280 and 390 px)', () => {
  let platform: Launched;
  let browser: Browser;
  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    ensureWidgetBundles();
    platform = await launch();
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
  });

  /** Opens a page at both widths (axe is injected past the page's strict CSP, which the test owns), audits, shoots. */
  async function audit(name: string, open: (page: Page) => Promise<void>): Promise<void> {
    for (const width of WIDTHS) {
      const context = await browser.newContext({ viewport: { width, height: 900 }, bypassCSP: true });
      const page = await context.newPage();
      await open(page);
      const violations = (await runAxe(page, { frames: true })).violations;
      await page.screenshot({ path: path.join(SHOTS, `${name}-${width}.png`), fullPage: true });
      await context.close();
      expect({ screen: `${name} at ${width}px`, violations }).toEqual({
        screen: `${name} at ${width}px`,
        violations: [],
      });
    }
  }

  async function checkoutLink(): Promise<string> {
    return (await antarcticaCheckoutLink(platform)).checkoutUrl;
  }

  async function payWith(page: Page, card: string): Promise<void> {
    await page.fill('#card', card);
    await page.fill('#exp', '12/30');
    await page.fill('#cvc', '123');
    await Promise.all([page.waitForNavigation(), page.click('button[type=submit]')]);
  }

  it('the checkout page: open, declined, paid, and bought another way', async () => {
    const open = await checkoutLink();
    await audit('checkout-open', (page) => page.goto(open).then(() => undefined));

    const declined = await checkoutLink();
    await audit('checkout-declined', async (page) => {
      await page.goto(declined);
      await payWith(page, '4000 0000 0000 0002');
    });

    const paid = await checkoutLink();
    const page = await browser.newPage();
    await page.goto(paid);
    await payWith(page, '4242 4242 4242 4242');
    await page.close();
    await audit('checkout-paid', (p) => p.goto(paid).then(() => undefined));

    // A second link of a quote bought through the first one.
    const quote = await postJson(`${platform.urls.quote}/api/v1/quotes`, {
      destination: 'Arctic',
      startDate: `${new Date().getUTCFullYear() + 1}-03-10`,
      durationDays: 10,
      tripCost: 9000,
      travelers: 1,
      travelerAges: [40],
      residence: 'GB',
    });
    const plan = quote.plans.find((p: { availabilityMode: string }) => p.availabilityMode === 'full');
    const body = { quoteId: quote.quoteId, planId: plan.planId, sessionId: quote.sessionId };
    const first = (await postJson(`${platform.urls.quote}/api/v1/checkout`, body)).checkoutUrl as string;
    const second = (await postJson(`${platform.urls.quote}/api/v1/checkout`, body)).checkoutUrl as string;
    const buyer = await browser.newPage();
    await buyer.goto(first);
    await payWith(buyer, '4242 4242 4242 4242');
    await buyer.close();
    await audit('checkout-bought-elsewhere', (p) => p.goto(second).then(() => undefined));
  });

  /** The demo page with the widget on screen (axe also audits the widget's iframe: injected there too, see audit). */
  async function demoWithWidget(page: Page, tier = 3): Promise<void> {
    await page.goto(`${platform.urls.demo}/?tier=${tier}`);
    if (tier > 1) await page.waitForSelector('#events li[data-event="widget.ready"]', { timeout: 30_000 });
  }

  it('the demo operator page with the widget: before and after a purchase, and the Tier 1 link', async () => {
    await audit('demo-before', (page) => demoWithWidget(page));
    await audit('demo-tier1', (page) => demoWithWidget(page, 1));
    await audit('demo-after-purchase', async (page) => {
      await demoWithWidget(page);
      const widget = page.frameLocator('#svc-widget iframe');
      await widget.locator('form button[type=submit]').click();
      const card = widget.locator('article.svc-plan--recommended');
      await card.waitFor({ timeout: 30_000 });
      await card.getByRole('button', { name: /^Buy/ }).click();
      await widget.locator('#svc-card-number').fill('4242 4242 4242 4242');
      await widget.locator('#svc-card-expiry').fill('12/30');
      await widget.locator('#svc-card-cvc').fill('123');
      await widget.getByRole('button', { name: /^Pay/ }).click();
      await page.waitForSelector('#confirmation [data-policy-number]', { timeout: 30_000 });
    });
  });
});
