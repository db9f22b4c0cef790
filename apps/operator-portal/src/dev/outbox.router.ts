import { Router, type RequestHandler } from 'express';
import type { OutboxMail } from '@expedition/contracts';

export interface OutboxSource {
  list(): OutboxMail[];
  /** Where the files are (shown on the page). */
  dir: string;
}

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
a { color: LinkText; }
a:focus-visible { outline: 3px solid Highlight; outline-offset: 2px; }
`;

export function renderOutboxPage(mails: OutboxMail[], dir: string): string {
  const items = mails.length
    ? mails
        .map(
          (m) => `<article class="svc-card">
<h2>${escapeHtml(m.subject)}</h2>
<p class="meta">To <strong>${escapeHtml(m.to)}</strong> · <time datetime="${escapeHtml(m.sentAt)}">${escapeHtml(m.sentAt.replace('T', ' ').slice(0, 19))} UTC</time></p>
<pre>${linkify(m.text)}</pre>${m.attachments?.length ? `\n<p class="meta">Attached: ${m.attachments.map(escapeHtml).join(', ')} (in the <code>${escapeHtml(m.id)}.eml</code> file)</p>` : ''}
</article>`,
        )
        .join('\n')
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

/**
 * Embedded/dev mode only (never mounted when NODE_ENV=production): GET /dev/outbox (a page, no script at all) and
 * GET /api/portal/v1/dev/outbox (JSON, used by tests and the UI's dev hint).
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
    res.type('html').send(renderOutboxPage(outbox.list(), outbox.dir));
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
