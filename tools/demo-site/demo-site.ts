/**
 * The demo operator's site (port 4200 in `npm start`): a tour seller's trip page that embeds OUR widget the way an
 * operator would (the loader from WIDGET_URL, `SvcWidget.mount`, the page's own strict CSP allowing the widget
 * origin), shows every widget event as it arrives, and receives the operator's `policy.issued` webhooks, verified
 * with the helper we publish for operators (libs/webhook-signature).
 *
 * Pages: `/` Tier 3 (checkout inside the widget), `/?tier=2` (checkout in a new tab), `/?tier=1` (a link to the hosted
 * quote page). No inline script or style: /assets/demo.js and /assets/demo.css, config in a JSON data block.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import express, { type Express } from 'express';
import { addDays, isoDay, WEBHOOK_SIGNATURE_HEADER, type PolicyIssuedPayload } from '@expedition/contracts';
import type { Logger } from '@expedition/platform';
import { verifySignature } from '@expedition/webhook-signature';
import { demoPage, type DemoTier, type DemoTrip } from './page';

export interface DemoSiteOptions {
  /** The widget server's public URL (WIDGET_URL): the loader is `${widgetUrl}/widget.js`, the iframe is there too. */
  widgetUrl: string;
  publishableKey: string;
  /** The operator's webhook secret(s), from DATA_DIR/demo-operator.json. */
  webhookSecret: string;
  operatorName: string;
  logger: Logger;
  /** The tier `/` shows (default 3); `/?tier=1|2|3` switches. */
  defaultTier?: DemoTier;
  /** The trip's dates (default: departs 60 days from now, returns 11 days later), so the quote is always for a future departure. */
  now?: () => Date;
}

export interface ReceivedWebhook {
  eventId: string;
  receivedAt: string;
  deliveries: number;
  payload: PolicyIssuedPayload;
}

export const DEMO_WEBHOOK_PATH = '/webhooks/expedition';
const PUBLIC = path.join(__dirname, 'public');

export function createDemoSite(options: DemoSiteOptions): { app: Express; received: Map<string, ReceivedWebhook> } {
  const app = express();
  app.disable('x-powered-by');
  const received = new Map<string, ReceivedWebhook>();
  const widgetOrigin = new URL(options.widgetUrl).origin;
  const assets = { js: readFileSync(path.join(PUBLIC, 'demo.js')), css: readFileSync(path.join(PUBLIC, 'demo.css')) };

  // Verify over the raw bytes BEFORE parsing; dedupe on eventId (delivery is at least once).
  app.post(DEMO_WEBHOOK_PATH, express.raw({ type: '*/*', limit: '256kb' }), (req, res) => {
    const rawBody = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const verdict = verifySignature({
      rawBody,
      header: req.get(WEBHOOK_SIGNATURE_HEADER),
      secrets: options.webhookSecret,
    });
    if (!verdict.ok) {
      options.logger.warn({ reason: verdict.reason }, 'demo site: rejected a webhook');
      return res.status(400).json({ error: verdict.reason });
    }
    const payload = JSON.parse(rawBody.toString('utf8')) as PolicyIssuedPayload;
    const seen = received.get(payload.eventId);
    if (seen) seen.deliveries += 1;
    else
      received.set(payload.eventId, {
        eventId: payload.eventId,
        receivedAt: new Date().toISOString(),
        deliveries: 1,
        payload,
      });
    options.logger.info(
      { eventId: payload.eventId, policyNumber: payload.policyNumber },
      'demo site: policy.issued received',
    );
    res.json({ received: true });
  });

  app.get('/webhooks/received', (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json({ events: [...received.values()].reverse() });
  });

  app.get('/healthz', (_req, res) => res.json({ status: 'ok' }));
  // The page links an inline icon; browsers that still ask for /favicon.ico get the same icon, not a 404.
  app.get('/favicon.ico', (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=86400');
    res.type('image/svg+xml').send(FAVICON_SVG);
  });
  app.get('/assets/demo.js', (_req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.type('js').send(assets.js);
  });
  app.get('/assets/demo.css', (_req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.type('css').send(assets.css);
  });
  app.get('/', (req, res) => {
    const asked = Number(req.query['tier']);
    const tier: DemoTier = asked === 1 || asked === 2 || asked === 3 ? asked : (options.defaultTier ?? 3);
    res.setHeader('Cache-Control', 'no-store');
    // The operator's own CSP: what we tell operators to add for the widget (docs/integration-guide.md).
    res.setHeader('Content-Security-Policy', demoCsp(widgetOrigin));
    res.setHeader('Referrer-Policy', 'strict-origin-when-cross-origin');
    res.type('html').send(
      demoPage({
        tier,
        trip: demoTrip((options.now ?? (() => new Date()))()),
        widgetUrl: options.widgetUrl.replace(/\/+$/, ''),
        publishableKey: options.publishableKey,
        operatorName: options.operatorName,
        favicon: FAVICON_SVG,
        // `/?locale=de`: how an operator sets the widget's language (MountConfig.locale).
        ...(typeof req.query['locale'] === 'string' && /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/.test(req.query['locale'])
          ? { locale: req.query['locale'] }
          : {}),
      }),
    );
  });
  return { app, received };
}

/** script-src and frame-src allow the widget origin; nothing inline anywhere. */
export function demoCsp(widgetOrigin: string): string {
  return [
    "default-src 'self'",
    `script-src 'self' ${widgetOrigin}`,
    `frame-src ${widgetOrigin}`,
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The Antarctic voyage on sale: departs 60 days from `now` (Day 1 of the itinerary), returns on Day 12: 11 nights. */
export function demoTrip(now: Date): DemoTrip {
  const day = (offset: number) => addDays(isoDay(now), offset);
  return {
    name: 'Antarctic Peninsula Classic',
    destination: 'antarctica',
    startDate: day(60),
    endDate: day(71),
    pricePerPersonUsd: 14_900,
    travelers: 2,
    travelerAges: [46, 71],
    residence: 'GB',
    email: 'traveler@example.com',
  };
}

/** A small iceberg on blue: the demo operator's icon. */
export const FAVICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#0d3b5e"/>' +
  '<path d="M6 22l6-12 4 5 3-4 7 11z" fill="#fff"/></svg>';
