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
    h = await createPortalHarness({ deps: { outbox: { list: () => outbox.list(), dir } } });
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
      const strict = await browser.newContext({ viewport: { width, height: 800 }, colorScheme: scheme });
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
