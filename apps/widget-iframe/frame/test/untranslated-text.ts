/**
 * The untranslated-text check of the Chromium suite (issue 22), and the options answer it needs to mean something.
 *
 * - `serveCatalogOptions(context)`: the fake embed API's options answer written as embed-api writes it — its plans
 *   (ids, premiums, coverage) through libs/quoting's `toEmbedOptionsReady`, in the language the quote recorded (the
 *   create request's `locale`, else its Accept-Language, negotiated as embed-api does). The plan cards then show the
 *   catalog's own names and highlights, translated or not, as a traveler would see them.
 *   A handler that fails is noted through `note` (./diagnostics.ts) and its request fails: none is left unanswered.
 * - `englishLeft(frame, locale, namespaces)`: every text of the document (text nodes, visually hidden ones too, and
 *   `aria-label`, `placeholder`, `title`, `alt`; not the document's title) that is English a page in `locale` must not
 *   show: a message of the given libs/i18n namespaces whose translation differs from its English.
 */
import type { BrowserContext, Frame, Route } from 'playwright-core';
import { negotiateLocale, type RenderLocale } from '@expedition/i18n';
import { catalogMessages, widgetMessages } from '@expedition/i18n/documents';
import { toEmbedOptionsReady, type StoredOption } from '@expedition/quoting';

const isEmbed = (path: string) => (url: URL) => url.pathname === path;

export async function serveCatalogOptions(
  context: BrowserContext,
  note: (line: string) => void = () => undefined,
): Promise<void> {
  const quoteLocales = new Map<string, string>();
  await context.route(
    isEmbed('/api/embed/quote'),
    answered('quote', note, async (route) => {
      const request = route.request();
      const response = await route.fetch();
      if (request.method() === 'POST' && response.ok()) {
        const asked = (request.postDataJSON() as { locale?: string } | null)?.locale;
        const acceptLanguage = await request.headerValue('accept-language');
        const { quoteId } = (await response.json()) as { quoteId: string };
        quoteLocales.set(quoteId, negotiateLocale({ explicit: [asked], acceptLanguage }));
      }
      await route.fulfill({ response });
    }),
  );
  await context.route(
    isEmbed('/api/embed/options'),
    answered('options', note, async (route) => {
      const response = await route.fetch();
      if (!response.ok()) return route.fulfill({ response });
      const body = await response.json();
      if (body.pending) return route.fulfill({ response });
      const stored: StoredOption[] = body.options.map((o: StoredOption) => ({
        planId: o.planId,
        premiumCents: o.premiumCents,
        currency: o.currency,
        isRecommended: o.isRecommended,
        coverage: o.coverage,
        createdAt: new Date(body.generatedAt),
      }));
      const quote = { ...body, locale: quoteLocales.get(body.quoteId) };
      await route.fulfill({ response, json: toEmbedOptionsReady(quote, stored, { quoteApiUrl: 'http://quote.test' }) });
    }),
  );
}

/**
 * A route handler that always answers: a handler that throws would leave its request paused in Chromium for good (the
 * frame then waits for an answer that never comes). Its error is noted instead and the request fails as a network
 * error would, which the frame handles and the test's diagnostics show (./diagnostics.ts).
 */
function answered(
  name: string,
  note: (line: string) => void,
  handler: (route: Route) => Promise<void>,
): (route: Route) => Promise<void> {
  return async (route) => {
    try {
      await handler(route);
    } catch (error) {
      note(`the ${name} route failed: ${(error as Error).message.split('\n')[0]}`);
      await route.abort('failed').catch(() => undefined);
    }
  };
}

type Messages = { [key: string]: Messages | ((args?: unknown) => string) };
/** Placeholders become this mark, so a message with placeholders gives its fixed fragments. */
const MARK = '\u241f';
const ARGS = new Proxy({}, { get: () => MARK });

/** Each message of a namespace: its key and its fixed text fragments (placeholders cut out). */
function fragments(messages: Messages, prefix = ''): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [key, value] of Object.entries(messages)) {
    if (typeof value !== 'function') {
      for (const [k, v] of fragments(value, `${prefix}${key}.`)) out.set(k, v);
      continue;
    }
    let text: string;
    try {
      text = String(value(ARGS));
    } catch {
      continue; // a plural of the mark: checked through its other messages
    }
    out.set(
      `${prefix}${key}`,
      text
        .split(MARK)
        .map((s) => s.trim())
        .filter((s) => /\p{L}{2}/u.test(s)),
    );
  }
  return out;
}

const NAMESPACES = { catalog: catalogMessages, widget: widgetMessages } as const;
export type Namespace = keyof typeof NAMESPACES;

/**
 * Messages a language writes exactly as English does, on purpose: names ("Galápagos"), the tier names the catalog
 * keeps, words the language shares ("Destination", "E-mail"). Any other message equal to its English is untranslated.
 */
const SAME_AS_ENGLISH: Readonly<Record<string, readonly string[]>> = {
  de: [
    'widget:form.name',
    'widget:destinations.galapagos',
    'catalog:destinations.galapagos',
    'catalog:tiers.standard',
    'catalog:tiers.premium',
  ],
  fr: [
    'widget:form.destination',
    'widget:form.email',
    'widget:destinations.svalbard',
    'widget:destinations.galapagos',
    'catalog:destinations.svalbard',
    'catalog:destinations.galapagos',
    'catalog:tiers.standard',
    'catalog:tiers.premium',
  ],
  es: [
    'widget:destinations.svalbard',
    'widget:destinations.galapagos',
    'catalog:destinations.svalbard',
    'catalog:destinations.galapagos',
    'catalog:tiers.premium',
  ],
};

/**
 * English texts a page in `locale` must not show: the fixed fragments of every English message of the namespaces,
 * except a message the language writes as English on purpose (SAME_AS_ENGLISH). A fragment is matched as a whole text;
 * one of 12 characters or more (a sentence, a phrase) also inside a longer text.
 */
export function englishOnly(
  locale: RenderLocale,
  namespaces: readonly Namespace[],
): { whole: string[]; part: string[] } {
  const same = new Set(SAME_AS_ENGLISH[locale] ?? []);
  const whole = new Set<string>();
  const part = new Set<string>();
  for (const ns of namespaces) {
    const translated = fragments(NAMESPACES[ns](locale) as unknown as Messages);
    for (const [key, english] of fragments(NAMESPACES[ns]('en') as unknown as Messages)) {
      if (same.has(`${ns}:${key}`) && translated.get(key)?.join(MARK) === english.join(MARK)) continue;
      for (const text of english) {
        whole.add(text);
        if (text.length >= 12) part.add(text);
      }
    }
  }
  return { whole: [...whole], part: [...part] };
}

/** The English texts of `englishOnly` that the frame's document shows (or reads out), each with where it is. */
export async function englishLeft(
  frame: Frame,
  locale: RenderLocale,
  namespaces: readonly Namespace[],
): Promise<string[]> {
  const texts = await frame.evaluate(() => {
    const found: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (node.parentElement?.closest('script, style')) continue;
      const text = node.textContent?.replace(/\s+/g, ' ').trim();
      if (text) found.push(text);
    }
    for (const el of Array.from(document.querySelectorAll('[aria-label], [placeholder], [title], [alt]'))) {
      for (const name of ['aria-label', 'placeholder', 'title', 'alt']) {
        const value = el.getAttribute(name)?.trim();
        if (value) found.push(value);
      }
    }
    // Not document.title: this suite's widget server writes a fixed one; the real server's titles are in the page's
    // language (apps/widget-iframe/test/documents.api.spec.ts).
    return found;
  });
  const { whole, part } = englishOnly(locale, namespaces);
  const wholeSet = new Set(whole);
  return [
    ...new Set(
      texts.flatMap((text) => {
        if (wholeSet.has(text)) return [text];
        const inside = part.find((english) => text.includes(english));
        return inside ? [`"${inside}" in "${text.slice(0, 80)}"`] : [];
      }),
    ),
  ];
}
