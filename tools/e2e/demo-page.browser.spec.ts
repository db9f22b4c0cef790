import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { describeWithChromium, launchChromium } from '@expedition/platform/chromium';
import { antarcticaCheckoutLink, launch, waitForPolicyIssued, type Launched } from './launcher-harness';
import { ensureWidgetBundles } from './widget-stub-frame';

/**
 * The demo operator's page in a real browser (Debian's Chromium via playwright-core): the trip page on the operator's
 * origin embeds the real widget (loader from WIDGET_URL, iframe on the widget origin) under its own strict CSP, logs
 * the widget's events, and its back office shows the verified policy.issued webhook. The widget's own rules are in
 * widget-loader-{mount,events,origins}.browser.spec.ts (stub frame) and widget-journey.browser.spec.ts.
 */
const describeWithBrowser = describeWithChromium();

describeWithBrowser('demo operator page in Chromium', () => {
  let platform: Launched;
  let browser: Browser;
  beforeAll(async () => {
    ensureWidgetBundles();
    platform = await launch();
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
  });

  it('the trip page mounts the real widget under its own strict CSP, logs every event live, and shows the policy from the verified webhook', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    const failures: string[] = [];
    page.on('pageerror', (e) => failures.push(e.message));
    page.on('console', (m) => /Content.Security.Policy|Refused to/i.test(m.text()) && failures.push(m.text()));
    const response = await page.goto(platform.urls.demo);
    expect(response!.headers()['content-security-policy']).toContain(
      `script-src 'self' ${platform.urls.widget}; frame-src ${platform.urls.widget}`,
    );
    expect(await page.textContent('h1')).toBe('Antarctic Peninsula Classic');
    await page.waitForSelector('#events li[data-event="widget.ready"]');
    expect(await page.locator('#widget-status').count()).toBe(0);

    const widget = page.frameLocator('#svc-widget iframe');
    await widget.locator('form button[type=submit]').click();
    const card = widget.locator('article.svc-plan--recommended');
    await card.waitFor({ timeout: 30_000 });
    await card.getByRole('button', { name: /^Buy/ }).click();
    await widget.locator('#svc-card-number').fill('4242 4242 4242 4242');
    await widget.locator('#svc-card-expiry').fill('12/30');
    await widget.locator('#svc-card-cvc').fill('123');
    await widget.getByRole('button', { name: /^Pay/ }).click();

    // The operator's confirmation waits for its own verified webhook, then shows the policy number.
    await page.waitForSelector('#confirmation [data-policy-number]', { timeout: 30_000 });
    await page.waitForSelector('#webhooks pre', { timeout: 30_000 });
    const webhook = JSON.parse((await page.textContent('#webhooks pre')) ?? '{}');
    expect(webhook).toMatchObject({ type: 'policy.issued', operatorId: platform.demo.operatorId, mode: 'test' });
    await waitForPolicyIssued(platform.urls.demo, webhook.quoteId);
    expect(await page.textContent('#confirmation [data-policy-number]')).toBe(webhook.policyNumber);
    const logged = await page.$$eval('#events li[data-event]', (items) =>
      items.map((li) => (li as HTMLElement).dataset['event']).reverse(),
    );
    expect(logged.filter((name, i) => logged.indexOf(name) === i)).toEqual([
      'widget.ready',
      'quote.ready',
      'quote.selected',
      'payment.succeeded',
    ]);
    await page.screenshot({ path: path.join(tmpdir(), 'expedition-demo-page.png'), fullPage: true });
    expect(failures).toEqual([]);
    await page.close();
  });

  it('switches tiers: Tier 2 mounts the widget at tier 2; Tier 1 links to the hosted quote page, prefilled, with no widget script', async () => {
    const page = await browser.newPage();
    await page.goto(platform.urls.demo);
    await page.getByRole('link', { name: /Tier 2/ }).click();
    await page.waitForSelector('#events li[data-event="widget.ready"]');
    expect(await page.getAttribute('nav a[aria-current="page"]', 'href')).toBe('/?tier=2');

    await page.getByRole('link', { name: /Tier 1/ }).click();
    expect(await page.locator('script[src$="/widget.js"], iframe').count()).toBe(0);
    await page.getByRole('link', { name: 'Get a travel insurance quote' }).click();
    await page.waitForURL(`${platform.urls.widget}/quote?**`);
    await page.waitForSelector('form');
    expect(await page.inputValue('input[name="tripCost"]')).toBe('29800');
    await page.close();
  });

  it('pays a checkout link with the test card and lands on the policy confirmation, not a form', async () => {
    const { plan, ...link } = await antarcticaCheckoutLink(platform);
    const page = await browser.newPage();
    const failures: string[] = [];
    page.on('pageerror', (e) => failures.push(e.message));

    await page.goto(link.checkoutUrl);
    await page.fill('#card', '4242 4242 4242 4242');
    await page.fill('#exp', '12/30');
    await page.fill('#cvc', '123');
    await Promise.all([page.waitForNavigation(), page.click('button[type=submit]')]);

    const policyNumber = await page.textContent('#policy-number');
    expect(policyNumber).toMatch(/^POL-\d{4}-[0-9A-Z]{6}$/);
    expect(await page.textContent('h1')).toBe(`Payment received — policy ${policyNumber}`);
    expect(await page.textContent('main')).toContain(plan.planName);
    expect(await page.locator('form, button').count()).toBe(0);
    expect(failures).toEqual([]);
  });
});
