/**
 * The Chromium suite's world, all on this project's ports (13950–13999):
 * - a widget server (WIDGET, :13950) serving the real bundle (dist/browser/widget-frame) as the iframe document and
 *   the hosted page, with a boot block, a strict CSP and `frame-ancestors` = the boot's parent origin;
 * - a FAKE embed API (EMBED, :13951) with realistic bodies and the gate's answers (401/403 bare without CORS, 429 with
 *   Retry-After and CORS, 400 `{error}` with CORS), recording every request;
 * - a host page (HOST, :13952, another origin) that embeds the frame and plays the loader's part of the protocol
 *   (hello → init, resize applied), recording what it receives; FOREIGN (:13953) is a third origin.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import path from 'node:path';
import express from 'express';
import type { WidgetBootData } from '@expedition/contracts/widget-boot';

/** The policy the fake embed API reports on a successful payment (the success view links its certificate). */
export const CERTIFICATE = {
  policyNumber: 'POL-2026-TESTAB',
  token: 'pat_widgetHarnessToken',
  url: 'http://quote.test/api/v1/policies/POL-2026-TESTAB/certificate.pdf?access_token=pat_widgetHarnessToken',
};

export const PORTS = { widget: 13950, embed: 13951, host: 13952, foreign: 13953 } as const;
export const WIDGET = `http://localhost:${PORTS.widget}`;
export const EMBED = `http://localhost:${PORTS.embed}`;
export const HOST = `http://127.0.0.1:${PORTS.host}`;
export const FOREIGN = `http://127.0.0.1:${PORTS.foreign}`;
export const DIST = path.resolve(__dirname, '../../../../dist/browser/widget-frame');

export const KEYS = {
  tier3: 'pk_op_test_' + '3'.repeat(48),
  tier2: 'pk_op_test_' + '2'.repeat(48),
  tier1: 'pk_op_test_' + '1'.repeat(48),
  revoked: 'pk_op_test_' + 'dead'.repeat(12),
} as const;

export interface RecordedRequest {
  method: string;
  path: string;
  origin?: string;
  key?: string;
  body?: Record<string, unknown>;
}

/** What the fake embed API does next; tests change it between steps. */
export interface Scenario {
  /** Status the gate answers on the next POST /api/embed/quote (401, 403, 429) instead of the route. */
  quoteGate?: 401 | 403 | 429;
  /** Pending polls before a quote's options are ready. */
  pendingPolls: number;
  /** Answer the first options poll of each quote with 429 Retry-After: 1. */
  options429Once: boolean;
}

export const OPTIONS = [
  {
    planId: 'austral-voyager-basic',
    name: 'Austral Voyager Basic',
    brand: 'Austral',
    carrier: 'Austral Mutual Insurance Co.',
    tier: 'basic',
    premiumCents: 28950,
    currency: 'USD',
    coverage: {
      medicalExpenseLimit: 100000,
      evacuationCoverage: 250000,
      tripCancellationLimit: 24000,
      deductible: 250,
    },
    highlights: ['Emergency evacuation from the ice', 'Trip cancellation for covered reasons'],
    isRecommended: false,
    availabilityMode: 'full',
    checkout: { purchasable: true, amountCents: 28950, currency: 'USD' },
  },
  {
    planId: 'polar-shield-standard',
    name: 'Polar Shield Standard',
    brand: 'Polar Shield',
    carrier: 'Polar Shield Underwriters Ltd.',
    tier: 'standard',
    premiumCents: 41234,
    currency: 'USD',
    coverage: {
      medicalExpenseLimit: 250000,
      evacuationCoverage: 500000,
      tripCancellationLimit: 24000,
      deductible: 100,
    },
    highlights: ['Helicopter evacuation included', 'Cover up to age 85', '24/7 polar assistance line'],
    isRecommended: true,
    availabilityMode: 'full',
    policyTermsUrl: 'http://quote.test/policy-wording/polar-shield-standard',
    checkout: { purchasable: true, amountCents: 41234, currency: 'USD' },
  },
  {
    planId: 'meridian-private-charter',
    name: 'Meridian Private Charter',
    brand: 'Meridian',
    carrier: 'Meridian Specialty Insurance',
    tier: 'premium',
    premiumCents: 61875,
    currency: 'USD',
    coverage: {
      medicalExpenseLimit: 1000000,
      evacuationCoverage: 1000000,
      tripCancellationLimit: 24000,
      deductible: 0,
    },
    highlights: ['Cancel for any reason (75%)'],
    isRecommended: false,
    availabilityMode: 'inquiry',
    checkout: { purchasable: false, amountCents: 0, currency: 'USD' },
  },
] as const;

export interface World {
  requests: RecordedRequest[];
  scenario: Scenario;
  /** Boot overrides per publishable key (e.g. a parentOrigin that is not the real parent). */
  bootOverrides: Map<string, Partial<WidgetBootData>>;
  close(): Promise<void>;
}

function listen(app: express.Express, port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = app.listen(port, '127.0.0.1', () => resolve(server));
    server.once('error', reject);
  });
}

const escapeJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

export function bootFor(
  kind: 'frame' | 'hosted',
  key: string,
  instanceId: string | undefined,
  parent: string | undefined,
  overrides?: Partial<WidgetBootData>,
): WidgetBootData {
  const allowedTier = key === KEYS.tier2 ? 2 : key === KEYS.tier1 ? 1 : 3;
  const known = (Object.values(KEYS) as string[]).includes(key) && key !== KEYS.revoked;
  return {
    kind,
    state: known ? 'ok' : 'refused',
    ...(known ? {} : { refusal: { code: 'unauthorized' as const, message: 'This publishable key is not valid.' } }),
    publishableKey: key,
    ...(kind === 'frame' ? { instanceId, parentOrigin: parent } : {}),
    embedUrl: EMBED,
    mode: 'test',
    allowedTier,
    payments: { provider: 'simulated' },
    version: '1.0.0',
    operatorName: 'Polar Journeys Ltd',
    ...overrides,
  } as WidgetBootData;
}

function documentHtml(
  boot: WidgetBootData,
  manifest: { entries: Record<string, string>; css: Record<string, string> },
  title: string,
): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title><link rel="stylesheet" href="/assets/${manifest.css['frame']}">
<script type="module" src="/assets/${manifest.entries['frame']}"></script></head>
<body class="svc-${boot.kind}"><div id="svc-root"></div><script type="application/json" id="svc-boot">${escapeJson(boot)}</script></body></html>`;
}

export async function startWorld(): Promise<World> {
  const requests: RecordedRequest[] = [];
  const scenario: Scenario = { pendingPolls: 1, options429Once: false };
  const bootOverrides = new Map<string, Partial<WidgetBootData>>();
  const manifestFile = path.join(DIST, 'manifest.json');
  if (!existsSync(manifestFile)) throw new Error('Build the bundle first: npx nx run widget-frame:bundle');
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));

  // ---- widget server ----
  const widget = express();
  const csp = (ancestors: string) =>
    `default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src ${EMBED}; frame-ancestors ${ancestors}; base-uri 'none'; form-action 'none'`;
  widget.get('/frame', (req, res) => {
    const key = String(req.query['pk'] ?? '');
    const parent = typeof req.query['parent'] === 'string' ? req.query['parent'] : undefined;
    const boot = bootFor('frame', key, String(req.query['instance'] ?? ''), parent, bootOverrides.get(key));
    res
      .set('Content-Security-Policy', csp(boot.state === 'ok' ? (parent ?? "'none'") : '*'))
      .set('Cache-Control', 'no-store')
      .type('html')
      .send(documentHtml(boot, manifest, 'Travel insurance quote'));
  });
  widget.get('/quote', (req, res) => {
    const key = String(req.query['pk'] ?? '');
    const prefill: Record<string, unknown> = {};
    for (const k of ['destination', 'startDate', 'endDate', 'residence', 'state', 'currency'] as const)
      if (typeof req.query[k] === 'string') prefill[k] = req.query[k];
    for (const k of ['travelers', 'tripCost'] as const)
      if (typeof req.query[k] === 'string') prefill[k] = Number(req.query[k]);
    // As the widget server does: the hosted page's ?locale= becomes the boot data's language.
    const locale = typeof req.query['locale'] === 'string' ? { locale: req.query['locale'] } : {};
    const boot = bootFor('hosted', key, undefined, undefined, { prefill, ...locale, ...bootOverrides.get(key) });
    res
      .set('Content-Security-Policy', csp("'none'"))
      .type('html')
      .send(documentHtml(boot, manifest, 'Travel insurance – Polar Journeys Ltd'));
  });
  widget.use('/assets', express.static(DIST, { immutable: true, maxAge: '1y', index: false }));

  // ---- fake embed API ----
  const embed = express();
  const quotes = new Map<string, { email: string; polls: number; quoteNumber: string }>();
  const payments = new Map<string, { quoteId: string; planId: string; amountCents: number; status: string }>();
  const firstParty = WIDGET;
  // The gate's 403 after the route looked the quote up: bare, without CORS headers (no existence oracle).
  const bareForbidden = (res: express.Response) => {
    res.removeHeader('Access-Control-Allow-Origin');
    res.status(403).type('text').send('Forbidden');
  };
  embed.use((req, res, next) => {
    const origin = req.get('Origin');
    res.set('Vary', 'Origin').set('Cache-Control', 'no-store');
    if (req.method === 'OPTIONS') {
      if (!origin) return void res.status(403).type('text').send('Forbidden');
      res.set({
        'Access-Control-Allow-Origin': origin,
        'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
        'Access-Control-Allow-Headers': 'Content-Type, X-SVC-Publishable-Key',
        'Access-Control-Max-Age': '86400',
      });
      return void res.status(204).end();
    }
    next();
  });
  embed.use(express.json());
  embed.use('/api/embed', (req, res, next) => {
    const key = req.get('X-SVC-Publishable-Key') ?? '';
    const origin = req.get('Origin');
    requests.push({ method: req.method, path: req.path, origin, key, body: req.body });
    if (!key || key === KEYS.revoked) return void res.status(401).type('text').send('Unauthorized');
    if (origin !== firstParty) return void res.status(403).type('text').send('Forbidden');
    // As the real gate must for the iframe to honour 429s: Retry-After is not a CORS-safelisted response header.
    res.set('Access-Control-Allow-Origin', origin).set('Access-Control-Expose-Headers', 'Retry-After');
    if (req.path === '/quote' && scenario.quoteGate) {
      const status = scenario.quoteGate;
      scenario.quoteGate = undefined;
      if (status === 429) return void res.status(429).set('Retry-After', '17').type('text').send('Too Many Requests');
      res.removeHeader('Access-Control-Allow-Origin');
      return void res
        .status(status)
        .type('text')
        .send(status === 401 ? 'Unauthorized' : 'Forbidden');
    }
    next();
  });
  embed.post('/api/embed/quote', (req, res) => {
    const body = req.body as Record<string, unknown>;
    if (typeof body['email'] !== 'string' || typeof body['destination'] !== 'string')
      return void res.status(400).json({ error: 'Missing or invalid required fields' });
    if (body['email'] === 'quote-error@sandbox.test')
      return void res.status(400).json({ error: 'Sandbox: this test e-mail always fails to quote' });
    const quoteId = randomUUID();
    const quoteNumber = `EXP-${'ABCDEFGHJK'[quotes.size % 10]}7Q2`;
    quotes.set(quoteId, { email: body['email'], polls: 0, quoteNumber });
    res.json({ quoteId, quoteNumber, instantQuoteEligible: body['email'] !== 'manual@sandbox.test' });
  });
  embed.get('/api/embed/options', (req, res) => {
    const quoteId = String(req.query['quoteId'] ?? '');
    if (!quoteId) return void res.status(400).json({ error: 'quoteId required' });
    const quote = quotes.get(quoteId);
    if (!quote) return void bareForbidden(res);
    quote.polls++;
    if (scenario.options429Once && quote.polls === 1)
      return void res.status(429).set('Retry-After', '1').type('text').send('Too Many Requests');
    if (
      quote.email === 'options-pending@sandbox.test' ||
      quote.polls <= scenario.pendingPolls + (scenario.options429Once ? 1 : 0)
    )
      return void res.json({ options: [], pending: true });
    res.json({
      quoteId,
      quoteNumber: quote.quoteNumber,
      currency: 'USD',
      recommendedPlanId: 'polar-shield-standard',
      options: OPTIONS,
      generatedAt: new Date().toISOString(),
    });
  });
  embed.post('/api/embed/checkout', (req, res) => {
    const { quoteId, planId } = req.body as { quoteId?: string; planId?: string };
    if (!quoteId || !quotes.has(quoteId)) return void bareForbidden(res);
    if (!OPTIONS.some((o) => o.planId === planId))
      return void res.status(400).json({ error: "Plan is not among this quote's options" });
    res.json({
      checkoutUrl: `${EMBED}/checkout/${quoteId}?plan=${planId}`,
      expiresAt: new Date(Date.now() + 30 * 60_000).toISOString(),
    });
  });
  embed.get(
    '/checkout/:id',
    (_req, res) =>
      void res
        .type('html')
        .send('<!doctype html><html lang="en"><title>Checkout</title><h1>Hosted checkout</h1></html>'),
  );
  embed.post('/api/embed/payments', (req, res) => {
    const { quoteId, planId } = req.body as { quoteId: string; planId: string };
    const option = OPTIONS.find((o) => o.planId === planId);
    if (!quotes.has(quoteId)) return void bareForbidden(res);
    if (!option) return void res.status(400).json({ error: "Plan is not among this quote's options" });
    if ([...payments.values()].some((p) => p.quoteId === quoteId && p.status === 'succeeded'))
      return void res.status(409).json({ error: 'This quote is already purchased' });
    const paymentId = `pi_sim_${quoteId.slice(0, 8)}_${planId.length}`;
    payments.set(paymentId, { quoteId, planId, amountCents: option.premiumCents, status: 'requires_payment_method' });
    res.json({
      paymentId,
      clientSecret: `${paymentId}_secret_x`,
      amountCents: option.premiumCents,
      currency: 'USD',
      provider: 'simulated',
      mode: 'test',
    });
  });
  const result = (
    paymentId: string,
    status: string,
    failure?: { failureCode: string; declineCode?: string; failureMessage: string },
  ) => {
    const p = payments.get(paymentId)!;
    p.status = status === 'failed' ? 'requires_payment_method' : status;
    // The embed API names the policy on the paying call's success (its token rides in the certificate link).
    const policy =
      status === 'succeeded'
        ? { policyNumber: CERTIFICATE.policyNumber, accessToken: CERTIFICATE.token, documentUrl: CERTIFICATE.url }
        : {};
    return {
      paymentId,
      status,
      quoteId: p.quoteId,
      planId: p.planId,
      amountCents: p.amountCents,
      currency: 'USD',
      ...failure,
      ...policy,
    };
  };
  embed.post('/api/embed/payments/confirm', (req, res) => {
    const { paymentId, paymentMethod } = req.body as { paymentId: string; paymentMethod: string };
    if (!payments.has(paymentId)) return void bareForbidden(res);
    const card = String(paymentMethod).replace(/[\s-]/g, '');
    if (card === '4242424242424242') return void res.json(result(paymentId, 'succeeded'));
    if (card === '4000002500003155') return void res.json(result(paymentId, 'requires_action'));
    res.json(
      result(paymentId, 'failed', {
        failureCode: 'card_declined',
        declineCode: 'generic_decline',
        failureMessage: 'Your card was declined.',
      }),
    );
  });
  embed.post('/api/embed/payments/authenticate', (req, res) => {
    const { paymentId, approve } = req.body as { paymentId: string; approve: boolean };
    if (payments.get(paymentId)?.status !== 'requires_action')
      return void res.status(409).json({ error: 'This payment is not awaiting authentication' });
    res.json(
      approve
        ? result(paymentId, 'succeeded')
        : result(paymentId, 'failed', {
            failureCode: 'payment_intent_authentication_failure',
            failureMessage: 'We could not authenticate your payment method.',
          }),
    );
  });

  // ---- host pages (another origin): play the loader's part of the protocol, record everything ----
  const hostApp = (own: string) => {
    const app = express();
    app.get(
      '/',
      (_req, res) =>
        void res.type('html')
          .send(`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Host</title>
<style>body{font-family:system-ui;margin:0;padding:16px;background:#eef2f6} iframe{width:100%;border:0;display:block;background:#fff;height:200px}</style></head>
<body><h1 style="font-size:18px">Antarctic Peninsula voyage — protect your trip</h1><div id="slot"></div><script>
window.received = []; window.all = []; window.frames_ = {};
window.embed = function (pk, instance, config, opts) {
  opts = opts || {};
  var iframe = document.createElement('iframe');
  iframe.title = 'Travel insurance quote';
  iframe.src = '${WIDGET}/frame?pk=' + encodeURIComponent(pk) + '&instance=' + instance + '&parent=' + encodeURIComponent(opts.parent || location.origin);
  document.getElementById('slot').append(iframe);
  window.frames_[instance] = { iframe: iframe, config: config, hold: !!opts.holdInit, hello: false };
  return instance;
};
window.sendInit = function (instance) {
  var f = window.frames_[instance];
  f.iframe.contentWindow.postMessage({ type: 'svc:frame.init', instanceId: instance, config: f.config }, '${WIDGET}');
};
window.sendUpdate = function (instance, config) {
  window.frames_[instance].iframe.contentWindow.postMessage({ type: 'svc:frame.update', instanceId: instance, config: config }, '${WIDGET}');
};
window.addEventListener('message', function (e) {
  window.all.push({ origin: e.origin, data: e.data });
  var hit = Object.keys(window.frames_).find(function (k) { return window.frames_[k].iframe.contentWindow === e.source; });
  if (e.origin !== '${WIDGET}' || !hit) return;
  var f = window.frames_[hit];
  window.received.push(e.data);
  if (e.data.type === 'svc:frame.hello') { f.hello = true; if (!f.hold) window.sendInit(hit); }
  if (e.data.type === 'svc:frame.resize') f.iframe.style.height = e.data.height + 'px';
});
</script></body></html>`),
    );
    app.get(
      '/poster',
      (_req, res) =>
        void res.type('html').send(`<!doctype html><title>poster</title><script>
window.addEventListener('message', function (e) { if (e.data && e.data.forward) parent.frames[0].postMessage(e.data.forward, '*'); });
</script>`),
    );
    void own;
    return app;
  };

  const servers = await Promise.all([
    listen(widget, PORTS.widget),
    listen(embed, PORTS.embed),
    listen(hostApp(HOST), PORTS.host),
    listen(hostApp(FOREIGN), PORTS.foreign),
  ]);
  return {
    requests,
    scenario,
    bootOverrides,
    close: async () => {
      await Promise.all(
        servers.map(
          (s) =>
            new Promise<void>((resolve) => {
              s.close(() => resolve());
              s.closeAllConnections();
            }),
        ),
      );
    },
  };
}
