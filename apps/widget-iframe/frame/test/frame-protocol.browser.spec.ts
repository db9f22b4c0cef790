import { COUNTRY_CODES } from '../src/regions';
import { describeWithBrowser, PREFILL, useFrameSession } from './frame-session';
import { KEYS, worldUrls } from './world-config';

/**
 * The iframe UI's protocol in real Chromium (the real bundle in a document with a strict CSP, embedded by a host page on
 * another origin, against a fake embed API): hello and init, every quote.error code, refusals, message filtering and
 * targets, svc:frame.update. Shared set-up: frame-session.ts.
 */
describeWithBrowser('the widget iframe UI in Chromium', () => {
  const urls = worldUrls(13950);
  const { HOST, FOREIGN } = urls;
  const session = useFrameSession(urls);
  const { host, embed, received, events, waitForEvent, quote } = session;

  it('says hello, fetches nothing and shows nothing before init, ignores forged inits, then renders and emits quote.ready', async () => {
    const { page, context, errors } = await host();
    const frame = await embed(page, KEYS.tier3, 'w1', { prefill: PREFILL }, { holdInit: true });
    const [hello] = await events(page, 'svc:frame.hello');
    expect(hello).toEqual({ type: 'svc:frame.hello', instanceId: 'w1', version: '1.0.0' });

    // Forged inits: a sibling frame of the parent's own origin (right origin, wrong window) and a foreign origin.
    await page.evaluate(
      ([foreign]) => {
        for (const src of [`${location.origin}/poster`, `${foreign}/poster`]) {
          const f = document.createElement('iframe');
          f.src = src;
          f.style.display = 'none';
          document.body.append(f);
        }
      },
      [FOREIGN] as const,
    );
    await page.waitForFunction(
      () =>
        document.querySelectorAll('iframe').length === 3 &&
        [...document.querySelectorAll('iframe')].every((f) => (f as HTMLIFrameElement).contentDocument !== undefined),
    );
    for (const origin of [HOST, FOREIGN]) {
      const poster = await page
        .waitForEvent('framenavigated', { predicate: (f) => f.url() === `${origin}/poster`, timeout: 5000 })
        .catch(() => page.frames().find((f) => f.url() === `${origin}/poster`)!);
      await poster.waitForLoadState();
      await poster.evaluate(() =>
        parent.frames[0]!.postMessage({ type: 'svc:frame.init', instanceId: 'w1', config: { tier: 3 } }, '*'),
      );
    }
    // A round trip through the frame's event loop: the forged messages were delivered before this evaluate returns.
    await frame.evaluate(() => new Promise((r) => setTimeout(r, 0)));
    expect(await frame.locator('form').count()).toBe(0);
    expect(session.world.requests).toEqual([]);
    expect((await received(page)).map((m) => m.type)).toEqual(['svc:frame.hello']);

    await page.evaluate(() => (window as any).sendInit('w1'));
    await frame.waitForSelector('form[aria-label="Trip details"]');
    const ready = await waitForEvent(page, 'svc:quote.ready');
    expect(ready.payload).toEqual({});
    expect(await frame.inputValue('#svc-email')).toBe('ana@example.com');
    expect(await frame.inputValue('#svc-destination')).toBe('antarctica');
    expect(session.world.requests).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('every failure is a quote.error with a stable code and a message on screen, and the form stays usable', async () => {
    const { page, context } = await host();
    const frame = await embed(page, KEYS.tier3, 'w4', { prefill: PREFILL });
    await frame.waitForSelector('form');
    const lastError = async () => (await events(page, 'svc:quote.error')).pop()?.payload;

    session.world.scenario.quoteGate = 429;
    await frame.click('button[type=submit]');
    await waitForEvent(page, 'svc:quote.error');
    expect(await lastError()).toEqual({
      code: 'rate_limited',
      message: 'Too many requests right now. Please wait a moment and try again.',
    });
    expect(await frame.textContent('.svc-notice')).toContain('Too many requests');

    // The gate's 401 carries no CORS header: the browser cannot read it, so it is a network failure to the iframe.
    session.world.scenario.quoteGate = 401;
    await frame.click('button[type=submit]');
    await waitForEvent(page, 'svc:quote.error', "m.payload.code === 'network'");

    await frame.fill('#svc-email', 'quote-error@sandbox.test');
    await frame.click('button[type=submit]');
    await waitForEvent(page, 'svc:quote.error', "m.payload.code === 'quote_refused'");
    expect(await lastError()).toEqual({
      code: 'quote_refused',
      message: 'Sandbox: this test e-mail always fails to quote',
    });
    expect(await frame.textContent('.svc-notice')).toContain('We couldn’t quote this trip');

    // Inline validation: tied to the field, nothing sent.
    const before = session.world.requests.length;
    await frame.fill('#svc-email', 'not-an-email');
    await frame.click('button[type=submit]');
    expect(await frame.getAttribute('#svc-email', 'aria-invalid')).toBe('true');
    expect(await frame.getAttribute('#svc-email', 'aria-describedby')).toContain('svc-email-error');
    expect(await frame.textContent('#svc-email-error')).toContain('e-mail address like');
    expect(session.world.requests.length).toBe(before);

    await frame.fill('#svc-email', 'ana@example.com');
    await quote(frame);
    expect(await frame.textContent('.svc-notice')).toBe('');
    await context.close();
  });

  it('a quote that is not instant-eligible says who to ask, with its number, promises no e-mail, and does not poll', async () => {
    const { page, context } = await host();
    const frame = await embed(page, KEYS.tier3, 'w5', { prefill: { ...PREFILL, email: 'manual@sandbox.test' } });
    await frame.waitForSelector('form');
    await frame.click('button[type=submit]');
    await frame.waitForSelector('text=Ask the company you are booking with');
    const notice = await frame.locator('.svc-alert').allInnerTexts();
    const said = notice.join(' ');
    expect(said).toMatch(/Quote \S+ needs an underwriter/);
    expect(said).toMatch(/give them quote number \S+\./);
    // Nothing notifies anyone about this quote, so nothing may say a person will write.
    expect(said).not.toMatch(/follow up|e-mail|contact you/i);
    expect(session.world.requests.map((r) => r.path)).toEqual(['/quote']);
    expect((await events(page, 'svc:quote.ready')).pop()?.payload).toEqual({ quoteId: expect.any(String) });
    await context.close();
  });

  it('options that never arrive end in quote.error options_timeout after a bounded time', async () => {
    const context = await session.browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.clock.install();
    const page = await context.newPage();
    await page.goto(HOST);
    const frame = await embed(page, KEYS.tier3, 'w6', {
      prefill: { ...PREFILL, email: 'options-pending@sandbox.test' },
    });
    await frame.waitForSelector('form');
    await frame.click('button[type=submit]');
    for (let i = 0; i < 60; i++) {
      if ((await events(page, 'svc:quote.error')).length) break;
      await context.clock.runFor(2000);
      await new Promise((r) => setTimeout(r, 50));
    }
    expect((await events(page, 'svc:quote.error')).map((m) => m.payload!['code'])).toEqual(['options_timeout']);
    const polls = session.world.requests.filter((r) => r.path === '/options').length;
    expect(polls).toBeGreaterThan(3);
    expect(polls).toBeLessThanOrEqual(16);
    await frame.waitForSelector('text=Prices are taking longer than usual. Please try again in a few minutes.');
    expect(await frame.locator('text=/follow up/i').count()).toBe(0);
    await context.close();
  });

  it('a refused document (revoked key) shows no form and posts quote.error unauthorized to the parent origin', async () => {
    const { page, context } = await host();
    const frame = await embed(page, KEYS.revoked, 'w7', { prefill: PREFILL });
    await waitForEvent(page, 'svc:quote.error');
    expect((await received(page)).map((m) => [m.type, m.payload])).toEqual([
      ['svc:frame.hello', undefined],
      ['svc:quote.error', { code: 'unauthorized', message: 'This publishable key is not valid.' }],
    ]);
    expect(await frame.textContent('main')).toContain('This insurance widget isn’t available here.');
    expect(await frame.locator('form').count()).toBe(0);
    expect(session.world.requests).toEqual([]);
    await context.close();
  });

  it('never posts with "*": a frame told another parent origin delivers nothing to the real parent', async () => {
    session.world.bootOverrides.set(KEYS.tier1, { parentOrigin: FOREIGN });
    const { page, context } = await host();
    await page.evaluate(([k]) => (window as any).embed(k, 'w8', {}, {}), [KEYS.tier1] as const);
    const frame = await page.waitForEvent('framenavigated', { predicate: (f) => f.url().includes('instance=w8') });
    // Module scripts run before DOMContentLoaded: once it fired, the frame has booted and said hello (to its target).
    await frame.waitForLoadState('domcontentloaded');
    expect(await frame.evaluate(() => document.querySelector('script[type=module]') !== null)).toBe(true);
    // A probe posted after boot from the same window to the same parent arrives after anything the frame posted before
    // (postMessage keeps order per source and target): when it is in, a hello sent with "*" would be too.
    await frame.evaluate((hostOrigin) => parent.postMessage({ probe: true }, hostOrigin), HOST);
    await page.waitForFunction(() => (window as any).all.some((m: { data: { probe?: boolean } }) => m.data?.probe));
    expect(await page.evaluate(() => (window as any).all.map((m: { data: unknown }) => m.data))).toEqual([
      { probe: true },
    ]);
    await context.close();
  });

  it('the residence select shows the prefilled country by name, then offers every country in the language and its order', async () => {
    const { page, context, errors } = await host();
    const frame = await embed(page, KEYS.tier3, 'w10', { prefill: PREFILL, locale: 'de-AT' });
    await waitForEvent(page, 'svc:quote.ready');
    // Names and order as this Chromium's Intl gives them (the frame's CSP forbids eval, not the devtools protocol).
    const nameOf = (code: string, locale: string) =>
      frame.evaluate(([c, l]) => new Intl.DisplayNames([l, 'en'], { type: 'region' }).of(c), [code, locale] as const);
    const chosen = () =>
      frame.$eval('#svc-residence', (s) => {
        const select = s as HTMLSelectElement;
        return { value: select.value, text: select.selectedOptions[0]?.textContent };
      });
    // On screen from the first render, before the whole list is in (quote-form.tsx builds it after the paint).
    expect(await chosen()).toEqual({ value: 'US', text: await nameOf('US', 'de-AT') });
    const all = COUNTRY_CODES.length + 1; // and "Choose…"
    await frame.waitForFunction((n) => document.querySelectorAll('#svc-residence option').length === n, all);
    const options = await frame.$$eval('#svc-residence option', (all) =>
      all.map((o) => ({ value: (o as HTMLOptionElement).value, text: o.textContent ?? '' })),
    );
    expect(options[0]!.value).toBe('');
    const countries = options.slice(1);
    expect(countries.map((o) => o.value).sort()).toEqual([...COUNTRY_CODES].sort());
    expect(countries.find((o) => o.value === 'DE')?.text).toBe(await nameOf('DE', 'de-AT'));
    const names = countries.map((o) => o.text);
    const sorted = await frame.evaluate((list) => [...list].sort(new Intl.Collator('de-AT').compare), names);
    expect(names).toEqual(sorted);
    expect(await chosen()).toEqual({ value: 'US', text: await nameOf('US', 'de-AT') });

    // Another language: the same choices, renamed, the chosen one kept.
    await page.evaluate(() => (window as any).sendUpdate('w10', { locale: 'fr' }));
    const french = await nameOf('US', 'fr');
    await frame.waitForFunction(
      (name) =>
        (document.getElementById('svc-residence') as HTMLSelectElement).selectedOptions[0]?.textContent === name,
      french,
    );
    expect(await frame.locator('#svc-residence option').count()).toBe(all);
    expect(await chosen()).toEqual({ value: 'US', text: french });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('honours svc:frame.update: new prefill values, appearance through the CSSOM, tier', async () => {
    const { page, context } = await host();
    const frame = await embed(page, KEYS.tier3, 'w9', { prefill: PREFILL });
    await frame.waitForSelector('form');
    await page.evaluate(() =>
      (window as any).sendUpdate('w9', {
        prefill: { email: 'new@example.com', travelers: 3 },
        appearance: { accentColor: '#ffcc00', borderRadius: '2px' },
        tier: 1,
      }),
    );
    await frame.waitForFunction(
      () => (document.getElementById('svc-email') as HTMLInputElement).value === 'new@example.com',
    );
    expect(await frame.locator('.svc-ages input').count()).toBe(3);
    await frame.fill('#svc-age-2', '12');
    expect(await frame.evaluate(() => document.documentElement.style.getPropertyValue('--svc-accent'))).toBe('#ffcc00');
    expect(await frame.evaluate(() => document.documentElement.style.getPropertyValue('--svc-accent-contrast'))).toBe(
      '#0b1220',
    );
    await quote(frame);
    expect(await frame.locator('button:has-text("Buy")').count()).toBe(0);
    await context.close();
  });
});
