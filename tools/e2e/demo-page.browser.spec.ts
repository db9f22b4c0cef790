import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
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

    await page.locator('.card.rec button').click();
    await page.waitForFunction(() => /Paid /.test(document.querySelector('.card.rec .status')?.textContent ?? ''), null, { timeout: 30_000 });
    await page.waitForSelector('#webhooks pre', { timeout: 30_000 });
    const webhook = JSON.parse((await page.textContent('#webhooks pre')) ?? '{}');
    expect(webhook).toMatchObject({ type: 'policy.issued', quoteNumber, operatorId: platform.demo.operatorId });
    await waitForPolicyIssued(platform.urls.demo, webhook.quoteId);
    await page.screenshot({ path: path.join(tmpdir(), 'expedition-demo-page.png'), fullPage: true });
    expect(failures).toEqual([]);
  });
});
