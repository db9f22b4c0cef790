import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { describeWithChromium, launchChromium, runAxe } from '@expedition/platform/chromium';
import { launch, postJson, type Launched } from './launcher-harness';
import { parseEml, pdfText, waitForMail, type OutboxRecord } from './outbox';
import { ensureWidgetBundles } from './widget-stub-frame';

/**
 * After the sale, as a traveler lives it, in Chromium on `npm start`: buy (in the widget on the demo operator's page,
 * and through an agent's checkout link), receive the confirmation e-mail (the outbox under DATA_DIR: subject, the
 * certificate attached and readable), open its policy link, see the policy page (axe-clean) and follow its documents.
 * Screenshots of the widget's success view and of the policy page at 390 and 1280 px go to
 * `$TMPDIR/expedition-journey/` for a person to look at.
 */
const SHOTS = path.join(tmpdir(), 'expedition-journey');
const WIDTHS = [390, 1280] as const;

describeWithChromium()('after the sale in Chromium: the e-mail, the policy page and its documents', () => {
  let platform: Launched;
  let browser: Browser;
  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    ensureWidgetBundles();
    platform = await launch({ env: { MAIL_POLL_INTERVAL_MS: '200' } });
    browser = await launchChromium();
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
  });

  /** The confirmation mail of a policy: to the buyer, marked test, the certificate attached (no agent disclaimer). */
  async function confirmationMail(policyNumber: string, to: string): Promise<OutboxRecord> {
    const record = await waitForMail(platform.dataDir, policyNumber);
    expect(record.to).toBe(to);
    expect(record.subject).toContain(policyNumber);
    expect(record.subject).toContain('[TEST]');
    const mail = await parseEml(platform.dataDir, record);
    const pdf = mail.attachments.find((a) => a.contentType === 'application/pdf');
    expect(pdf?.filename).toMatch(/\.pdf$/);
    const certificate = pdfText(pdf!.content);
    expect(certificate).toContain(policyNumber);
    expect(certificate).not.toContain('I am an AI assistant');
    expect(mail.html).toEqual(expect.stringContaining(policyNumber));
    return record;
  }

  /** The mail's link to the policy page (quote-api, opened by the policy's access token). */
  function policyLink(record: OutboxRecord, policyNumber: string): string {
    const link = record.links.find((l) =>
      l.startsWith(`${platform.urls.quote}/policies/${policyNumber}?access_token=`),
    );
    expect(link).toBeDefined();
    return link!;
  }

  /**
   * Opens the mail's link at both widths (axe is injected past the page's CSP, which the test owns), checks what the
   * traveler must see, shoots, and follows the certificate and both wording links.
   */
  async function policyPage(link: string, policyNumber: string, name: string): Promise<void> {
    for (const width of WIDTHS) {
      const context = await browser.newContext({ viewport: { width, height: 900 }, bypassCSP: true });
      const page = await context.newPage();
      const response = await page.goto(link);
      expect(response?.status()).toBe(200);
      await expect(page.locator('h1').textContent()).resolves.toBe('Your travel insurance policy');
      expect(await page.textContent('main')).toContain(policyNumber);
      await expect(page.locator('.status').textContent()).resolves.toMatch(/^Issued: cover from /);
      // A test policy took no money (its banner says so): the page never says the premium was paid.
      expect(await page.textContent('main')).toContain('No money was taken.');
      expect(await page.textContent('main')).not.toContain('Premium paid');
      await page.screenshot({ path: path.join(SHOTS, `${name}-policy-page-${width}.png`), fullPage: true });
      expect({ width, violations: (await runAxe(page, { frames: true })).violations }).toEqual({
        width,
        violations: [],
      });

      if (width === 1280) {
        const docs = page.locator('ul.docs a');
        const hrefs = await docs.evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href));
        expect(hrefs).toHaveLength(3);
        const [certificate, wording, wordingPdf] = hrefs as [string, string, string];
        expect(certificate).toContain(`/policies/${policyNumber}/certificate.pdf?access_token=`);
        for (const [href, type] of [
          [certificate, 'application/pdf'],
          [wording, 'text/html'],
          [wordingPdf, 'application/pdf'],
        ] as const) {
          const res = await page.request.get(href);
          expect({ href, status: res.status(), type: res.headers()['content-type']?.split(';')[0] }).toEqual({
            href,
            status: 200,
            type,
          });
          if (type === 'application/pdf') expect(pdfText(await res.body())).not.toContain('I am an AI assistant');
        }
        // The wording opens as a page in the browser, from the policy page's own link.
        await Promise.all([page.waitForURL(wording), docs.nth(1).click()]);
        expect(await page.textContent('h1')).toMatch(/\S/);
      }
      await context.close();
    }
  }

  it('widget (Tier 3) on the demo page → confirmation e-mail → policy page → certificate and wording', async () => {
    const email = 'ada.journey@example.org';
    const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
    const page = await context.newPage();
    await page.goto(platform.urls.demo);
    await page.waitForSelector('#events li[data-event="widget.ready"]', { timeout: 30_000 });
    const widget = page.frameLocator('#svc-widget iframe');
    await widget.locator('#svc-email').fill(email);
    await widget.locator('form button[type=submit]').click();
    const card = widget.locator('article.svc-plan--recommended');
    await card.waitFor({ timeout: 30_000 });
    await card.getByRole('button', { name: /^Buy/ }).click();
    await widget.locator('#svc-card-number').fill('4242 4242 4242 4242');
    await widget.locator('#svc-card-expiry').fill('12/30');
    await widget.locator('#svc-card-cvc').fill('123');
    await widget.getByRole('button', { name: /^Pay/ }).click();

    const success = widget.locator('.svc-confirmation');
    await success.getByText('Your policy number is').waitFor({ timeout: 30_000 });
    const number = success.locator('.svc-policy-number');
    const policyNumber = (await number.textContent())!;
    expect(policyNumber).toMatch(/^POL-/);
    expect(await success.textContent()).toContain(`is on its way to ${email}`);
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 1000 });
      await success.scrollIntoViewIfNeeded();
      await page.locator('#svc-widget').screenshot({ path: path.join(SHOTS, `widget-success-${width}.png`) });
      // Read out and typed in: the policy number stays on one line, even on a phone.
      expect({ width, lines: await number.evaluate((el) => el.getClientRects().length) }).toEqual({ width, lines: 1 });
    }
    await context.close();

    const record = await confirmationMail(policyNumber, email);
    await policyPage(policyLink(record, policyNumber), policyNumber, 'widget');
  });

  it('checkout link → the typed e-mail → pay → confirmation page → e-mail → policy page', async () => {
    const year = new Date().getUTCFullYear() + 1;
    const quote = await postJson(`${platform.urls.quote}/api/v1/quotes`, {
      destination: 'Antarctica',
      startDate: `${year}-01-10`,
      durationDays: 14,
      tripCost: 24000,
      travelers: 2,
      travelerAges: [45, 52],
      residence: 'GB',
    });
    const link = await postJson(`${platform.urls.quote}/api/v1/checkout`, {
      quoteId: quote.quoteId,
      planId: quote.plans[0].planId,
      sessionId: quote.sessionId,
    });

    const email = 'grace.journey@example.org';
    const context = await browser.newContext({ viewport: { width: 390, height: 900 } });
    const page = await context.newPage();
    await page.goto(link.checkoutUrl);
    await page.getByLabel('E-mail for your policy documents').fill(email);
    await page.fill('#card', '4242 4242 4242 4242');
    await page.fill('#exp', '12/30');
    await page.fill('#cvc', '123');
    await Promise.all([page.waitForURL(link.checkoutUrl), page.click('button[type=submit]')]);
    await page.locator('#policy-number').waitFor({ timeout: 30_000 });
    const policyNumber = (await page.textContent('#policy-number'))!;
    await page.screenshot({ path: path.join(SHOTS, 'checkout-confirmation-390.png'), fullPage: true });
    const record = await confirmationMail(policyNumber, email);
    const fromMail = policyLink(record, policyNumber);
    // The confirmation page links the same policy page as the e-mail.
    await Promise.all([page.waitForURL(fromMail), page.click('#policy-page')]);
    await expect(page.locator('h1').textContent()).resolves.toBe('Your travel insurance policy');
    await context.close();

    await policyPage(fromMail, policyNumber, 'checkout');
  });
});
