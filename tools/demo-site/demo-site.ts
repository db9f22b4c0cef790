/**
 * The demo operator's site (port 4200 in `npm start`): a tour seller's trip page that quotes insurance through the
 * embed API from its own origin with the demo test key, and the operator's `policy.issued` webhook receiver,
 * verified with the same helper we publish for operators (libs/webhook-signature).
 */
import express, { type Express } from 'express';
import type { PolicyIssuedPayload } from '@expedition/contracts';
import type { Logger } from '@expedition/platform';
import { verifySignature } from '@expedition/webhook-signature';

export interface DemoSiteOptions {
  embedUrl: string;
  publishableKey: string;
  /** The operator's webhook secret(s), from DATA_DIR/demo-operator.json. */
  webhookSecret: string;
  operatorName: string;
  logger: Logger;
}

export interface ReceivedWebhook {
  eventId: string;
  receivedAt: string;
  deliveries: number;
  payload: PolicyIssuedPayload;
}

export const DEMO_WEBHOOK_PATH = '/webhooks/expedition';

export function createDemoSite(options: DemoSiteOptions): { app: Express; received: Map<string, ReceivedWebhook> } {
  const app = express();
  app.disable('x-powered-by');
  const received = new Map<string, ReceivedWebhook>();

  // Verify over the raw bytes BEFORE parsing; dedupe on eventId (delivery is at least once).
  app.post(DEMO_WEBHOOK_PATH, express.raw({ type: '*/*', limit: '256kb' }), (req, res) => {
    const rawBody = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const verdict = verifySignature({ rawBody, header: req.get('X-SVC-Signature'), secrets: options.webhookSecret });
    if (!verdict.ok) {
      options.logger.warn({ reason: verdict.reason }, 'demo site: rejected a webhook');
      return res.status(400).json({ error: verdict.reason });
    }
    const payload = JSON.parse(rawBody.toString('utf8')) as PolicyIssuedPayload;
    const seen = received.get(payload.eventId);
    if (seen) seen.deliveries += 1;
    else received.set(payload.eventId, { eventId: payload.eventId, receivedAt: new Date().toISOString(), deliveries: 1, payload });
    options.logger.info({ eventId: payload.eventId, policyNumber: payload.policyNumber }, 'demo site: policy.issued received');
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
  app.get('/', (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.type('html').send(page(options));
  });
  return { app, received };
}

/** A small iceberg on blue: the demo operator's icon. */
export const FAVICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#0d3b5e"/>' +
  '<path d="M6 22l6-12 4 5 3-4 7 11z" fill="#fff"/></svg>';

const json = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');
const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(options: DemoSiteOptions): string {
  const config = { embedUrl: options.embedUrl, publishableKey: options.publishableKey };
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escape(options.operatorName)} — Antarctic Peninsula Classic</title>
<link rel="icon" type="image/svg+xml" href="data:image/svg+xml,${encodeURIComponent(FAVICON_SVG)}">
<style>
body{font:16px/1.5 system-ui,sans-serif;margin:0;color:#16242f;background:#eef3f7}
header{background:#0d3b5e;color:#fff;padding:1.5rem 2rem}header small{opacity:.8}
main{max-width:60rem;margin:0 auto;padding:1.5rem 2rem}section{background:#fff;border-radius:12px;padding:1.5rem;margin-bottom:1.2rem;box-shadow:0 1px 3px #0002}
form{display:grid;grid-template-columns:repeat(auto-fit,minmax(12rem,1fr));gap:.8rem}label{display:grid;font-size:.9rem;color:#46586a}
input,select,button{font:inherit;padding:.5rem;border:1px solid #b8c6d2;border-radius:6px}button{background:#0b5cad;color:#fff;border:0;font-weight:600;cursor:pointer}button:disabled{background:#9aa9b6;cursor:default}
.cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(15rem,1fr));gap:1rem}.card{border:1px solid #cfdbe5;border-radius:10px;padding:1rem}
.card.rec{border:2px solid #0b8a4a}.price{font-size:1.5rem;font-weight:700}.muted{color:#5b6b79;font-size:.9rem}.status{min-height:1.5rem}
pre{background:#f4f7fa;padding:.8rem;border-radius:8px;overflow:auto;font-size:.8rem}
[hidden]{display:none!important}.confirmation{grid-column:1/-1;border:2px solid #0b8a4a;border-radius:10px;padding:1rem 1.2rem;background:#f3fbf6}.confirmation h3{margin:.2rem 0 .6rem;color:#0b6b3a}
.confirmation dl{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem}.confirmation dt{color:#5b6b79}.confirmation dd{margin:0}.confirmation dd:first-of-type,[data-policy-number]{white-space:nowrap}
@media (max-width:30rem){.confirmation dl{grid-template-columns:1fr;gap:0}.confirmation dd{margin-bottom:.4rem}}
</style></head><body>
<header><h1>${escape(options.operatorName)}</h1><small>Antarctic Peninsula Classic · 12 days from Ushuaia · from $14,900 per person</small></header>
<main>
<section><h2>Protect your expedition</h2>
<p class="muted">Travel insurance built for polar and safari expeditions. Quoted live through the embed API with this site's test key.</p>
<form id="quote">
<label>Destination<select name="destination"><option value="antarctica">Antarctica</option><option value="arctic">Arctic</option><option value="svalbard">Svalbard</option><option value="galapagos">Galápagos</option><option value="african-safari">African Safari</option></select></label>
<label>Departure<input name="startDate" type="date" required></label>
<label>Return<input name="endDate" type="date" required></label>
<label>Travelers<input name="travelers" type="number" min="1" max="8" value="2" required></label>
<label>Ages (comma separated)<input name="ages" value="46, 71"></label>
<label>Total trip cost (USD)<input name="tripCost" type="number" min="0" value="29800" required></label>
<label>Residence (country code)<input name="residence" value="GB" maxlength="2" required></label>
<label>US state (if US)<input name="state" maxlength="2"></label>
<label>Email<input name="email" type="email" value="traveler@example.com" required></label>
<button type="submit">Get my insurance options</button>
</form>
<p class="status" id="status"></p>
<div class="cards" id="options"></div>
</section>
<section><h2>Operator back office: policy.issued webhooks received</h2>
<p class="muted">Each delivery is verified (X-SVC-Signature over the raw body) and deduplicated on eventId.</p>
<div id="webhooks" class="muted">None yet.</div>
</section>
</main>
<script>
const CONFIG = ${json(config)};
const $ = (id) => document.getElementById(id);
const headers = { 'Content-Type': 'application/json', 'X-SVC-Publishable-Key': CONFIG.publishableKey };
const money = (cents, cur) => new Intl.NumberFormat('en-US', { style: 'currency', currency: cur || 'USD' }).format(cents / 100);
const dollars = (usd) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 }).format(usd);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const start = new Date(Date.now() + 60 * 864e5), end = new Date(start.getTime() + 12 * 864e5);
document.querySelector('[name=startDate]').value = start.toISOString().slice(0, 10);
document.querySelector('[name=endDate]').value = end.toISOString().slice(0, 10);

async function call(path, init) {
  for (;;) {
    const res = await fetch(CONFIG.embedUrl + path, init);
    if (res.status === 429) { await sleep(1000 * Number(res.headers.get('Retry-After') || 1)); continue; }
    const body = res.headers.get('content-type')?.includes('json') ? await res.json() : await res.text();
    if (!res.ok) throw Object.assign(new Error(res.status + ' ' + (body.error || body)), { status: res.status });
    return body;
  }
}

$('quote').addEventListener('submit', async (e) => {
  e.preventDefault();
  const f = Object.fromEntries(new FormData(e.target));
  const ages = f.ages.split(',').map((s) => Number(s.trim())).filter((n) => Number.isFinite(n) && n > 0);
  const body = { destination: f.destination, startDate: f.startDate, endDate: f.endDate, travelers: Number(f.travelers),
    tripCost: Number(f.tripCost), residence: f.residence, email: f.email, ...(ages.length ? { travelerAges: ages } : {}),
    ...(f.state ? { state: f.state } : {}) };
  $('options').innerHTML = ''; $('status').textContent = 'Creating your quote…';
  try {
    const quote = await call('/api/embed/quote', { method: 'POST', headers, body: JSON.stringify(body) });
    $('status').textContent = 'Quote ' + quote.quoteNumber + (quote.instantQuoteEligible ? ': pricing your options…' : ': an advisor will confirm the price.');
    let options;
    for (let i = 0; i < 30; i++) {
      options = await call('/api/embed/options?quoteId=' + encodeURIComponent(quote.quoteId), { headers });
      if (!options.pending) break;
      await sleep(1000);
    }
    if (options.pending) { $('status').textContent = 'Quote ' + quote.quoteNumber + ' is waiting for an advisor.'; return; }
    $('status').textContent = 'Quote ' + quote.quoteNumber + ': ' + options.options.length + ' options.';
    renderOptions(quote.quoteId, options);
  } catch (err) { $('status').textContent = 'Sorry, something went wrong: ' + err.message; }
});

function renderOptions(quoteId, ready) {
  $('options').innerHTML = '';
  for (const o of ready.options) {
    const card = document.createElement('div');
    card.className = 'card' + (o.isRecommended ? ' rec' : '');
    card.innerHTML = '<div class="muted"></div><h3></h3><div class="price"></div><p class="muted"></p><button></button><p class="status"></p>';
    card.children[0].textContent = (o.isRecommended ? 'Recommended · ' : '') + o.brand + ' · ' + o.tier;
    card.children[1].textContent = o.name;
    card.children[2].textContent = money(o.premiumCents, o.currency);
    card.children[3].textContent = 'Evacuation ' + dollars(o.coverage.evacuationCoverage) + ' · Medical ' + dollars(o.coverage.medicalExpenseLimit);
    const button = card.children[4], status = card.children[5];
    button.textContent = o.checkout.purchasable ? 'Buy with test card 4242' : 'Ask an advisor';
    button.disabled = !o.checkout.purchasable;
    if (o.checkout.purchasable) button.dataset.buy = '1';
    button.onclick = () => buy(quoteId, o, status);
    $('options').appendChild(card);
  }
}

// One purchase per quote: every Buy button is disabled while a payment is in flight, and after a purchase the options
// give way to the policy (the platform would refuse a second payment with 409 anyway).
const setBuying = (busy) => document.querySelectorAll('#options button[data-buy]').forEach((b) => { b.disabled = busy; });
const day = (iso) => iso ? new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }).format(new Date(iso)) : '';

async function buy(quoteId, option, status) {
  setBuying(true);
  status.textContent = 'Paying…';
  try {
    const payment = await call('/api/embed/payments', { method: 'POST', headers, body: JSON.stringify({ quoteId, planId: option.planId }) });
    const result = await call('/api/embed/payments/confirm', { method: 'POST', headers,
      body: JSON.stringify({ paymentId: payment.paymentId, paymentMethod: '4242424242424242' }) });
    if (result.status !== 'succeeded') { status.textContent = 'Payment ' + result.status + '. Nothing was charged; try again.'; setBuying(false); return; }
    showPurchase(quoteId, 'Payment received', 'Paid ' + money(payment.amountCents, payment.currency) + ' for ' + option.name + '.');
  } catch (err) {
    if (err.status === 409) return showPurchase(quoteId, 'This trip is already insured', 'It was bought already; nothing more was charged.');
    status.textContent = 'Payment failed: ' + err.message + '. Nothing was charged; try again.';
    setBuying(false);
  }
}

/** Replaces the options with the purchase, then with the policy once its policy.issued webhook has arrived here. */
async function showPurchase(quoteId, title, detail) {
  $('quote').hidden = true;
  $('status').textContent = '';
  const box = document.createElement('div');
  box.className = 'confirmation';
  box.id = 'confirmation';
  box.innerHTML = '<h3></h3><p></p><p class="muted">Issuing your policy…</p>';
  box.children[0].textContent = title;
  box.children[1].textContent = detail;
  $('options').replaceChildren(box);
  for (let i = 0; i < 60; i++) {
    const found = await policyFor(quoteId);
    if (found) return showPolicy(box, found);
    await sleep(1000);
  }
  box.children[2].textContent = 'Your policy number will follow by email.';
}

async function policyFor(quoteId) {
  try {
    // Newest first: the delivery a visitor just caused is the one on top.
    const events = (await (await fetch('/webhooks/received')).json()).events.slice().reverse();
    const event = events.find((e) => e.payload.quoteId === quoteId);
    return event ? event.payload : null;
  } catch { return null; }
}

function showPolicy(box, p) {
  box.innerHTML = '<h3>Policy issued — <span data-policy-number></span></h3><dl>' +
    '<dt>Policy number</dt><dd></dd><dt>Plan</dt><dd></dd><dt>Premium paid</dt><dd></dd><dt>Dates</dt><dd></dd><dt>Travelers</dt><dd></dd></dl>' +
    '<p class="muted"></p>';
  box.querySelector('[data-policy-number]').textContent = p.policyNumber;
  const dd = box.querySelectorAll('dd');
  dd[0].textContent = p.policyNumber;
  dd[1].textContent = p.planName;
  dd[2].textContent = money(p.premiumCents, p.currency);
  dd[3].textContent = day(p.startDate) + ' → ' + day(p.endDate);
  dd[4].textContent = p.travelers + (p.travelers === 1 ? ' traveler' : ' travelers');
  box.lastElementChild.textContent = 'The policy documents are emailed to the traveler. Quote ' + p.quoteNumber + (p.mode === 'test' ? ' · test mode: no money moved.' : '.');
}

async function refreshWebhooks() {
  try {
    const { events } = await (await fetch('/webhooks/received')).json();
    if (events.length) $('webhooks').innerHTML = events.map((e) => '<pre tabindex="0" aria-label="Received policy.issued webhook"></pre>').join('');
    events.forEach((e, i) => { $('webhooks').children[i].textContent = JSON.stringify(e.payload, null, 2); });
  } catch {}
  setTimeout(refreshWebhooks, 2000);
}
refreshWebhooks();
</script></body></html>`;
}
