import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { describeWithChromium, launchChromium } from '@expedition/platform/chromium';
import { NO_WEBHOOK_URL_ERROR } from '@expedition/contracts';
import type { Database } from '@expedition/db';
import { axeSerious } from './portal-journey.helpers';
import { type RunningPortal, startPortal } from './portal-server.helpers';

/**
 * The Webhooks page of a self-signed-up operator before the provider has set its webhook URL (docs/contract.md: the
 * provider sets it; docs/portal-api.md, "No webhook URL yet"), in real Chromium against the real portal server under
 * its strict CSP: it says it is waiting for the provider and what to send them, "Send a test event" is disabled with
 * a visible reason (aria-describedby), and a sale's event reads "not sent", not "failed". Then the provider sets the
 * URL and both work. axe-core (WCAG 2.1 A/AA, no serious or critical finding) and a screenshot at 390 and 1280 px of
 * each changed screen, in PORTAL_SHOTS_DIR (default $TMPDIR/expedition-screens) as portal-*.png.
 */
const SHOTS = process.env.PORTAL_SHOTS_DIR ?? path.join(tmpdir(), 'expedition-screens');
const WIDTHS = [390, 1280] as const;
const PASSWORD = 'glacier-walk-at-dawn-42';

describeWithChromium()(
  'portal webhooks without a webhook URL, in Chromium (axe and screenshots at 390 and 1280 px)',
  () => {
    let running: RunningPortal | undefined;
    let db: Database;
    let browser: Browser;
    let page: Page;
    const pageErrors: string[] = [];

    beforeAll(async () => {
      mkdirSync(SHOTS, { recursive: true });
      running = await startPortal('portal-webhook-state');
      db = running.db;
      browser = await launchChromium();
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      page = await context.newPage();
      // Two cores shared with other suites: argon2 and PostgreSQL can be slow; waits are for states, never for times.
      page.setDefaultTimeout(60_000);
      page.on('console', (message) => {
        if (/Content[- ]Security[- ]Policy/i.test(message.text())) pageErrors.push(message.text());
      });
      page.on('pageerror', (error) => pageErrors.push(`page error: ${error.message}`));
    }, 180_000);

    afterAll(async () => {
      await browser?.close();
      await running?.close();
    });

    afterEach(() => {
      expect(pageErrors).toEqual([]);
    });

    /** axe-core and a full-page screenshot at each width; nothing wider than the window. */
    async function audit(name: string): Promise<void> {
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 900 });
        const screen = `${name} at ${width}px`;
        expect(await axeSerious(page, screen)).toEqual([]);
        await page.screenshot({ path: path.join(SHOTS, `portal-${name}-${width}.png`), fullPage: true });
        const pageWidth = await page.evaluate(() => document.documentElement.scrollWidth);
        expect({ screen, pageWidth }).toEqual({ screen, pageWidth: width });
      }
      await page.setViewportSize({ width: 1280, height: 900 });
    }

    const heading = (text: string) => page.getByRole('heading', { level: 1, name: text }).waitFor();
    const testButton = () => page.getByRole('button', { name: 'Send a test event' });
    let operatorId = '';
    let eventId = '';

    it('a new operator’s Webhooks page: waiting for the provider, what to send them, the test event disabled with its reason', async () => {
      await page.goto(`${running!.url}/signup`);
      await heading('Create your operator account');
      await page.getByLabel('Company name').fill('Fjord Kayak Co');
      await page.getByLabel('Work e-mail').fill(`owner-${process.pid}-${Date.now()}@fjord.example`);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Create account' }).click();
      await heading('Dashboard');
      operatorId = (await db.prisma.operator.findFirstOrThrow({ where: { name: 'Fjord Kayak Co' } })).id;

      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Webhooks', exact: true }).click();
      await heading('Webhooks');
      await page.getByText('Waiting for the provider to set your webhook URL').waitFor();
      const note = page.locator('.banner', { hasText: 'Waiting for the provider' });
      for (const text of ['https://', 'policy.issued', 'Reveal signing secret', 'You cannot set it here'])
        expect(await note.innerText()).toContain(text);
      await page.getByText('not set yet: the provider sets it').waitFor();

      // Disabled, and its accessible description is the visible reason.
      await testButton().waitFor();
      expect(await testButton().isDisabled()).toBe(true);
      const describedBy = await testButton().getAttribute('aria-describedby');
      expect(describedBy).toBeTruthy();
      const reason = page.locator(`[id="${describedBy}"]`);
      expect(await reason.isVisible()).toBe(true);
      expect(await reason.innerText()).toBe('Available once the provider has set your webhook URL.');

      // The empty log does not invite a test event that cannot be sent.
      await page.getByText('No webhook events yet').waitFor();
      expect(await page.getByText('Send a test event to check your receiver').count()).toBe(0);
      await audit('webhook-awaiting-provider');
    });

    it('a sale without a URL is logged "not sent · no webhook URL configured", not failed, and cannot be resent yet', async () => {
      // The outbox row fulfilment writes for a sale of an operator without a URL (apps/webhook-dispatcher/README.md).
      eventId = `evt_${randomUUID()}`;
      await db.prisma.webhookEvent.create({
        data: {
          eventId,
          type: 'policy.issued',
          operatorId,
          payload: { eventId, type: 'policy.issued', mode: 'test', policyNumber: 'POL-FJORD-01', premiumCents: 48_900 },
          status: 'failed',
          attempts: 0,
          lastError: NO_WEBHOOK_URL_ERROR,
        },
      });
      await page.getByRole('button', { name: 'Refresh' }).click();
      const row = page.locator(`tbody tr[data-event-id="${eventId}"]`);
      await row.waitFor();
      expect(await row.locator('td[data-label="State"]').innerText()).toBe('not sent');
      expect(await row.locator('td[data-label="Last result"]').innerText()).toBe(NO_WEBHOOK_URL_ERROR);
      expect(await row.locator('.error-text').count()).toBe(0);
      expect(await row.getByRole('button', { name: /Resend/ }).count()).toBe(0);

      // "Failed" leaves it out; "Not sent" lists it.
      const state = page.getByLabel('State');
      await state.selectOption('failed');
      await row.waitFor({ state: 'detached' });
      await page.getByText('No webhook events yet').waitFor();
      await state.selectOption('not_sent');
      await row.waitFor();
      await state.selectOption('');
      await row.waitFor();
      await audit('webhook-not-sent');

      await row.getByRole('link', { name: eventId }).click();
      await heading('Webhook event');
      await page.getByText('Not sent: no webhook URL configured').waitFor();
      await page.getByText('No attempt: no webhook URL was configured, so the event was not sent.').waitFor();
      expect(await page.getByRole('button', { name: 'Resend' }).count()).toBe(0);
      await audit('webhook-event-not-sent');
    });

    it('once the provider sets the URL: the note goes, the test event is enabled, the not-sent event can be resent', async () => {
      await db.prisma.operator.update({
        where: { id: operatorId },
        data: { webhookUrl: 'https://hooks.fjord.example/expedition' },
      });
      await page.goto(`${running!.url}/webhooks`);
      await heading('Webhooks');
      await page.getByText('https://hooks.fjord.example/expedition').waitFor();
      expect(await page.getByText('Waiting for the provider').count()).toBe(0);
      expect(await testButton().isDisabled()).toBe(false);
      expect(await testButton().getAttribute('aria-describedby')).toBeNull();
      const row = page.locator(`tbody tr[data-event-id="${eventId}"]`);
      await row.getByRole('button', { name: `Resend ${eventId}` }).click();
      await page.getByText(`${eventId} queued for a new attempt.`).waitFor();
      await row.locator('td[data-label="State"]', { hasText: 'pending' }).waitFor();
      await testButton().click();
      await page.getByText(/Test event queued/).waitFor();
      await audit('webhook-url-set');
    });

    it('the Integration page shows the loader snippet of 1.1.0 and later: title and widget.error', async () => {
      await page.getByRole('button', { name: 'Dismiss notification' }).click();
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Integration', exact: true })
        .click();
      await heading('Integration');
      const tier2 = await page.locator('pre[aria-label="Tier 2 snippet"]').innerText();
      expect(tier2).toContain("title: 'Travel insurance quote',");
      expect(tier2).toContain("SvcWidget.on('widget.error', (event) => {");
      await audit('integration');
    });
  },
);
