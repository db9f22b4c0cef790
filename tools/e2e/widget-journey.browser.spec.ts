import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import type { Browser, BrowserContext, FrameLocator, Page } from 'playwright-core';
import { describeWithChromium, launchChromium } from '@expedition/platform/chromium';
import { launch, waitForPolicyIssued, type Launched } from './launcher-harness';
import { ensureWidgetBundles, POST_MESSAGE_PROBE, workspaceRoot } from './widget-stub-frame';

/**
 * The real widget, end to end, in Chromium: `npm start`'s launcher (widget server, embed API, dispatcher, demo operator
 * site) on ports the OS picks; the demo operator's page (its origin) mounts the loader from WIDGET_URL (another
 * origin), the traveler quotes, picks a plan and pays inside the iframe, and the verified policy.issued lands in the
 * operator's back office. Then the failure branches: a declined card, Tier 2's hosted checkout, a refused key and a
 * page whose origin the key does not allow.
 */
const describeWithBrowser = describeWithChromium();

interface LoggedEvent {
  name: string;
  event: Record<string, any>;
}

describeWithBrowser('the widget journey in Chromium (real widget server, frame and demo page)', () => {
  let platform: Launched;
  let browser: Browser;
  let widgetUrl: string;
  /** A host page on an origin no key allows (a real server: Chromium refuses loopback requests from routed pages). */
  let stranger: Server;
  let strangerUrl: string;
  beforeAll(async () => {
    ensureWidgetBundles();
    platform = await launch();
    widgetUrl = platform.urls.widget;
    browser = await launchChromium();
    const app = express();
    app.get('/host', (_req, res) => {
      res
        .type('html')
        .send(
          `<!doctype html><html lang="en"><head><title>host</title><script src="${widgetUrl}/widget.js"></script></head><body><div id="w"></div></body></html>`,
        );
    });
    await new Promise<void>((resolve) => (stranger = app.listen(0, '127.0.0.1', () => resolve())));
    strangerUrl = `http://localhost:${(stranger.address() as AddressInfo).port}`;
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
    stranger?.closeAllConnections();
    await new Promise((r) => stranger?.close(r));
  });

  async function newContext(): Promise<{ context: BrowserContext; page: Page; failures: string[] }> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
    await context.addInitScript(POST_MESSAGE_PROBE);
    const page = await context.newPage();
    const failures: string[] = [];
    page.on('pageerror', (e) => failures.push(e.message));
    return { context, page, failures };
  }

  /** The demo page logs every widget event it receives (`#events li[data-event]`, payload as JSON), newest first. */
  async function logged(page: Page): Promise<LoggedEvent[]> {
    const items = await page.$$eval('#events li[data-event]', (lis) =>
      lis.map((li) => ({ name: (li as HTMLElement).dataset['event']!, json: li.querySelector('pre')!.textContent! })),
    );
    return items.reverse().map((i) => ({ name: i.name, event: JSON.parse(i.json) }));
  }
  const waitForLogged = (page: Page, name: string, count = 1, timeout = 30_000) =>
    page.waitForFunction(
      ({ name, count }) => document.querySelectorAll(`#events li[data-event="${name}"]`).length >= count,
      { name, count },
      { timeout },
    );
  const frame = (page: Page): FrameLocator => page.frameLocator('#svc-widget iframe');

  /** Quotes the prefilled trip in the iframe and waits for the plan cards. */
  async function quote(page: Page): Promise<FrameLocator> {
    const widget = frame(page);
    await widget.locator('form button[type=submit]').click();
    await widget.locator('article.svc-plan').first().waitFor({ timeout: 30_000 });
    return widget;
  }

  async function payWith(widget: FrameLocator, card: string) {
    await widget.locator('article.svc-plan--recommended').getByRole('button', { name: /^Buy/ }).click();
    await widget.locator('#svc-card-number').fill(card);
    await widget.locator('#svc-card-expiry').fill('12/30');
    await widget.locator('#svc-card-cvc').fill('123');
    await widget.getByRole('button', { name: /^Pay/ }).click();
  }

  it('Tier 3: quote.ready, quote.selected in integer cents, payment.succeeded, then the verified policy.issued', async () => {
    const { context, page, failures } = await newContext();
    await page.goto(platform.urls.demo);
    await waitForLogged(page, 'widget.ready');
    const widget = await quote(page);
    await waitForLogged(page, 'quote.ready', 3);
    const ready = (await logged(page)).filter((e) => e.name === 'quote.ready');
    const quoteId = ready.at(-1)!.event['quoteId'] as string;
    expect(quoteId).toEqual(expect.any(String));
    expect(ready.at(-1)!.event['plansCount']).toBeGreaterThan(0);

    const card = widget.locator('article.svc-plan--recommended');
    const shownCents = Number(await card.locator('[data-premium-cents]').getAttribute('data-premium-cents'));
    await card.locator('h3').click();
    await waitForLogged(page, 'quote.selected');
    const selected = (await logged(page)).find((e) => e.name === 'quote.selected')!.event;
    expect(selected).toEqual({
      planId: await card.getAttribute('data-plan-id'),
      premiumCents: shownCents,
      currency: 'USD',
      instanceId: expect.stringMatching(/^svc-/),
    });
    expect(Number.isInteger(selected['premiumCents'])).toBe(true);
    expect(selected).not.toHaveProperty('quoteId');

    await payWith(widget, '4242 4242 4242 4242');
    await waitForLogged(page, 'payment.succeeded');
    const paid = (await logged(page)).find((e) => e.name === 'payment.succeeded')!.event;
    expect(paid).toMatchObject({ quoteId, planId: selected['planId'], premiumCents: shownCents, currency: 'USD' });

    const webhook = await waitForPolicyIssued(platform.urls.demo, quoteId, 30_000);
    expect(webhook.payload).toMatchObject({
      type: 'policy.issued',
      quoteId,
      planId: selected['planId'],
      premiumCents: shownCents,
      operatorId: platform.demo.operatorId,
    });
    // The operator's page shows the policy once its own back office has the verified webhook.
    await page.waitForSelector('#confirmation [data-policy-number]', { timeout: 30_000 });
    expect(await page.textContent('#confirmation [data-policy-number]')).toBe(webhook.payload['policyNumber']);

    // Neither side ever posted to "*": the page only to the widget origin, the iframe only to the page origin.
    const pagePosts = await page.evaluate(() => (window as any).__svcPosts as { targetOrigin: string }[]);
    const iframe = page.frames().find((f) => f.url().startsWith(`${widgetUrl}/frame`))!;
    const framePosts = await iframe.evaluate(() => (window as any).__svcPosts as { targetOrigin: string }[]);
    expect(pagePosts.length).toBeGreaterThan(0);
    expect(framePosts.length).toBeGreaterThan(4);
    expect(new Set(pagePosts.map((p) => p.targetOrigin))).toEqual(new Set([widgetUrl]));
    expect(new Set(framePosts.map((p) => p.targetOrigin))).toEqual(new Set([platform.urls.demo]));
    expect(failures).toEqual([]);
    await context.close();
  });

  it("Tier 3 in German (MountConfig.locale 'de-DE'): widget, payment, confirmation and the policyholder's e-mail", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
    const page = await context.newPage();
    await page.goto(`${platform.urls.demo}/?locale=de-DE`);
    await waitForLogged(page, 'widget.ready');
    const widget = frame(page);
    await expect(widget.locator('h1').textContent()).resolves.toBe('Sichern Sie Ihre Reise ab');
    await widget.locator('form button[type=submit]').click();
    await widget.locator('article.svc-plan').first().waitFor({ timeout: 30_000 });
    await expect(widget.locator('.svc-plans__title').textContent()).resolves.toMatch(/Tarife? für Ihre Reise/);
    await widget
      .locator('article.svc-plan--recommended')
      .getByRole('button', { name: /^Kaufen/ })
      .click();
    await widget.locator('#svc-card-number').fill('4242 4242 4242 4242');
    await widget.locator('#svc-card-expiry').fill('12/30');
    await widget.locator('#svc-card-cvc').fill('123');
    await widget.getByRole('button', { name: /bezahlen$/ }).click();
    await waitForLogged(page, 'payment.succeeded');
    await expect(widget.locator('.svc-confirmation').textContent()).resolves.toMatch(/Ihre Policennummer lautet POL-/);
    const quoteId = (await logged(page)).find((e) => e.name === 'payment.succeeded')!.event['quoteId'] as string;
    const { payload } = await waitForPolicyIssued(platform.urls.demo, quoteId, 30_000);
    const policyNumber = payload['policyNumber'] as string;

    // The confirmation e-mail, sent later by the dispatcher's worker, is German: the quote recorded the language.
    const deadline = Date.now() + 30_000;
    let mail: { subject: string; text: string } | undefined;
    while (!mail && Date.now() < deadline) {
      const outbox = (await (await fetch(`${platform.urls.portal}/api/portal/v1/dev/outbox`)).json()) as {
        mails: { subject: string; text: string }[];
      };
      mail = outbox.mails.find((m) => m.subject.includes(policyNumber));
      if (!mail) await new Promise((r) => setTimeout(r, 250));
    }
    expect(mail?.subject).toBe(`[TEST] Ihre Expeditionsversicherung: Police ${policyNumber}`);
    expect(mail?.text).toContain(`Policennummer: ${policyNumber}`);
    expect(mail?.text).toContain('Reiseziel: Antarktis');
    await context.close();
  });

  it('Tier 3: a declined card gives payment.failed and no payment.succeeded', async () => {
    const { context, page } = await newContext();
    await page.goto(platform.urls.demo);
    const widget = await quote(page);
    await payWith(widget, '4000 0000 0000 0002');
    await waitForLogged(page, 'payment.failed');
    const events = await logged(page);
    expect(events.find((e) => e.name === 'payment.failed')!.event).toMatchObject({
      code: expect.any(String),
      instanceId: expect.any(String),
    });
    expect(events.some((e) => e.name === 'payment.succeeded')).toBe(false);
    await context.close();
  });

  it('Tier 2: Buy opens our hosted checkout for the chosen plan in a new tab', async () => {
    const { context, page } = await newContext();
    await page.goto(`${platform.urls.demo}/?tier=2`);
    const widget = await quote(page);
    const [checkout] = await Promise.all([
      context.waitForEvent('page', { timeout: 30_000 }),
      widget.locator('article.svc-plan--recommended').getByRole('button', { name: /^Buy/ }).click(),
    ]);
    await checkout.waitForLoadState();
    expect(new URL(checkout.url()).origin).toBe(platform.urls.quote);
    await checkout.waitForSelector('#card');
    await waitForLogged(page, 'quote.selected');
    expect((await logged(page)).some((e) => e.name.startsWith('payment.'))).toBe(false);
    await context.close();
  });

  /** A page on an origin that no key allows, mounting the widget with `key` (and `extra` MountConfig). */
  async function hostPage(page: Page, key: string, extra: Record<string, unknown> = {}) {
    await page.goto(`${strangerUrl}/host`);
    await page.evaluate(
      ({ key, extra }) => {
        const w = window as any;
        w.__events = [];
        for (const name of ['widget.ready', 'widget.error', 'quote.ready', 'quote.error'])
          w.SvcWidget.on(name, (e: unknown) => w.__events.push({ name, event: e }));
        w.SvcWidget.mount('#w', { publishableKey: key, loadTimeoutMs: 10_000, ...extra });
      },
      { key, extra },
    );
  }

  /** The demo operator's owner in the portal API: log in, then a state-changing call with CSRF token and Origin. */
  async function portal(): Promise<(method: string, path: string, body?: unknown) => Promise<any>> {
    const base = `${platform.urls.portal}/api/portal/v1`;
    const origin = platform.urls.portal;
    const login = await fetch(`${base}/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: origin },
      body: JSON.stringify({ email: platform.demo.portalEmail, password: platform.demo.portalPassword }),
    });
    expect(login.status).toBe(200);
    const cookie = login.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const { csrfToken } = (await login.json()) as { csrfToken: string };
    return async (method, path, body) => {
      const res = await fetch(`${base}${path}`, {
        method,
        headers: { 'Content-Type': 'application/json', Origin: origin, Cookie: cookie, 'X-CSRF-Token': csrfToken },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
      return res.json();
    };
  }

  const waitForWidgetEvent = (page: Page, name: string) =>
    page.waitForFunction((name) => (window as any).__events.some((e: LoggedEvent) => e.name === name), name, {
      timeout: 20_000,
    });

  it('a revoked key: the frame renders no form and posts quote.error unauthorized (an unknown key alike)', async () => {
    const call = await portal();
    const { key } = (await call('POST', '/operator/keys', { mode: 'test', label: 'revoked in e2e' })) as {
      key: { id: string; key: string };
    };
    await call('POST', `/operator/keys/${key.id}/revoke`);
    // The widget server's key cache bounds revocation at 5 s.
    await new Promise((r) => setTimeout(r, 5_500));
    for (const presented of [key.key, `pk_op_test_${'0'.repeat(47)}1`]) {
      const { context, page } = await newContext();
      // The refusal document (frame-ancestors *, it shows no data) answers wherever the page is, even on an origin the
      // key never allowed: a valid key there would be refused by frame-ancestors instead (next test).
      await hostPage(page, presented);
      await waitForWidgetEvent(page, 'quote.error');
      const events: LoggedEvent[] = await page.evaluate(() => (window as any).__events);
      expect(events.map((e) => [e.name, e.event['code']])).toEqual([
        ['widget.ready', undefined],
        ['quote.error', 'unauthorized'],
      ]);
      const widget = page.frameLocator('#w iframe');
      await expect(widget.locator('body').textContent()).resolves.toMatch(/\S/);
      expect(await widget.locator('form, input, button').count()).toBe(0);
      await context.close();
    }
  });

  it("a page whose origin is not one of the key's allowed origins: the frame is refused (frame-ancestors), widget.error", async () => {
    const { context, page } = await newContext();
    await hostPage(page, platform.demo.publishableKey, { destination: 'Antarctica', travelers: 2, locale: 'de-DE' });
    await waitForWidgetEvent(page, 'widget.error');
    const events: LoggedEvent[] = await page.evaluate(() => (window as any).__events);
    expect(events.map((e) => [e.name, e.event['code']])).toEqual([['widget.error', 'frame_refused']]);
    // Loader 1.1: a link to the hosted quote page (Tier 1) took the refused frame's place; it opens in this tab, with
    // the trip and the language.
    await page.getByRole('link', { name: 'Travel insurance quote' }).click();
    await page.waitForURL((url) => url.origin === widgetUrl && url.pathname === '/quote');
    expect(await page.locator('html').getAttribute('lang')).toBe('de');
    expect(JSON.parse((await page.locator('#svc-boot').textContent())!)).toMatchObject({
      kind: 'hosted',
      state: 'ok',
      prefill: { destination: 'Antarctica', travelers: 2 },
    });
    await context.close();
  });

  it('serves the loader channels: rolling revalidated with a strong ETag and 304, pinned immutable with the published bytes', async () => {
    const rolling = await fetch(`${widgetUrl}/widget.js`);
    expect(rolling.status).toBe(200);
    expect(rolling.headers.get('cache-control')).toBe('no-cache');
    const etag = rolling.headers.get('etag')!;
    expect(etag).toMatch(/^"[^"]+"$/);
    expect(Buffer.from(await rolling.arrayBuffer())).toEqual(
      readFileSync(path.join(workspaceRoot, 'dist/browser/widget-loader/widget.js')),
    );
    const revalidated = await fetch(`${widgetUrl}/widget.js`, { headers: { 'If-None-Match': etag } });
    expect(revalidated.status).toBe(304);

    const manifest = JSON.parse(
      readFileSync(path.join(workspaceRoot, 'apps/widget-iframe/releases/manifest.json'), 'utf8'),
    );
    for (const [version, entry] of Object.entries(manifest.versions) as [string, { file: string }][]) {
      const pinned = await fetch(`${widgetUrl}/widget/${version}.js`);
      expect(pinned.status).toBe(200);
      expect(pinned.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(Buffer.from(await pinned.arrayBuffer())).toEqual(
        readFileSync(path.join(workspaceRoot, 'apps/widget-iframe/releases', entry.file)),
      );
    }
    expect((await fetch(`${widgetUrl}/widget/0.0.1.js`)).status).toBe(404);
  });
});
