import type { IntegrationResponse, Mode } from '@expedition/contracts';
import { WEBHOOK_SIGNATURE_HEADER } from '@expedition/contracts';

/**
 * The copy-paste snippets of GET /operator/integration, with the operator's key and our widget URL filled in.
 * Kept as plain strings (the UI shows them in <pre> blocks with a copy button). The loader snippets follow loader
 * 1.1.0 (docs/integration-guide.md): `title` names the widget and its hosted-page fallback link; `widget.error` tells
 * a refused frame (origin not allowed) from a timeout.
 */
export function buildIntegration(input: {
  widgetUrl: string;
  publishableKey: string | null;
  mode: Mode | null;
  allowedTier: 1 | 2 | 3;
}): IntegrationResponse {
  const widgetUrl = input.widgetUrl.replace(/\/+$/, '');
  const widgetOrigin = new URL(widgetUrl).origin;
  const pk = input.publishableKey ?? 'pk_op_test_…';
  const mount = (tier: 2 | 3) =>
    [
      '<div id="svc-insurance"></div>',
      `<script src="${widgetUrl}/widget.js"></script>`,
      '<script>',
      "  SvcWidget.mount('#svc-insurance', {",
      `    publishableKey: '${pk}',`,
      `    tier: ${tier},`,
      "    // The widget's name in your page's language: read by screen readers, and the text of the link to our",
      "    // hosted quote page that takes the widget's place if this page's origin is not one of your allowed origins.",
      "    title: 'Travel insurance quote',",
      "    // Optional: the widget's language (en, de, fr, es; without it, the visitor's browser language) and what you",
      '    // already know of the trip, which the traveler can still change (every field: MountConfig in the integration',
      '    // guide). For example:',
      "    // locale: 'de',",
      "    // destination: 'antarctica', startDate: '2027-01-10', endDate: '2027-01-24',",
      "    // travelers: 2, travelerAges: [45, 72], tripCost: 24000, residence: 'US', state: 'CA',",
      '  });',
      "  SvcWidget.on('quote.selected', (event) => {",
      '    // event.planId, event.premiumCents (integer cents), event.currency: the last one is current',
      '  });',
      ...(tier === 3
        ? [
            "  SvcWidget.on('payment.succeeded', (event) => {",
            '    // a UX signal only: fulfil from the signed policy.issued webhook',
            '  });',
          ]
        : []),
      "  SvcWidget.on('widget.error', (event) => {",
      "    // frame_refused: this page's origin is not allowed (a link to our quote page is shown instead); frame_timeout: network",
      '  });',
      '</script>',
    ].join('\n');
  return {
    widgetUrl,
    widgetOrigin,
    publishableKey: input.publishableKey,
    mode: input.mode,
    allowedTier: input.allowedTier,
    snippets: {
      tier1: `<a href="${widgetUrl}/quote?pk=${encodeURIComponent(pk)}" target="_blank" rel="noopener">Get expedition travel insurance</a>`,
      tier2: mount(2),
      tier3: mount(3),
      csp: `script-src ${widgetOrigin}; frame-src ${widgetOrigin}`,
      webhookVerification: webhookVerificationSnippet(),
    },
  };
}

/** Node 18+ and express: verify the signature over the RAW body, then deduplicate on eventId. */
export function webhookVerificationSnippet(): string {
  return `// npm install express
const crypto = require('node:crypto');
const express = require('express');

// Your signing secret (portal → Webhooks → Endpoint → Reveal signing secret). During a rotation, list the new one too.
const SECRETS = [process.env.SVC_WEBHOOK_SECRET];
const TOLERANCE_SEC = 300;
const seen = new Set(); // use a unique index on eventId in your database

// ${WEBHOOK_SIGNATURE_HEADER}: t=<unix seconds>,v1=<hex>[,v1=<hex>…] — one v1 per active secret; accept any match.
function verify(rawBody, header) {
  const parts = String(header || '').split(',').map((p) => p.trim().split('='));
  const t = Number((parts.find(([k]) => k === 't') || [])[1]);
  const signatures = parts.filter(([k]) => k === 'v1').map(([, v]) => v);
  if (!Number.isInteger(t) || Math.abs(Date.now() / 1000 - t) > TOLERANCE_SEC) return false;
  return SECRETS.some((secret) => {
    const expected = crypto.createHmac('sha256', secret).update(t + '.').update(rawBody).digest('hex');
    return signatures.some((s) => s.length === expected.length && crypto.timingSafeEqual(Buffer.from(s), Buffer.from(expected)));
  });
}

const app = express();
app.post('/webhooks/expedition', express.raw({ type: 'application/json' }), (req, res) => {
  if (!verify(req.body, req.get('${WEBHOOK_SIGNATURE_HEADER}'))) return res.sendStatus(400);
  const event = JSON.parse(req.body.toString('utf8'));
  if (seen.has(event.eventId)) return res.sendStatus(200); // delivered at least once: ignore repeats
  seen.add(event.eventId);
  if (event.test) return res.sendStatus(200); // a test event from the portal: not a sale
  // A policy was sold: event.policyNumber, event.premiumCents, event.commissionCents (integer cents), event.currency
  res.sendStatus(200);
});
app.listen(8080);
`;
}
