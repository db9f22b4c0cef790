import { verifySignature } from '@expedition/webhook-signature';
import type { Launched } from './launcher-harness';
import { buyOnOperatorPage, embedQuoteStatus, until, type Listening, type Received } from './portal-journey.helpers';
import {
  describeWithBrowser,
  usePortalJourney,
  WAIT,
  type BrowserPage,
  type PortalJourney,
} from './portal-journey.session';

/**
 * Issue 9 §5, the whole cross-app journey in real Chromium on `npm start`'s launcher (every app, PGlite, the
 * dispatcher with short retry delays): a new operator signs up in the portal, verifies the e-mail from the dev outbox,
 * sees its test key, allows its own origin and copies the Tier 3 snippet; the provider admin sets the operator's
 * webhook URL and signing secret; a page served from that origin containing exactly the snippet sells a policy with
 * test card 4242; the signed policy.issued reaches the operator's receiver and shows in the portal's delivery log and
 * dashboard; resend and "send a test event" reach the receiver signed with the secret; the admin enables embedding and
 * a live key starts working at the embed API; a rotation with a 24-hour grace keeps the old key working.
 * axe-core on the portal pages passed through (no serious or critical violation, asserted last); screenshots in
 * $TMPDIR/expedition-screens/portal-journey-*.png. The set-up and the repeated browser steps: portal-journey.session.ts.
 */
/** A public-looking origin for the live key (live keys ignore loopback origins by design). */
const LIVE_ORIGIN = 'https://tours.example';
const PASSWORD = 'glacier-walk-at-dawn-42';
const STEP = 300_000;
const usd = (cents: number) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(cents / 100);

describeWithBrowser(
  'the operator journey across the portal, the widget and the dispatcher (real launcher, Chromium)',
  () => {
    // What the journey learns along the way.
    const stamp = `${process.pid}-${Date.now()}`;
    const operatorEmail = `owner-${stamp}@polar-tours.example`;
    const operatorName = `Polar Tours ${stamp}`;
    let testKey = '';
    let snippet = '';
    let webhookSecret = '';
    let sale: Received | undefined;

    const journey = usePortalJourney({ snippet: () => snippet, operatorName });
    const { newContext, look, heading, go, adminOperatorPage, waitForLogRow } = journey;
    let platform: Launched;
    let host: Listening;
    let receiver: PortalJourney['receiver'];
    let owner: BrowserPage;
    beforeAll(() => ({ platform, host, receiver, owner } = journey));

    /** Verifies a delivery with the secret the admin was shown once. */
    function expectSigned(delivery: Received): void {
      expect(delivery.signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
      expect(
        verifySignature({ rawBody: delivery.rawBody, header: delivery.signature, secrets: webhookSecret }),
      ).toEqual({ ok: true, timestamp: expect.any(Number) });
      expect(
        verifySignature({ rawBody: delivery.rawBody, header: delivery.signature, secrets: 'not-the-secret' }),
      ).toEqual({ ok: false, reason: 'signature_mismatch' });
    }

    it(
      'sign up → verify the e-mail from the outbox → the dashboard shows a test key',
      async () => {
        const { page } = owner;
        await page.goto(`${platform.urls.portal}/`);
        await heading(page, 'Log in');
        await page.getByRole('link', { name: 'Create an operator account' }).click();
        await heading(page, 'Create your operator account');
        await page.getByLabel('Company name').fill(operatorName);
        await page.getByLabel('Your name (optional)').fill('Ana Lima');
        await page.getByLabel('Work e-mail').fill(operatorEmail);
        await page.getByLabel('Password').fill(PASSWORD);
        await look(page, 'signup');
        await page.getByRole('button', { name: 'Create account' }).click();
        await heading(page, 'Dashboard');
        await page.getByText('Please verify your e-mail address').waitFor();
        await page.getByText('Test mode works now').waitFor();
        testKey = (await page.locator('.secret__value').first().textContent())!.trim();
        expect(testKey).toMatch(/^pk_op_test_[0-9a-f]{48}$/);
        await page.locator('.loading').first().waitFor({ state: 'detached' });
        await look(page, 'dashboard-new');

        await page.getByRole('link', { name: 'open the mail outbox' }).click();
        const mail = page.locator('article', { hasText: operatorEmail });
        await mail.first().waitFor();
        await look(page, 'outbox');
        const verifyLink = await mail.locator('a[href*="/verify-email?token="]').first().getAttribute('href');
        expect(new URL(verifyLink!).origin).toBe(platform.urls.portal);
        await page.goto(verifyLink!);
        await page.getByText('your e-mail address is verified').waitFor();
        await look(page, 'verified');
        await page.getByRole('link', { name: 'Go to the dashboard' }).click();
        await heading(page, 'Dashboard');
        await page.getByText('Test mode works now').waitFor();
        expect(await page.getByText('Please verify your e-mail address').count()).toBe(0);
        expect((await page.locator('.secret__value').first().textContent())!.trim()).toBe(testKey);
      },
      STEP,
    );

    it(
      'allows its own origin and copies the Tier 3 snippet from the Integration page (clipboard)',
      async () => {
        const { page } = owner;
        await go(page, 'Allowed origins', 'Allowed origins');
        await page.getByLabel('Origin', { exact: true }).fill(host.url);
        await page.getByRole('button', { name: 'Add origin' }).click();
        await page.getByRole('listitem').filter({ hasText: host.url }).waitFor();
        await page.getByLabel('Page address or origin').fill(`${host.url}/`);
        await page.getByRole('button', { name: 'Test', exact: true }).click();
        await page.getByText(/accepted for 1 of 1 keys/).waitFor();
        await look(page, 'origins');

        await go(page, 'Integration', 'Integration');
        await page.getByRole('button', { name: 'Copy Tier 3 snippet' }).click();
        await page.getByRole('button', { name: 'Copied Tier 3 snippet' }).waitFor();
        snippet = await page.evaluate(() => navigator.clipboard.readText());
        expect(snippet).toBe(await page.locator('pre[aria-label="Tier 3 snippet"]').textContent());
        expect(snippet).toContain(`publishableKey: '${testKey}'`);
        expect(snippet).toContain(`<script src="${platform.urls.widget}/widget.js"></script>`);
        expect(snippet).toContain('tier: 3');
        await look(page, 'integration');
      },
      STEP,
    );

    it(
      'the provider admin sets the commission, the webhook URL and generates the signing secret (shown once)',
      async () => {
        const page = await adminOperatorPage();
        await page.getByText('disabled: test keys only').waitFor();
        await page.getByLabel('Commission (basis points)').fill('1500');
        await page.getByRole('button', { name: 'Save commission' }).click();
        await page.getByText('Commission set to 15% for future sales.').waitFor();

        await page.getByLabel('Endpoint URL').fill(`${receiver.url}${receiver.path}`);
        await page.getByRole('button', { name: 'Save URL' }).click();
        await page.getByText('Webhook URL saved.').waitFor();
        await page.getByRole('button', { name: 'Generate secret' }).click();
        const dialog = page.getByRole('dialog', { name: 'Generate a signing secret?' });
        await dialog.getByRole('button', { name: 'Generate secret' }).click();
        await page.getByText('Copy the new signing secret now').waitFor();
        webhookSecret = (await page.getByTestId('new-webhook-secret').textContent())!.trim();
        expect(webhookSecret.length).toBeGreaterThanOrEqual(32);
        await page.getByText('Signing secret: set').waitFor();
        await look(page, 'admin-operator');

        // The operator's owner sees the URL and the rate read-only, and can reveal the same secret.
        await go(owner.page, 'Webhooks', 'Webhooks');
        await owner.page.getByText(`${receiver.url}${receiver.path}`).waitFor();
        await owner.page.getByText('15%').waitFor();
        await owner.page.getByRole('button', { name: 'Reveal signing secret' }).click();
        await owner.page.locator('.secret__value', { hasText: webhookSecret }).waitFor();
      },
      STEP,
    );

    let paid: Record<string, unknown> = {};

    it(
      'a page on that origin containing exactly the snippet: the widget mounts, quotes, and sells a policy with 4242',
      async () => {
        const { context, page } = await newContext();
        const served = await page.goto(host.url);
        expect(await served!.text()).toContain(`<main>\n<h1>Antarctic voyage</h1>\n${snippet}\n</main>`);
        const { planId, events } = await buyOnOperatorPage(page, look, WAIT);
        expect(events.filter((e) => !e.name.startsWith('quote.')).map((e) => e.name)).toEqual(['payment.succeeded']);
        paid = events.find((e) => e.name === 'payment.succeeded')!.event;
        expect(paid).toMatchObject({
          quoteId: expect.any(String),
          planId,
          premiumCents: expect.any(Number),
          currency: 'USD',
        });
        await look(page, 'host-paid', true);
        await context.close();

        // The signed policy.issued reaches the operator's receiver.
        sale = await until('policy.issued at the receiver', () =>
          receiver.received.find((r) => r.body['quoteId'] === paid['quoteId']),
        );
        expectSigned(sale);
        const premium = paid['premiumCents'] as number;
        expect(sale.body).toMatchObject({
          type: 'policy.issued',
          mode: 'test',
          quoteId: paid['quoteId'],
          planId,
          premiumCents: premium,
          currency: 'USD',
          commissionRateBps: 1500,
        });
        expect(sale.body).not.toHaveProperty('test');
        expect(Math.abs((sale.body['commissionCents'] as number) - (premium * 1500) / 10_000)).toBeLessThanOrEqual(1);
      },
      STEP,
    );

    it(
      "the event appears delivered in the portal's delivery log, and the dashboard counts 1 purchase, its premium and commission",
      async () => {
        expect(sale).toBeDefined();
        const { page } = owner;
        const eventId = sale!.body['eventId'] as string;
        await go(page, 'Webhooks', 'Webhooks');
        const row = await waitForLogRow(page, eventId, 'delivered');
        await row.getByText(sale!.body['policyNumber'] as string).waitFor();
        await row.getByText('HTTP 200').waitFor();
        await look(page, 'webhooks-delivered');

        await go(page, 'Dashboard', 'Dashboard');
        const stat = (label: string) =>
          page
            .locator('.stat', { has: page.locator('.stat__label', { hasText: new RegExp(`^${label}`) }) })
            .locator('.stat__value');
        expect(await stat('Purchases').textContent()).toBe('1');
        expect(Number(await stat('Quotes').textContent())).toBeGreaterThanOrEqual(1);
        expect(await stat('Premium').textContent()).toBe(usd(sale!.body['premiumCents'] as number));
        expect(await stat('Commission').textContent()).toBe(usd(sale!.body['commissionCents'] as number));
        const policy = page.locator('tbody tr', { hasText: sale!.body['policyNumber'] as string });
        await policy.waitFor();
        expect(await policy.locator('td[data-label="Premium"]').textContent()).toBe(
          usd(sale!.body['premiumCents'] as number),
        );
        expect(await policy.locator('td[data-label="Commission"]').textContent()).toBe(
          usd(sale!.body['commissionCents'] as number),
        );
        await look(page, 'dashboard-sale');
      },
      STEP,
    );

    it(
      'resend and "Send a test event" reach the receiver, signed with the secret',
      async () => {
        expect(sale).toBeDefined();
        const { page } = owner;
        const eventId = sale!.body['eventId'] as string;
        await go(page, 'Webhooks', 'Webhooks');
        await waitForLogRow(page, eventId, 'delivered');
        const before = receiver.received.length;
        await page.getByRole('button', { name: `Resend ${eventId}` }).click();
        await page.getByText(`${eventId} queued for a new attempt.`).waitFor();
        const again = await until('the resent event at the receiver', () =>
          receiver.received.slice(before).find((r) => r.body['eventId'] === eventId),
        );
        expectSigned(again);
        expect(again.body).toEqual(sale!.body);
        await waitForLogRow(page, eventId, 'delivered');

        const beforeTest = receiver.received.length;
        await page.getByRole('button', { name: 'Send a test event' }).click();
        await page.getByText(/Test event queued/).waitFor();
        const test = await until('the test event at the receiver', () =>
          receiver.received.slice(beforeTest).find((r) => r.body['test'] === true),
        );
        expectSigned(test);
        expect(test.body).toMatchObject({
          type: 'policy.issued',
          test: true,
          eventId: expect.stringMatching(/^evt_test_/),
          operatorId: sale!.body['operatorId'],
        });
        const testRow = await waitForLogRow(page, test.body['eventId'] as string, 'delivered');
        await testRow.getByText('test event').waitFor();
        await look(page, 'webhooks-resent-and-test');

        // A test event is never a sale: the dashboard still counts one purchase.
        await go(page, 'Dashboard', 'Dashboard');
        expect(
          await page
            .locator('.stat', { has: page.locator('.stat__label', { hasText: /^Purchases/ }) })
            .locator('.stat__value')
            .textContent(),
        ).toBe('1');
      },
      STEP,
    );

    let liveKey = '';
    let liveKeyId = '';

    it(
      'a live key created in the portal is refused until the provider admin enables embedding, then works at the embed API',
      async () => {
        const { page } = owner;
        await go(page, 'Allowed origins', 'Allowed origins');
        await page.getByLabel('Origin', { exact: true }).fill(LIVE_ORIGIN);
        await page.getByRole('button', { name: 'Add origin' }).click();
        await page.getByRole('listitem').filter({ hasText: LIVE_ORIGIN }).waitFor();

        await go(page, 'API keys', 'API keys');
        await page.getByLabel('Mode').first().selectOption('live');
        await page.getByLabel('Label (optional)').fill('tours site');
        await page.getByRole('button', { name: 'Create key' }).click();
        await page.getByText('New live key created.').waitFor();
        const created = page.locator('tbody tr[data-key-id]', { hasText: 'tours site' });
        await created.getByText('refused until the provider enables live embedding').waitFor();
        liveKeyId = (await created.getAttribute('data-key-id'))!;
        const liveRow = page.locator(`tbody tr[data-key-id="${liveKeyId}"]`);
        liveKey = (await liveRow.locator('code[title]').getAttribute('title'))!;
        expect(liveKey).toMatch(/^pk_op_[0-9a-f]{48}$/);
        await look(page, 'keys-live-refused');

        expect(await embedQuoteStatus(platform.urls.embed, liveKey, LIVE_ORIGIN)).toBe(401);
        // The test key works on the same origin meanwhile (the live refusal is about embedding, not the origin).
        expect(await embedQuoteStatus(platform.urls.embed, testKey, LIVE_ORIGIN)).toBe(200);

        const adminPage = await adminOperatorPage();
        await adminPage.getByRole('button', { name: 'Enable live embedding' }).click();
        await adminPage
          .getByRole('dialog', { name: 'Enable live embedding?' })
          .getByRole('button', { name: 'Enable live embedding' })
          .click();
        await adminPage.getByText('enabled: live keys work').waitFor();
        await look(adminPage, 'admin-live-enabled');

        // The key cache bounds the change at 5 s: poll up to 10 s.
        await until(
          'the live key to be accepted',
          async () => (await embedQuoteStatus(platform.urls.embed, liveKey, LIVE_ORIGIN)) === 200,
          10_000,
          500,
        );
        // Live keys ignore loopback origins by design, even listed ones.
        expect(await embedQuoteStatus(platform.urls.embed, liveKey, host.url)).toBe(403);

        await page.reload();
        await heading(page, 'API keys');
        await liveRow.waitFor();
        expect(await liveRow.getByText('refused until the provider enables live embedding').count()).toBe(0);
      },
      STEP,
    );

    it(
      'rotating the live key with a 24-hour grace: the new key works and the old key keeps working (a rotation with no grace stops it)',
      async () => {
        expect(liveKey).not.toBe('');
        const { page } = owner;
        await go(page, 'API keys', 'API keys');
        const liveRow = page.locator(`tbody tr[data-key-id="${liveKeyId}"]`);
        await liveRow.getByRole('button', { name: /^Rotate/ }).click();
        const dialog = page.getByRole('dialog', { name: 'Rotate this key' });
        await dialog.getByLabel('For 24 hours').check();
        await dialog.getByRole('button', { name: 'Rotate key' }).click();
        await page.getByText('Key rotated.').waitFor();
        const newKey = (await page
          .locator('.banner', { hasText: 'New key ready' })
          .locator('.secret__value')
          .textContent())!.trim();
        expect(newKey).toMatch(/^pk_op_[0-9a-f]{48}$/);
        expect(newKey).not.toBe(liveKey);
        await liveRow.locator('.svc-badge', { hasText: /^expires (tomorrow|in 2[34] hours)$/ }).waitFor();
        await look(page, 'keys-rotated');

        expect(await embedQuoteStatus(platform.urls.embed, newKey, LIVE_ORIGIN)).toBe(200);
        expect(await embedQuoteStatus(platform.urls.embed, liveKey, LIVE_ORIGIN)).toBe(200);
        // Once the key cache's 5 s are over, the old key is read afresh from the database (expiring tomorrow): still 200.
        await new Promise((r) => setTimeout(r, 6_000));
        expect(await embedQuoteStatus(platform.urls.embed, liveKey, LIVE_ORIGIN)).toBe(200);

        // The grace is what keeps it working: the new key rotated with "Stop it now" is refused (within the cache's 5 s).
        await page.getByRole('button', { name: 'Done' }).click();
        const newRow = page.locator('tbody tr[data-key-id]', { has: page.locator(`code[title="${newKey}"]`) });
        await newRow.getByRole('button', { name: /^Rotate/ }).click();
        await dialog.getByLabel('Stop it now (pages using it break at once)').check();
        await dialog.getByRole('button', { name: 'Rotate and stop the old key now' }).click();
        await page.getByText('Key rotated.').first().waitFor();
        await newRow.locator('.svc-badge', { hasText: /^(expired|revoked)$/ }).waitFor();
        await until(
          'the key rotated with no grace to be refused',
          async () => (await embedQuoteStatus(platform.urls.embed, newKey, LIVE_ORIGIN)) === 401,
          10_000,
          500,
        );
        expect(await embedQuoteStatus(platform.urls.embed, liveKey, LIVE_ORIGIN)).toBe(200);
      },
      STEP,
    );

    it('no serious or critical axe-core violation on the pages passed through, no page error or CSP violation', () => {
      expect(journey.axeFindings).toEqual([]);
      expect(journey.pageErrors).toEqual([]);
    });
  },
);
