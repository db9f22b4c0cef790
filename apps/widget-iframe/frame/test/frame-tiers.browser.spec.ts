import { describeWithBrowser, PREFILL, useFrameSession, YEAR } from './frame-session';
import { CERTIFICATE, KEYS, worldUrls } from './world-config';

/**
 * The iframe UI's three tiers in real Chromium: the Tier 3 journey to a paid policy, Tier 2's hosted checkout link,
 * Tier 1 in a frame and on the hosted page. Shared set-up: frame-session.ts.
 */
describeWithBrowser('the widget iframe UI in Chromium', () => {
  const urls = worldUrls(13955);
  const { WIDGET, EMBED } = urls;
  const session = useFrameSession(urls);
  const { host, embed, events, waitForEvent, quote } = session;

  it('Tier 3 journey: quote → polling → cards (recommended first) → quote.selected in integer cents → decline → authenticate → paid', async () => {
    session.world.scenario.options429Once = true;
    const { page, context, errors } = await host();
    const frame = await embed(page, KEYS.tier3, 'w1', { prefill: PREFILL, locale: 'en-US' });
    await frame.waitForSelector('form');
    await quote(frame);

    await waitForEvent(page, 'svc:quote.ready', 'm.payload.quoteId');
    const readies = await events(page, 'svc:quote.ready');
    const quoteId = readies[1]!.payload!['quoteId'];
    expect(typeof quoteId).toBe('string');
    await waitForEvent(page, 'svc:quote.ready', 'm.payload.plansCount === 3');
    expect((await events(page, 'svc:quote.ready')).map((m) => m.payload)).toEqual([
      {},
      { quoteId },
      { quoteId, plansCount: 3 },
    ]);
    // The 429 of the first poll was honoured, then polling went on (and every request carried the key).
    const polls = session.world.requests.filter((r) => r.path === '/options');
    expect(polls.length).toBeGreaterThanOrEqual(2);
    expect(session.world.requests.every((r) => r.key === KEYS.tier3 && r.origin === WIDGET)).toBe(true);
    expect(session.world.requests[0]!.body).toEqual({
      destination: 'antarctica',
      startDate: PREFILL.startDate,
      endDate: PREFILL.endDate,
      travelers: 2,
      travelerAges: [45, 72],
      tripCost: 24000,
      currency: 'USD',
      residence: 'US',
      state: 'CA',
      email: 'ana@example.com',
      name: 'Ana Traveler',
      locale: 'en',
    });

    const ids = await frame.$$eval('.svc-plan[data-plan-id]', (els) => els.map((e) => e.getAttribute('data-plan-id')));
    expect(ids).toEqual(['polar-shield-standard', 'austral-voyager-basic', 'meridian-private-charter']);
    expect(await frame.textContent('.svc-plan--recommended')).toContain('$412.34');
    expect(await frame.textContent('.svc-plans')).toContain('not a binding contract');

    // A click on a card, twice (every click fires), then the keyboard way.
    await frame.click('[data-plan-id="austral-voyager-basic"] .svc-plan__limits');
    await frame.click('[data-plan-id="austral-voyager-basic"] .svc-plan__limits');
    await frame.focus('[data-plan-id="meridian-private-charter"] button[aria-pressed]');
    await frame.page().keyboard.press('Enter');
    // The page hears the frame's messages asynchronously: wait for the keyboard's one before reading them all.
    await waitForEvent(page, 'svc:quote.selected', "m.payload.planId === 'meridian-private-charter'");
    const selected = await events(page, 'svc:quote.selected');
    expect(selected.map((m) => m.payload)).toEqual([
      { planId: 'austral-voyager-basic', premiumCents: 28950, currency: 'USD' },
      { planId: 'austral-voyager-basic', premiumCents: 28950, currency: 'USD' },
      { planId: 'meridian-private-charter', premiumCents: 61875, currency: 'USD' },
    ]);
    expect(selected.every((m) => Number.isInteger(m.payload!['premiumCents']) && !('quoteId' in m.payload!))).toBe(
      true,
    );
    // An inquiry plan has no Buy button.
    expect(await frame.locator('[data-plan-id="meridian-private-charter"] button', { hasText: 'Buy' }).count()).toBe(0);

    await frame.click('[data-plan-id="polar-shield-standard"] button:has-text("Buy")');
    await frame.waitForSelector('#svc-card-number');
    expect(await frame.textContent('.svc-test-cards')).toContain('4242 4242 4242 4242');
    const pay = async (card: string) => {
      await frame.fill('#svc-card-number', card);
      await frame.fill('#svc-card-expiry', '12/30');
      await frame.fill('#svc-card-cvc', '123');
      await frame.click('.svc-card-form button[type=submit]');
    };
    await pay('4000 0000 0000 0002');
    const failed = await waitForEvent(page, 'svc:payment.failed');
    expect(failed.payload).toEqual({ code: 'generic_decline', message: 'Your card was declined.' });
    await frame.waitForSelector('.svc-card-form [role=alert]');
    expect(await frame.isEnabled('.svc-card-form button[type=submit]')).toBe(true);

    await pay('4000 0025 0000 3155');
    await frame.waitForSelector('text=Authenticate this payment (test)');
    await frame.click('button:has-text("Decline")');
    await waitForEvent(page, 'svc:payment.failed', "m.payload.code === 'payment_intent_authentication_failure'");
    await pay('4000 0025 0000 3155');
    await frame.click('button:has-text("Approve payment")');
    const paid = await waitForEvent(page, 'svc:payment.succeeded');
    expect(paid.payload).toEqual({ quoteId, planId: 'polar-shield-standard', premiumCents: 41234, currency: 'USD' });
    await frame.waitForSelector('.svc-confirmation');
    expect(await frame.textContent('.svc-confirmation')).toContain('$412.34');
    expect(await frame.textContent('.svc-confirmation')).toContain(CERTIFICATE.policyNumber);
    // The certificate (PDF) in a new tab, without a Referer (its URL carries the policy's token).
    const certificate = frame.locator('a.svc-certificate');
    expect(await certificate.textContent()).toBe('Download your certificate (PDF)');
    expect(await certificate.getAttribute('href')).toBe(CERTIFICATE.url);
    expect(await certificate.getAttribute('target')).toBe('_blank');
    expect(await certificate.getAttribute('rel')).toBe('noopener noreferrer');
    expect(await frame.locator('form[aria-label="Trip details"]').count()).toBe(0);

    // Auto-resize: whole CSS pixels, only on change, applied by the host.
    const heights = (await events(page, 'svc:frame.resize')).map((m) => m.height!);
    expect(heights.length).toBeGreaterThan(1);
    expect(heights.every((h) => Number.isInteger(h) && h > 0)).toBe(true);
    expect(heights.every((h, i) => i === 0 || h !== heights[i - 1])).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('Tier 2: Buy asks for the hosted checkout link and opens it in a new tab (and offers the link)', async () => {
    const { page, context } = await host();
    const frame = await embed(page, KEYS.tier2, 'w2', { prefill: PREFILL, tier: 3 });
    await frame.waitForSelector('form');
    await quote(frame);
    const [popup] = await Promise.all([
      context.waitForEvent('page'),
      frame.click('[data-plan-id="polar-shield-standard"] button:has-text("Buy")'),
    ]);
    await popup.waitForLoadState();
    expect(popup.url()).toMatch(new RegExp(`^${EMBED}/checkout/[0-9a-f-]+\\?plan=polar-shield-standard$`));
    expect(await popup.evaluate(() => window.opener)).toBeNull();
    expect(await frame.getAttribute('text=Continue to checkout', 'href')).toBe(popup.url());
    expect(session.world.requests.find((r) => r.path === '/checkout')?.body).toMatchObject({
      planId: 'polar-shield-standard',
      email: 'ana@example.com',
    });
    expect(await events(page, 'svc:quote.selected')).toHaveLength(1);
    expect(await frame.locator('#svc-card-number').count()).toBe(0);
    await context.close();
  });

  it('Tier 1 in a frame (config.tier 1): cards and events, no Buy', async () => {
    const { page, context } = await host();
    const frame = await embed(page, KEYS.tier3, 'w3', { prefill: PREFILL, tier: 1 });
    await frame.waitForSelector('form');
    await quote(frame);
    expect(await frame.locator('button:has-text("Buy")').count()).toBe(0);
    // The card links the plan's policy wording (a new tab); a card without the link names the underwriter only.
    const wording = frame.locator('[data-plan-id="polar-shield-standard"] .svc-plan__terms a');
    expect(await wording.getAttribute('href')).toBe('http://quote.test/policy-wording/polar-shield-standard');
    expect(await wording.getAttribute('target')).toBe('_blank');
    expect(await frame.locator('[data-plan-id="polar-shield-standard"] .svc-plan__terms').textContent()).toContain(
      'Underwritten by Polar Shield Underwriters Ltd.',
    );
    await frame.click('[data-plan-id="polar-shield-standard"] h3');
    expect((await waitForEvent(page, 'svc:quote.selected')).payload).toEqual({
      planId: 'polar-shield-standard',
      premiumCents: 41234,
      currency: 'USD',
    });
    await context.close();
  });

  it('the hosted Tier 1 page: operator header, prefill from the query, buys through the checkout link in the same tab', async () => {
    const context = await session.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(
      `${WIDGET}/quote?pk=${KEYS.tier1}&destination=Svalbard&travelers=1&tripCost=9000&residence=GB&startDate=${YEAR}-06-01&endDate=${YEAR}-06-09`,
    );
    await page.waitForSelector('form');
    expect(await page.textContent('header')).toContain('Polar Journeys Ltd');
    expect(await page.inputValue('#svc-destination')).toBe('svalbard');
    await page.fill('#svc-age-0', '40');
    await page.fill('#svc-email', 'sam@example.com');
    await page.click('button[type=submit]');
    await page.waitForSelector('.svc-plan[data-plan-id]');
    await Promise.all([
      page.waitForURL(`${EMBED}/checkout/**`),
      page.click('[data-plan-id="polar-shield-standard"] button:has-text("Buy")'),
    ]);
    expect(page.url()).toContain('plan=polar-shield-standard');
    await context.close();
  });
});
