import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import request from 'supertest';
import type { Browser, Page } from 'playwright-core';
import { describeWithChromium, launchChromium } from '@expedition/platform/chromium';
import { prepareDatabase, type Database } from '@expedition/db';
import { createTestDatabase } from '@expedition/db/testing';
import { catalogSnapshot } from '@expedition/domain-pricing';
import { listen, type RunningServer } from '@expedition/http-kit';
import { resolveWebhookSecretKeys } from '@expedition/operators';
import { createStripeProcessor, type StripeProcessor } from '@expedition/payments';
import { startFakeStripeServer, type FakeStripeServer } from '@expedition/payments/testing';
import { signPayload } from '@expedition/webhook-signature';
import { composeQuoteApi, loadQuoteApiConfig } from '@expedition/app-quote-api';
import { composeWebhookDispatcher, loadDispatcherConfig } from '@expedition/app-webhook-dispatcher';
import { mailsOf } from './outbox';
import { freePort } from '@expedition/platform/testing';

/**
 * A checkout link in Stripe mode (PAYMENTS_PROVIDER=stripe), in Chromium: the page asks for the optional e-mail above
 * Stripe's Payment Element and stores it on the link before Stripe confirms the payment in the browser; Stripe's
 * `payment_intent.succeeded` then reaches the dispatcher's intake, which issues the policy, and the mail worker sends
 * the confirmation to the address the traveler typed. Stripe is the in-repo fake (the real `stripe` SDK talks to it);
 * js.stripe.com is answered by a stub Stripe.js that records the confirmation and redirects back as Stripe does.
 */
const WEBHOOK_SECRET = 'whsec_e2e_checkout_stripe_mail';
const silent = pino({ level: 'silent' });

/** Stands in for https://js.stripe.com/v3/: the page's calls, then Stripe's redirect back to `return_url`. */
const STUB_STRIPE_JS = `window.__stripe = { confirms: 0 };
window.Stripe = function (publishableKey) {
  return {
    elements: function (options) {
      window.__stripe.clientSecret = options.clientSecret;
      return { create: function () { return { mount: function (sel) { document.querySelector(sel).textContent = 'Card details (Stripe)'; } }; } };
    },
    confirmPayment: function (params) {
      window.__stripe.confirms += 1;
      sessionStorage.setItem('stubStripeClientSecret', window.__stripe.clientSecret);
      location.href = params.confirmParams.return_url + '?payment_intent=' + window.__stripe.clientSecret.split('_secret_')[0] + '&redirect_status=succeeded';
      return new Promise(function () {});
    },
  };
};`;

describeWithChromium()(
  'checkout link with Stripe: the typed e-mail reaches the confirmation mail through the processor webhook',
  () => {
    let db: Database;
    let fake: FakeStripeServer;
    let processor: StripeProcessor;
    let quoteApi: RunningServer;
    let dispatcher: ReturnType<typeof composeWebhookDispatcher>;
    let browser: Browser;
    let dataDir: string;
    let base: string;

    beforeAll(async () => {
      db = await createTestDatabase();
      await prepareDatabase(db, { catalog: catalogSnapshot() });
      fake = await startFakeStripeServer();
      processor = createStripeProcessor({
        testSecretKey: 'sk_test_e2e_checkout',
        webhookSecrets: [WEBHOOK_SECRET],
        host: fake.host,
        port: fake.port,
        protocol: fake.protocol,
      });
      const quotePort = await freePort();
      base = `http://localhost:${quotePort}`;
      dataDir = mkdtempSync(path.join(tmpdir(), 'checkout-stripe-mail-'));
      const env = {
        DATA_DIR: dataDir,
        LOG_LEVEL: 'silent',
        PAYMENTS_PROVIDER: 'stripe',
        STRIPE_TEST_SECRET_KEY: 'sk_test_e2e_checkout',
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
        STRIPE_TEST_PUBLISHABLE_KEY: 'pk_test_e2e_checkout',
        QUOTE_API_URL: base,
        MPP_SECRET_KEY: 'mpp-e2e-checkout-stripe-mail-secret-0123456789',
        WEBHOOK_WORKERS: '0',
      };
      quoteApi = await listen(composeQuoteApi({ config: loadQuoteApiConfig(env), db, logger: silent, processor }), {
        port: quotePort,
        host: '127.0.0.1',
      });
      const keys = resolveWebhookSecretKeys({ configured: undefined, embedded: true, dataDir });
      dispatcher = composeWebhookDispatcher({
        config: loadDispatcherConfig(env),
        db,
        logger: silent,
        webhookSecretKeys: keys,
        processor,
      });
      browser = await launchChromium();
    }, 120_000);
    afterAll(async () => {
      await browser?.close();
      await quoteApi?.close();
      await fake?.close();
      await db?.close();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    });

    async function openLink(): Promise<{ url: string; quoteId: string }> {
      const year = new Date().getUTCFullYear() + 1;
      const quote = await request(base)
        .post('/api/v1/quotes')
        .send({
          destination: 'Antarctica',
          startDate: `${year}-01-10`,
          durationDays: 14,
          tripCost: 24000,
          travelers: 1,
          travelerAges: [45],
          residence: 'GB',
        });
      expect(quote.status).toBe(200);
      const link = await request(base)
        .post('/api/v1/checkout')
        .send({ quoteId: quote.body.quoteId, planId: quote.body.plans[0].planId, sessionId: quote.body.sessionId });
      expect(link.status).toBe(200);
      return { url: link.body.checkoutUrl as string, quoteId: quote.body.quoteId as string };
    }

    async function newPage(): Promise<{ page: Page; failures: string[] }> {
      const context = await browser.newContext({ viewport: { width: 390, height: 900 } });
      await context.route('https://js.stripe.com/**', (route) =>
        route.fulfill({ contentType: 'text/javascript', body: STUB_STRIPE_JS }),
      );
      const page = await context.newPage();
      const failures: string[] = [];
      page.on('pageerror', (e) => failures.push(e.message));
      // A CSP refusal (e.g. of the page's own e-mail request) shows up as a console error.
      page.on(
        'console',
        (m) => m.type() === 'error' && /Content Security Policy/i.test(m.text()) && failures.push(m.text()),
      );
      return { page, failures };
    }

    /** What Stripe does once its Payment Element confirmed: the intent succeeds and a signed event goes to the intake. */
    async function stripeConfirmsAndReports(clientSecret: string) {
      const paymentId = clientSecret.split('_secret_')[0]!;
      await processor.confirmPayment({
        paymentId,
        mode: 'test',
        paymentMethod: 'pm_card_visa',
        idempotencyKey: `e2e_${paymentId}`,
      });
      const event = fake.events.filter((e) => e.type === 'payment_intent.succeeded').at(-1)!;
      const body = JSON.stringify(event);
      const res = await request(dispatcher.app)
        .post('/processor/events')
        .set('Content-Type', 'application/json')
        .set('Stripe-Signature', signPayload(body, WEBHOOK_SECRET, Math.floor(Date.now() / 1000)))
        .send(body);
      expect(res.status).toBe(200);
    }

    it('stores the typed address before Stripe pays; the webhook-issued policy is mailed there, once', async () => {
      const { url, quoteId } = await openLink();
      const { page, failures } = await newPage();
      await page.goto(url);
      await page.locator('#payment-element').getByText('Card details (Stripe)').waitFor();
      expect(await page.getByLabel('E-mail for your policy documents').getAttribute('type')).toBe('email');

      // An address the browser accepts but the server does not: the page says so and Stripe is never called.
      await page.getByLabel('E-mail for your policy documents').fill('grace@localhost');
      await page.getByRole('button', { name: 'Pay and issue my policy' }).click();
      await page.locator('#stripe-error').getByText('does not look right').waitFor();
      expect(await page.evaluate(() => (window as any).__stripe.confirms)).toBe(0);

      await page.getByLabel('E-mail for your policy documents').fill('grace.hopper@example.org');
      await page.getByRole('button', { name: 'Pay and issue my policy' }).click();
      await page.waitForURL(/redirect_status=succeeded/);
      await page.locator('#processing').waitFor();
      const session = await db.prisma.checkoutSession.findFirstOrThrow({ where: { quoteId } });
      expect(session.email).toBe('grace.hopper@example.org');

      await stripeConfirmsAndReports((await page.evaluate(() => sessionStorage.getItem('stubStripeClientSecret')))!);
      // The page refreshes itself (meta refresh) into the receipt once the dispatcher has issued the policy.
      await page.locator('#policy-number').waitFor({ timeout: 30_000 });
      const policyNumber = (await page.textContent('#policy-number'))!.trim();
      const policy = await db.prisma.policy.findFirstOrThrow({ where: { quoteId } });
      expect(policy.policyNumber).toBe(policyNumber);
      const payment = await db.prisma.payment.findFirstOrThrow({ where: { quoteId, status: 'succeeded' } });
      expect(payment).toMatchObject({ channel: 'checkout_link', checkoutSessionId: session.id, processor: 'stripe' });

      const worker = dispatcher.mailWorkers[0]!;
      while ((await worker.runOnce()) > 0);
      const mails = mailsOf(dataDir, policyNumber);
      expect(mails).toHaveLength(1);
      expect(mails[0]).toMatchObject({ to: 'grace.hopper@example.org' });
      expect(mails[0]!.subject).toContain('[TEST]');
      expect(failures).toEqual([]);
      await page.context().close();
    });
  },
);
