import { mkdirSync, mkdtempSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { describeWithChromium, launchChromium, runAxe } from '@expedition/platform/chromium';
import { createTestClock } from '@expedition/platform/testing';
import { createOutboxMailer } from '../src/mail/mailer';
import { createPortalHarness, type PortalHarness } from './harness';

const describeWithBrowser = describeWithChromium();

const PORT = 14073;
const SCREENS = path.join(process.env['TMPDIR'] ?? tmpdir(), 'expedition-screens');

describeWithBrowser('the dev outbox page in Chromium (strict CSP, axe-core)', () => {
  let h: PortalHarness;
  let server: Server;
  let browser: Browser;

  beforeAll(async () => {
    const dir = path.join(mkdtempSync(path.join(tmpdir(), 'outbox-browser-')), 'outbox');
    const outbox = createOutboxMailer({ dir, from: 'p@example.com', clock: createTestClock() });
    await outbox.send({
      to: 'ana@example.com',
      subject: 'Reset your password',
      text: 'Choose a new password here (the link works once, for 1 hour):\nhttp://portal.test:3004/reset-password?token=pr_abc',
    });
    await outbox.send({
      to: 'ana@example.com',
      subject: 'Your policy POL-2027-TEST01',
      text: 'You are covered. Your certificate is attached.',
      html: '<!doctype html><html lang="en"><head><title>Policy</title></head><body style="background:#fff"><h1 style="color:rgb(10, 90, 40)">You are covered</h1><p><a href="https://example.com/policy">Your policy page</a></p></body></html>',
      attachments: [
        { filename: 'certificate.pdf', content: Buffer.from('%PDF-1.7 test'), contentType: 'application/pdf' },
      ],
    });
    h = await createPortalHarness({
      deps: {
        outbox: {
          list: () => outbox.list(),
          html: (id) => outbox.html(id),
          attachment: (id, n) => outbox.attachment(id, n),
          dir,
        },
      },
    });
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

  it.each([
    ['light', 1280],
    ['dark', 390],
  ] as const)(
    '%s at %i px: styled, no CSP violation, no serious or critical axe violation',
    async (scheme, width) => {
      // The page itself runs under the strict CSP; axe is injected in a second context that bypasses it.
      const strict = await browser.newContext({
        viewport: { width, height: 800 },
        colorScheme: scheme,
        acceptDownloads: true,
      });
      const page = await strict.newPage();
      const errors: string[] = [];
      page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
      const res = await page.goto(`http://127.0.0.1:${PORT}/dev/outbox`);
      expect(res?.status()).toBe(200);
      await expect(page.locator('h1').textContent()).resolves.toBe('Mail outbox');
      await expect(page.locator('a[href*="reset-password"]').count()).resolves.toBe(1);
      // The stylesheet loaded under style-src 'self': the article has its border.
      const border = await page.evaluate<string>("getComputedStyle(document.querySelector('article')).borderTopStyle");
      expect(border).toBe('solid');
      // The HTML part as the traveler sees it: its inline styles applied inside the sandboxed frame.
      const mail = page.frameLocator('iframe[title^="The e-mail as the traveler sees it"]');
      await expect(mail.locator('h1').textContent()).resolves.toBe('You are covered');
      type Styles = { getComputedStyle(el: unknown): { color: string } };
      const color = await mail
        .locator('h1')
        .evaluate((el) => (globalThis as unknown as Styles).getComputedStyle(el).color);
      expect(color).toBe('rgb(10, 90, 40)');
      // The attachment downloads under its name.
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.click('a[download="certificate.pdf"]'),
      ]);
      expect(download.suggestedFilename()).toBe('certificate.pdf');
      expect(errors).toEqual([]);
      await page.screenshot({ path: path.join(SCREENS, `portal-outbox-${scheme}-${width}.png`), fullPage: true });
      await strict.close();

      const audit = await browser.newContext({
        viewport: { width, height: 800 },
        colorScheme: scheme,
        bypassCSP: true,
      });
      const auditPage = await audit.newPage();
      await auditPage.goto(`http://127.0.0.1:${PORT}/dev/outbox`);
      const result = await runAxe(auditPage, { rules: 'all' });
      const serious = result.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => v.id);
      expect(serious).toEqual([]);
      await audit.close();
    },
    60_000,
  );
});
