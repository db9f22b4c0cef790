import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { noteSkippedSuite } from '@expedition/platform/testing';
import { launch, waitForPolicyIssued, type Launched } from './launcher-harness';

/**
 * The demo operator's page in a real browser (Debian's Chromium via playwright-core): a page on the operator's
 * origin creates a quote and polls its options with the demo test key through CORS, buys a plan in test mode
 * (Tier 3 route), and the policy.issued webhook shows up verified in its back office.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const available = existsSync(CHROMIUM);
if (!available && process.env.REQUIRE_SERVICES === '1') {
  throw new Error(`Chromium not found at ${CHROMIUM} (REQUIRE_SERVICES=1): apt-get install chromium`);
}
if (!available) noteSkippedSuite(`Chromium not found at ${CHROMIUM} (apt-get install -y chromium, or set CHROMIUM_PATH)`);
const describeWithBrowser = available ? describe : describe.skip;

describeWithBrowser('demo operator page in Chromium', () => {
  let platform: Launched;
  let browser: Browser;
  beforeAll(async () => {
    platform = await launch(13500);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
  });

  it('quotes through the embed API from the operator origin, buys with a test card, and receives policy.issued', async () => {
    const page = await browser.newPage();
    const failures: string[] = [];
    page.on('pageerror', (e) => failures.push(e.message));
    await page.goto(platform.urls.demo);
    await page.click('button[type=submit]');
    await page.waitForSelector('.card', { timeout: 30_000 });
    const status = await page.textContent('#status');
    expect(status).toMatch(/Quote EXP-[0-9A-Z]{4}: \d+ options/);
    const quoteNumber = /EXP-[0-9A-Z]{4}/.exec(status ?? '')![0];

    const planName = await page.textContent('.card.rec h3');
    await page.locator('.card.rec button').click();
    // After the purchase the page shows the policy and offers nothing more to buy.
    await page.waitForSelector('#confirmation [data-policy-number]', { timeout: 30_000 });
    await page.waitForSelector('#webhooks pre', { timeout: 30_000 });
    const webhook = JSON.parse((await page.textContent('#webhooks pre')) ?? '{}');
    expect(webhook).toMatchObject({ type: 'policy.issued', quoteNumber, operatorId: platform.demo.operatorId });
    await waitForPolicyIssued(platform.urls.demo, webhook.quoteId);
    expect(await page.textContent('#confirmation [data-policy-number]')).toBe(webhook.policyNumber);
    const confirmation = (await page.textContent('#confirmation')) ?? '';
    expect(confirmation).toContain(planName ?? '?');
    expect(confirmation).toContain(new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(webhook.premiumCents / 100));
    expect(await page.locator('button', { hasText: /buy/i }).count()).toBe(0);
    expect(await page.locator('#options .card').count()).toBe(0);
    expect(await page.isVisible('#quote')).toBe(false);
    await page.screenshot({ path: path.join(tmpdir(), 'expedition-demo-page.png'), fullPage: true });
    expect(failures).toEqual([]);
  });

  it('pays a checkout link with the test card and lands on the policy confirmation, not a form', async () => {
    const quote = await postJson(`${platform.urls.quote}/api/v1/quotes`, {
      destination: 'Antarctica', startDate: `${new Date().getUTCFullYear() + 1}-01-10`, durationDays: 14, tripCost: 24000,
      travelers: 2, travelerAges: [45, 72], residence: 'US', state: 'CA',
    });
    const plan = quote.plans.find((p: { availabilityMode: string }) => p.availabilityMode === 'full');
    const link = await postJson(`${platform.urls.quote}/api/v1/checkout`, { quoteId: quote.quoteId, planId: plan.planId, sessionId: quote.sessionId });
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

async function postJson(url: string, body: unknown): Promise<any> {
  const res = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  return res.json();
}
