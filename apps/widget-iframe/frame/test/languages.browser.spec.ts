import path from 'node:path';
import { jest } from '@jest/globals';
import type { Frame, Page } from 'playwright-core';
import { runAxe, seriousOrCritical } from '@expedition/platform/chromium';
import { PSEUDO_LOCALE, type RenderLocale } from '@expedition/i18n';
import { widgetMessages } from '@expedition/i18n/documents';
import { describeWithBrowser, PREFILL as SESSION_PREFILL, SHOTS, useFrameSession } from './frame-session';
import { KEYS, worldUrls } from './world-config';
import { englishLeft, serveCatalogOptions } from './untranslated-text';
import { watchContext, type Watch } from './diagnostics';

/**
 * The widget in every language, in real Chromium (issue 22): German, French, Spanish and the pseudo-locale en-XA
 * (accented, ~40 % longer, in brackets) on every screen — form with its errors, plan cards, card form with a refusal,
 * confirmation, the hosted page — at 390 and 1280 px: no text clipped or running out of its box or the frame, no
 * sideways scroll, axe clean (WCAG 2.1 AA, serious and critical), no English text of the catalogs left (untranslated
 * text: ./untranslated-text.ts), and a screenshot of each in $TMPDIR/expedition-screens/
 * (lang-<locale>-<screen>-<width>.png) to look at. The plan cards are the catalog's plans as embed-api writes them, in
 * the quote's language.
 */
const PREFILL = { ...SESSION_PREFILL, email: '' };

/** A word of each screen in each language: the screen is in that language, not English with a few words changed. */
const SAMPLES: Record<string, { title: string; pay: string; covered: string }> = {
  de: { title: 'Sichern Sie Ihre Reise ab', pay: 'bezahlen', covered: 'Sie sind versichert' },
  fr: { title: 'Protégez votre voyage', pay: 'Payer', covered: 'Vous êtes couvert' },
  es: { title: 'Proteja su viaje', pay: 'Pagar', covered: 'Está cubierto' },
  // The pseudo-locale is made from English at compile time: its texts come from there.
  'en-XA': {
    title: widgetMessages('en-XA').page.widgetTitle().split(' ·')[0]!,
    pay: widgetMessages('en-XA').checkout.pay({ amount: '' }).split(' ')[0]!,
    covered: widgetMessages('en-XA').checkout.covered().split(' ·')[0]!,
  },
};

// One retry, with the first failure printed: twice in six runs on a loaded CI machine (2026-11-27) a journey's wait timed
// out (the Spanish 390 px Buy did not show the card form within 30 s; the German 1280 px second submit showed no plan
// cards within 20 s). Not reproduced since, in isolation or under load; the waits on the network now explain
// themselves (./diagnostics.ts: requests open and failed, console errors, what the fake API received, what the frame
// shows), so the first failure's log says where it stalled.
jest.retryTimes(1, { logErrorsBeforeRetry: true });

describeWithBrowser('the widget in every language, in Chromium', () => {
  const urls = worldUrls(13965);
  const { HOST, WIDGET } = urls;
  const session = useFrameSession(urls);

  /**
   * Every text node of the document lies inside its element's box and inside the frame (no clipping, no overflow), and
   * the document does not scroll sideways. Returns what does not.
   */
  function overflowing(frame: Frame): Promise<string[]> {
    return frame.evaluate(() => {
      const problems: string[] = [];
      const width = document.documentElement.clientWidth;
      if (document.documentElement.scrollWidth > width + 1)
        problems.push(`document scrolls sideways: ${document.documentElement.scrollWidth} > ${width}`);
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent?.trim();
        const parent = node.parentElement;
        if (!text || !parent || parent.closest('.svc-visually-hidden, script, style, option')) continue;
        const range = document.createRange();
        range.selectNodeContents(node);
        for (const rect of Array.from(range.getClientRects())) {
          if (rect.width === 0) continue;
          if (rect.right > width + 1 || rect.left < -1)
            problems.push(
              `"${text.slice(0, 40)}" runs out of the frame (${Math.round(rect.left)}–${Math.round(rect.right)} of ${width})`,
            );
        }
        // Clipped by an ancestor that hides its overflow.
        for (let el: HTMLElement | null = parent; el && el !== document.body; el = el.parentElement) {
          const style = getComputedStyle(el);
          const clips = ['hidden', 'clip'].includes(style.overflowX) || style.textOverflow === 'ellipsis';
          if (clips && el.scrollWidth > el.clientWidth + 1) {
            problems.push(`"${text.slice(0, 40)}" is clipped by <${el.tagName.toLowerCase()} class="${el.className}">`);
            break;
          }
        }
      }
      return [...new Set(problems)];
    });
  }

  async function audit(frame: Frame, page: Page, lang: string, name: string, width: number): Promise<void> {
    expect(await frame.evaluate(() => document.documentElement.lang)).toBe(lang);
    const { violations } = await runAxe(frame);
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    await page.setViewportSize({ width, height: Math.max(height, 600) });
    await frame.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    await page.screenshot({ path: path.join(SHOTS, `lang-${lang}-${name}-${width}.png`) });
    const problems = await overflowing(frame);
    await page.setViewportSize({ width, height: 900 });
    const serious = seriousOrCritical(violations);
    // The pseudo-locale is the frame's own: a quote never records it, so embed-api writes the catalog's texts (plan
    // highlights) in English there. German, French and Spanish have both the frame's and the catalog's texts.
    const locale = lang as RenderLocale;
    const english = await englishLeft(frame, locale, locale === PSEUDO_LOCALE ? ['widget'] : ['widget', 'catalog']);
    expect({ screen: `${lang} ${name} at ${width}px`, serious, problems, english }).toEqual({
      screen: `${lang} ${name} at ${width}px`,
      serious: [],
      problems: [],
      english: [],
    });
  }

  async function embedded(page: Page, instance: string, locale: string, watch: Watch): Promise<Frame> {
    await page.goto(HOST);
    await page.evaluate(([k, i, c]) => (window as any).embed(k, i, c, {}), [
      KEYS.tier3,
      instance,
      { locale, prefill: PREFILL },
    ] as const);
    await page
      .waitForFunction(
        (i) =>
          (window as any).received.some(
            (m: { type: string; instanceId: string }) => m.type === 'svc:frame.hello' && m.instanceId === i,
          ),
        instance,
        { timeout: 20_000 },
      )
      .catch(async (error: Error) => {
        throw new Error(`${error.message}\n${await watch.explain()}`);
      });
    const frame = page.frames().find((f) => f.url().includes(`instance=${instance}`));
    if (!frame) throw new Error('no frame');
    return frame;
  }

  describe.each(['de', 'fr', 'es', 'en-XA'])('%s', (lang) => {
    it.each([390, 1280])('form, plan cards, card refusal and confirmation at %i px', async (width) => {
      const context = await session.browser.newContext({ viewport: { width, height: 900 }, bypassCSP: true });
      const watch = watchContext(context, () => session.world.requests);
      await serveCatalogOptions(context, watch.note);
      const page = await context.newPage();
      const frame = await embedded(page, `${lang}${width}`, lang, watch);
      await frame.waitForSelector('form');
      expect(await frame.textContent('h1')).toContain(SAMPLES[lang]!.title);
      await frame.click('button[type=submit]'); // the e-mail is missing: its error shows
      await frame.waitForSelector('#svc-email[aria-invalid=true]');
      await audit(frame, page, lang, 'form-invalid', width);

      await frame.fill('#svc-email', 'ana@example.com');
      await frame.click('button[type=submit]');
      await watch.waitFor(frame, '.svc-plan[data-plan-id]', { timeout: 20_000 });
      // The quote records the traveler's language (never the pseudo-locale).
      const quoted = session.world.requests.find((r) => r.path === '/quote' && r.method === 'POST');
      expect(quoted?.body?.['locale']).toBe(lang === 'en-XA' ? undefined : lang);
      await frame.click('[data-plan-id="polar-shield-standard"] .svc-plan__limits');
      await audit(frame, page, lang, 'plans', width);

      await frame.click('[data-plan-id="polar-shield-standard"] .svc-plan__actions .svc-btn:not(.svc-btn--secondary)');
      await watch.waitFor(frame, '#svc-card-number');
      await frame.fill('#svc-card-number', '4000 0000 0000 0002');
      await frame.fill('#svc-card-expiry', '12/30');
      await frame.fill('#svc-card-cvc', '123');
      expect(await frame.textContent('.svc-card-form button[type=submit]')).toContain(SAMPLES[lang]!.pay);
      await frame.click('.svc-card-form button[type=submit]');
      await watch.waitFor(frame, '.svc-card-form [role=alert]');
      await audit(frame, page, lang, 'card-declined', width);

      await frame.fill('#svc-card-number', '4242 4242 4242 4242');
      await frame.click('.svc-card-form button[type=submit]');
      await watch.waitFor(frame, '.svc-confirmation');
      expect(await frame.textContent('h2')).toContain(SAMPLES[lang]!.covered);
      await audit(frame, page, lang, 'confirmation', width);
      await context.close();
    });

    it.each([390, 1280])("the hosted page's plan cards at %i px", async (width) => {
      const context = await session.browser.newContext({ viewport: { width, height: 900 }, bypassCSP: true });
      const watch = watchContext(context, () => session.world.requests);
      await serveCatalogOptions(context, watch.note);
      const page = await context.newPage();
      const trip = `destination=antarctica&startDate=${PREFILL.startDate}&endDate=${PREFILL.endDate}&travelers=1`;
      await page.goto(`${WIDGET}/quote?pk=${KEYS.tier1}&${trip}&tripCost=12000&residence=DE&locale=${lang}`);
      await page.waitForSelector('form');
      await page.fill('#svc-age-0', '45');
      await page.fill('#svc-email', 'ana@example.com');
      await page.click('button[type=submit]');
      await watch.waitFor(page.mainFrame(), '.svc-plan[data-plan-id]', { timeout: 20_000 });
      await audit(page.mainFrame(), page, lang, 'hosted-plans', width);
      await context.close();
    });

    it.each([390, 1280])('the hosted page at %i px, and its language switch', async (width) => {
      const context = await session.browser.newContext({ viewport: { width, height: 900 }, bypassCSP: true });
      const page = await context.newPage();
      await page.goto(
        `${WIDGET}/quote?pk=${KEYS.tier1}&destination=arctic&travelers=2&tripCost=12000&residence=DE&locale=${lang}`,
      );
      await page.waitForSelector('form');
      await page.click('button[type=submit]');
      await audit(page.mainFrame(), page, lang, 'hosted', width);
      if (lang !== 'en-XA') {
        // Switching language keeps what was typed, and the address says which language is shown.
        await page.fill('#svc-email', 'ana@example.com');
        await page.click('.svc-langs a[hreflang="en"]');
        await page.waitForFunction(() => document.documentElement.lang === 'en');
        expect(await page.textContent('h1')).toContain('Travel insurance for your expedition');
        expect(await page.inputValue('#svc-email')).toBe('ana@example.com');
        expect(new URL(page.url()).searchParams.get('locale')).toBe('en');
      }
      await context.close();
    });
  });
});
