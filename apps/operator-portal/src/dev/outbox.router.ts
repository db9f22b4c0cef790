import { Router, type RequestHandler } from 'express';
import type { OutboxMail } from '@expedition/contracts';

export interface OutboxSource {
  list(): OutboxMail[];
  /** The HTML part of mail `id`, if it had one (libs/mail's outbox keeps it beside the record). */
  html?(id: string): string | undefined;
  /** Attachment `index` of mail `id` (its position in the record's `attachments`). */
  attachment?(id: string, index: number): { filename: string; content: Buffer } | undefined;
  /** Where the files are (shown on the page). */
  dir: string;
}

/** The page itself: no script; it frames only its own mails' HTML (same origin, below). */
const PAGE_CSP =
  "default-src 'none'; style-src 'self'; img-src 'self'; frame-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
/**
 * A mail's HTML as the traveler's client renders it (inline styles, images), and nothing more: no script, no form,
 * no plugin, a unique origin (CSP sandbox); links open in a new tab (the page's <base target>, allow-popups).
 */
const MAIL_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src data: https:; font-src data:; base-uri 'none'; form-action 'none'; " +
  "frame-ancestors 'self'; sandbox allow-popups allow-popups-to-escape-sandbox";

const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/** The text with its http(s) links made clickable (everything else escaped). */
function linkify(text: string): string {
  return text
    .split(/(https?:\/\/[^\s<>"']+)/g)
    .map((part, i) => (i % 2 === 1 ? `<a href="${escapeHtml(part)}">${escapeHtml(part)}</a>` : escapeHtml(part)))
    .join('');
}

const OUTBOX_CSS = `:root { color-scheme: light dark; font-family: system-ui, sans-serif; line-height: 1.5; }
body { margin: 0; background: Canvas; color: CanvasText; }
main { max-width: 52rem; margin: 0 auto; padding: 2rem 1rem; }
article { border: 1px solid color-mix(in srgb, CanvasText 20%, transparent); border-radius: 8px; padding: 1rem 1.25rem; margin: 1rem 0; }
h2 { font-size: 1.1rem; margin: 0 0 .25rem; }
.meta { margin: 0 0 .75rem; opacity: .8; font-size: .9rem; }
pre { white-space: pre-wrap; word-break: break-word; font: inherit; margin: 0; }
iframe { display: block; width: 100%; height: 32rem; resize: vertical; border: 1px solid color-mix(in srgb, CanvasText 20%, transparent); border-radius: 4px; background: #fff; }
details { margin-top: .75rem; }
ul.attachments { margin: .5rem 0 0; padding-left: 1.25rem; }
a { color: LinkText; }
a:focus-visible { outline: 3px solid Highlight; outline-offset: 2px; }
`;

/** One mail: its HTML part framed as the traveler sees it (else the text), the text part, the attachments. */
function renderMail(m: OutboxMail, hasHtml: boolean): string {
  const id = encodeURIComponent(m.id);
  const text = `<pre>${linkify(m.text)}</pre>`;
  const body = hasHtml
    ? `<iframe src="/dev/outbox/${id}/html" sandbox="allow-popups allow-popups-to-escape-sandbox" loading="lazy" title="${escapeHtml(`The e-mail as the traveler sees it: ${m.subject}`)}"></iframe>
<details><summary>Plain-text part</summary>${text}</details>`
    : text;
  const files = (m.attachments ?? [])
    .map(
      (name, n) =>
        `<li><a href="/dev/outbox/${id}/attachments/${n}" download="${escapeHtml(name)}">${escapeHtml(name)}</a></li>`,
    )
    .join('');
  return `<article class="svc-card">
<h2>${escapeHtml(m.subject)}</h2>
<p class="meta">To <strong>${escapeHtml(m.to)}</strong> · <time datetime="${escapeHtml(m.sentAt)}">${escapeHtml(m.sentAt.replace('T', ' ').slice(0, 19))} UTC</time></p>
${body}${files ? `\n<p class="meta">Attachments (also in <code>${escapeHtml(m.id)}.eml</code>):</p><ul class="attachments">${files}</ul>` : ''}
</article>`;
}

export function renderOutboxPage(
  mails: OutboxMail[],
  dir: string,
  hasHtml: (id: string) => boolean = () => false,
): string {
  const items = mails.length
    ? mails.map((m) => renderMail(m, hasHtml(m.id))).join('\n')
    : '<p>No mail yet. Sign up, invite a teammate, ask for a password reset or buy a policy with an e-mail address, then reload this page.</p>';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>Mail outbox (development) · Operator portal</title>
<link rel="stylesheet" href="/dev/outbox.css">
</head>
<body>
<main>
<h1>Mail outbox</h1>
<p>Development only: with no <code>SMTP_URL</code>, the platform (portal mails and policyholders' confirmation e-mails) writes its e-mails to <code>${escapeHtml(dir)}</code> instead of sending them. Newest first. Reload to see new messages.</p>
${items}
</main>
</body>
</html>
`;
}

/** A <base target="_blank"> at the top of the head (before the doctype it would put the page in quirks mode). */
export function withLinksInNewTabs(html: string): string {
  const base = '<base target="_blank">';
  return /<head(\s[^>]*)?>/i.test(html) ? html.replace(/<head(\s[^>]*)?>/i, (head) => head + base) : base + html;
}

/**
 * Embedded/dev mode only (never mounted when NODE_ENV=production): GET /dev/outbox (a page, no script at all; each
 * mail's HTML part framed from GET /dev/outbox/:id/html under its own sandboxing CSP, its attachments to download from
 * GET /dev/outbox/:id/attachments/:n) and GET /api/portal/v1/dev/outbox (JSON, used by tests and the UI's dev hint).
 */
export function outboxRouter(outbox: OutboxSource): Router {
  const router = Router();
  // The outbox holds live reset and invitation links: only this machine may read it (embedded mode listens on every
  // interface, so a colleague's laptop on the same network could otherwise take over any account). Anyone else: 404.
  router.use(['/dev', '/api/portal/v1/dev'], loopbackOnly);
  router.get('/dev/outbox.css', (_req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.type('css').send(OUTBOX_CSS);
  });
  router.get('/dev/outbox', (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Content-Security-Policy', PAGE_CSP);
    const hasHtml = (id: string) => outbox.html?.(id) !== undefined;
    res.type('html').send(renderOutboxPage(outbox.list(), outbox.dir, hasHtml));
  });
  router.get('/dev/outbox/:id/html', (req, res) => {
    const html = outbox.html?.(String(req.params['id']));
    if (html === undefined) return void res.status(404).end();
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Content-Security-Policy', MAIL_CSP);
    res.setHeader('X-Frame-Options', 'SAMEORIGIN');
    res.type('html').send(withLinksInNewTabs(html));
  });
  router.get('/dev/outbox/:id/attachments/:n', (req, res) => {
    const file = outbox.attachment?.(String(req.params['id']), Number(req.params['n']));
    if (!file) return void res.status(404).end();
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Content-Security-Policy', "default-src 'none'; sandbox");
    res.attachment(file.filename).type('application/octet-stream').send(file.content);
  });
  router.get('/api/portal/v1/dev/outbox', (_req, res) => {
    res.json({ mails: outbox.list() });
  });
  return router;
}

/** 404 unless the TCP peer is this machine. */
export const loopbackOnly: RequestHandler = (req, res, next) => {
  if (isLoopbackPeer(req.socket.remoteAddress)) return next();
  res.status(404).end();
};

/** The TCP peer (never a forwarded header) is this machine. */
export function isLoopbackPeer(address: string | undefined): boolean {
  if (!address) return false;
  const ip = address.startsWith('::ffff:') ? address.slice(7) : address;
  return ip === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(ip);
}
