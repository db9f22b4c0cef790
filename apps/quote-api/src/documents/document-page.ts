import { createHash } from 'node:crypto';
import type { Response } from 'express';
import { LANGUAGE_NAMES, LOCALES, slot, splitSlots, type Locale, type RenderLocale } from '@expedition/i18n';
import { documentsMessages } from '@expedition/i18n/documents';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);

/**
 * The one stylesheet of the policyholder's pages (policy page, policy wording). Inline, allowed by its hash rather
 * than a nonce, so a public page's bytes — and its ETag — are the same on every request.
 */
const STYLE = `
:root{color-scheme:light}
body{font:16px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;background:#f4f7fa;color:#14212b}
main{max-width:46rem;margin:1.5rem auto;background:#fff;border-radius:12px;padding:1.5rem 1.25rem;box-shadow:0 1px 4px #0002}
@media (min-width:40rem){main{margin:2rem auto;padding:2rem 2.5rem}}
h1{font-size:1.5rem;line-height:1.25;margin:0 0 .3rem}h2{font-size:1.15rem;margin:1.8rem 0 .5rem;padding-top:1rem;border-top:1px solid #e1e7ec}
a{color:#0b5cad}p{margin:.4rem 0}.muted{color:#52606d;font-size:.92rem}
dl{display:grid;grid-template-columns:minmax(7rem,max-content) 1fr;gap:.35rem 1rem;margin:.5rem 0}dt{color:#52606d}dd{margin:0}
@media (max-width:30rem){dl{grid-template-columns:1fr;gap:0}dd{margin-bottom:.5rem}}
ul,ol{padding-left:1.3rem}li{margin:.35rem 0}
.specimen{background:#b00020;color:#fff;font-weight:700;padding:.7rem 1rem;border-radius:8px;margin-bottom:1rem}
.status{display:inline-block;background:#e3f4ea;color:#0b5a32;font-weight:600;padding:.3rem .7rem;border-radius:8px;margin:.5rem 0}
.emergency{background:#fff4e5;border-left:4px solid #b45309;padding:.8rem 1rem;border-radius:6px}
.phone{font-size:1.35rem;font-weight:700;white-space:nowrap}
.docs{list-style:none;padding:0}.docs li{margin:.5rem 0}
.docs a{display:block;padding:.75rem 1rem;border:1px solid #b8c4ce;border-radius:8px;text-decoration:none;font-weight:600}
.docs a span{display:block;font-weight:400;color:#52606d;font-size:.9rem}
.note{background:#f4f7fa;padding:.8rem 1rem;border-radius:8px;font-size:.92rem}
table{border-collapse:collapse;width:100%;margin:.5rem 0}th,td{text-align:left;vertical-align:top;padding:.5rem .4rem;border-bottom:1px solid #e1e7ec}
th{font-size:.9rem;color:#52606d;font-weight:600}td.limit{white-space:nowrap;font-weight:600}
@media (max-width:30rem){table,tbody,tr,td{display:block}thead{display:none}tr{padding:.4rem 0;border-bottom:1px solid #e1e7ec}td{border:0;padding:.1rem 0}}
.nowrap{white-space:nowrap}
.langs{display:flex;flex-wrap:wrap;justify-content:flex-end;gap:.25rem .9rem;margin:0 0 .8rem;font-size:.92rem}
.langs a{padding:.35rem .1rem}.langs a[aria-current]{font-weight:700;color:#14212b;text-decoration:none}
`;
const STYLE_HASH = createHash('sha256').update(STYLE).digest('base64');

/**
 * The checkout page's CSP (nothing loads but what is named; no scripts at all here), with the stylesheet allowed by
 * its hash. `form-action 'none'`: these pages have no forms.
 */
export const DOCUMENT_PAGE_CSP = `default-src 'none'; style-src 'sha256-${STYLE_HASH}'; img-src 'self' data:; form-action 'none'; frame-ancestors 'none'; base-uri 'none'`;

/** A whole HTML document in `lang` (default English): mobile viewport, no scripts, no remote resources. */
export function documentPage(
  title: string,
  body: string,
  opts: { noindex?: boolean; lang?: RenderLocale } = {},
): string {
  return `<!doctype html>
<html lang="${opts.lang ?? 'en'}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
${opts.noindex ? '<meta name="robots" content="noindex">' : ''}<link rel="icon" href="data:,"><title>${escapeHtml(title)}</title>
<style>${STYLE}</style></head><body><main>${body}</main></body></html>`;
}

/**
 * A placeholder for HTML inside a translated sentence: pass `slot(0)` as the message's argument, then
 * `withSlots(text, [html])` escapes the sentence and puts the HTML (a link) where the slot is. The message stays one
 * sentence in every language, with its words around the link in that language's order.
 */
export { slot };
export function withSlots(text: string, html: readonly string[]): string {
  return splitSlots(text)
    .map((part) => (typeof part === 'number' ? (html[part] ?? '') : escapeHtml(part)))
    .join('');
}

/**
 * The language switch of a page: each language in its own name (`lang` and `hreflang` set), the current one marked.
 * `href(locale)` is the page's URL in that language (a `?locale=` link: these pages have no scripts).
 */
export function languageSwitch(current: RenderLocale, href: (locale: Locale) => string): string {
  const links = LOCALES.map(
    (l) =>
      `<a href="${escapeHtml(href(l))}" hreflang="${l}" lang="${l}"${l === current ? ' aria-current="true"' : ''}>${escapeHtml(LANGUAGE_NAMES[l])}</a>`,
  ).join('');
  return `<nav class="langs" aria-label="${escapeHtml(documentsMessages(current).common.language())}">${links}</nav>`;
}

/** The language a document page was asked for by `?locale=` (the pseudo-locale included), if any. */
export function queryLocale(query: unknown): string | undefined {
  return typeof query === 'string' && query.length <= 35 ? query : undefined;
}

/** Headers every document page carries (the page's caching is set by its route). */
export function documentPageHeaders(res: Response): void {
  res.setHeader('Content-Security-Policy', DOCUMENT_PAGE_CSP);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.type('html');
}
