import { randomBytes } from 'node:crypto';
import type { Response } from 'express';
import { findDestination } from '@expedition/domain-pricing';
import type { CheckoutService } from './checkout.service';

type View = Awaited<ReturnType<CheckoutService['view']>>;

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
export const money = (cents: number, currency: string) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(cents / 100);
const DAY = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
/** A date as people read it ("10 Jan 2027"), as HTML that never breaks inside the date. */
export const day = (d: Date | null) => `<span class="nowrap">${d ? DAY.format(d) : 'not given'}</span>`;

/** `head`: extra elements for <head>, e.g. a meta refresh (the CSP allows no inline script for that). */
export function layout(title: string, body: string, nonce: string, script = '', head = ''): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><link rel="icon" href="data:,">${head}<title>${escapeHtml(title)}</title>
<style nonce="${nonce}">
body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#f4f7fa;color:#14212b}
main{max-width:40rem;margin:2rem auto;background:#fff;border-radius:12px;padding:2rem;box-shadow:0 1px 4px #0002}
h1{font-size:1.4rem;margin-top:0}dl{display:grid;grid-template-columns:max-content 1fr;gap:.3rem 1rem}
dt{color:#52606d}dd{margin:0}.premium{font-size:1.6rem;font-weight:600}.notice{background:#fff8e1;padding:1rem;border-radius:8px}
.error{background:#fdecea;color:#8a1c12;padding:1rem;border-radius:8px}
.success{color:#0b6b3a}ul{padding-left:1.2rem}li{margin:.3rem 0}h2{font-size:1.1rem;margin:1.4rem 0 .4rem}.nowrap{white-space:nowrap}
form{display:grid;gap:.6rem;margin:1.2rem 0}input{font:inherit;padding:.6rem;border:1px solid #b8c4ce;border-radius:6px}
button{font:inherit;font-weight:600;padding:.7rem;border:0;border-radius:6px;background:#0b5cad;color:#fff;cursor:pointer}
.summary{white-space:pre-wrap;background:#f4f7fa;padding:1rem;border-radius:8px}.muted{color:#52606d;font-size:.9rem}
</style></head><body><main>${body}</main>${script}</body></html>`;
}

/** The optional field's name, and what the page says about it (one place: the page and its tests). */
export const EMAIL_FIELD = 'email';
/** Stripe mode: the address could not be stored before the payment (the page then does not pay). */
export const EMAIL_NOT_SAVED = 'Your e-mail address could not be saved, so nothing was charged. Check your connection and try again.';
export const EMAIL_FIELD_HINT =
  'Optional. We e-mail your policy confirmation and certificate there. Leave it empty and no e-mail is sent: ' +
  'keep this page\'s link, which shows your policy and its certificate after payment.';

/** Asked only when neither the link nor its quote carries an address (the assistant never collected one). */
function emailField(): string {
  return `<label for="email">E-mail for your policy documents</label><input id="email" name="${EMAIL_FIELD}" type="email" autocomplete="email" maxlength="254" aria-describedby="email-hint">
<p class="muted" id="email-hint">${escapeHtml(EMAIL_FIELD_HINT)}</p>`;
}

/** Posts back to the page's own URL: the bearer token is not repeated in the document. */
function payForm(testMode: boolean, askEmail: boolean): string {
  const hint = testMode
    ? `<p class="muted">Test mode: no money moves. Use 4242 4242 4242 4242 (succeeds), 4000 0000 0000 0002 (declined) or 4000 0000 0000 9995 (insufficient funds), any future expiry and any CVC.</p>`
    : '';
  // The test cards come before the form: the payer needs them to fill it in.
  return `${hint}<form method="post" autocomplete="off">
${askEmail ? emailField() : ''}<label for="card">Card number</label><input id="card" name="cardNumber" inputmode="numeric" autocomplete="cc-number" required maxlength="23">
<label for="exp">Expiry (MM/YY)</label><input id="exp" name="expiry" autocomplete="cc-exp" required maxlength="7">
<label for="cvc">CVC</label><input id="cvc" name="cvc" inputmode="numeric" autocomplete="cc-csc" required maxlength="4">
<button type="submit">Pay and issue my policy</button></form>`;
}

/** Renders the page behind a checkout link. The token is a bearer secret: no caching, no referrer, no framing. */
export interface PageOptions {
  /** Shown above the form after a failed attempt. */
  error?: string;
  /** The status that goes with `error` (default 402: a payment that failed). */
  errorStatus?: 400 | 402;
  /** Whether the card form is offered (a processor is configured). */
  payable?: boolean;
  /** Simulated mode: list the magic test cards. */
  testMode?: boolean;
  /** Stripe mode: the processor's Payment Element instead of our card form. */
  stripe?: { publishableKey: string; clientSecret: string };
  /** Back from the processor's redirect with a successful status: the policy is being issued. */
  processing?: boolean;
}

const STRIPE_JS = 'https://js.stripe.com/v3/';

/**
 * Stripe's Payment Element confirms the payment in the browser and Stripe redirects back: no form of ours is posted.
 * So the optional address (`askEmail`) is stored on the link first (POST {link}/email), then Stripe is called; the
 * dispatcher that issues the policy on Stripe's event finds it there. An address the server refuses stops the payment.
 */
function stripeForm(nonce: string, stripe: { publishableKey: string; clientSecret: string }, askEmail: boolean) {
  const config = JSON.stringify({ ...stripe, networkError: EMAIL_NOT_SAVED }).replace(/</g, '\\u003c');
  const body = `<form id="stripe-form">${askEmail ? emailField() : ''}<div id="payment-element"></div><button type="submit">Pay and issue my policy</button>
<p class="error" id="stripe-error" role="alert" hidden></p></form>`;
  const script = `<script nonce="${nonce}" src="${STRIPE_JS}"></script>
<script nonce="${nonce}">(function(){var c=${config};var stripe=Stripe(c.publishableKey);
var elements=stripe.elements({clientSecret:c.clientSecret});elements.create('payment').mount('#payment-element');
var form=document.getElementById('stripe-form');var err=document.getElementById('stripe-error');
function fail(m){err.textContent=m;err.hidden=false;}
function pay(){return stripe.confirmPayment({elements:elements,confirmParams:{return_url:location.origin+location.pathname}}).then(function(r){
if(r.error)fail(r.error.message);});}
form.addEventListener('submit',function(e){e.preventDefault();err.hidden=true;var field=form.elements.namedItem('${EMAIL_FIELD}');
var email=field&&!field.readOnly?field.value.trim():'';if(!email)return pay();
fetch(location.pathname+'/email',{method:'POST',body:new URLSearchParams({${EMAIL_FIELD}:email})}).then(function(r){
if(r.ok){field.readOnly=true;return pay();}return r.json().then(function(b){fail(b.message);});},function(){fail(c.networkError);});});})();</script>`;
  return { body, script };
}

/**
 * Security headers of every page behind a checkout link (the token is a bearer secret: no caching, no referrer, no
 * framing, a strict CSP); returns the nonce of its inline style and scripts.
 */
export function startCheckoutPage(res: Response, stripeCsp = ''): string {
  const nonce = randomBytes(16).toString('base64');
  res.setHeader(
    'Content-Security-Policy',
    `default-src 'none'; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}'${stripeCsp}; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
  );
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.type('html');
  return nonce;
}

/** Reloads the page after a few seconds without script: CSP governs scripts, not <meta http-equiv="refresh">. */
export const refreshMeta = (seconds: number) => `<meta http-equiv="refresh" content="${seconds}">`;

export function renderCheckoutPage(res: Response, view: View, options: PageOptions = {}): void {
  // Stripe's Payment Element loads its script and iframes from Stripe and talks to its API; the page itself only posts
  // the optional e-mail to its own origin. Nothing else is allowed.
  const stripeCsp = options.stripe
    ? ` https://js.stripe.com; frame-src https://js.stripe.com https://hooks.stripe.com; connect-src 'self' https://api.stripe.com`
    : '';
  const nonce = startCheckoutPage(res, stripeCsp);

  if (view.state === 'unknown') {
    res.status(404).send(
      layout(
        'Checkout link not found',
        `<h1>This checkout link is not valid</h1><p>Check that the whole link was copied, or ask your assistant for a new one.</p>`,
        nonce,
      ),
    );
    return;
  }
  const { session } = view;
  const { quote, plan } = session;
  const reference = `<p class="muted">Quote ${escapeHtml(quote.quoteNumber)}</p>`;
  if (view.state === 'expired') {
    res.status(410).send(
      layout(
        'Checkout link expired',
        `<h1>This checkout link has expired</h1>${reference}<p>Checkout links work for 30 minutes. Ask your assistant for a new link; your quote is kept.</p>`,
        nonce,
      ),
    );
    return;
  }
  if (view.state === 'paid') {
    res.status(200).send(
      layout('Already paid', `<h1>This policy is already paid</h1>${reference}<p>Nothing more to do here: this link will not charge you again.</p>`, nonce),
    );
    return;
  }

  const askEmail = !session.email && !quote.email;
  const stripe = options.stripe && !options.processing ? stripeForm(nonce, options.stripe, askEmail) : null;
  const paymentSection = options.processing
    ? '<p class="notice" id="processing">Payment received. Your policy is being issued; this page updates by itself.</p>'
    : stripe
      ? stripe.body
      : options.payable
        ? payForm(options.testMode ?? false, askEmail)
        : '<p class="notice">Online payment is not enabled for this link. A representative will contact you to complete the purchase.</p>';
  const guests = session.guestNames.length ? session.guestNames.map(escapeHtml).join(', ') : `${quote.travelers} ${quote.travelers === 1 ? 'traveler' : 'travelers'}`;
  const body = `
<h1>Complete your expedition insurance</h1>${reference}
<dl>
<dt>Plan</dt><dd>${escapeHtml(plan.name)} <span class="muted">(${escapeHtml(plan.brand)}, ${escapeHtml(plan.tier)})</span></dd>
<dt>Destination</dt><dd>${escapeHtml(findDestination(quote.destinationSlug)?.name ?? quote.destinationSlug)}</dd>
<dt>Dates</dt><dd>${day(quote.startDate)} → ${day(quote.endDate)} (${quote.durationDays} days)</dd>
<dt>Travelers</dt><dd>${guests}; ages ${quote.travelerAges.join(', ')}</dd>
<dt>Trip cost</dt><dd>${money(quote.tripCostCents, quote.currency)}</dd>
<dt>Premium</dt><dd class="premium">${money(session.premiumCents, session.currency)}</dd>
</dl>
${session.agentSummary ? `<h2>Summary from your assistant</h2><p class="summary">${escapeHtml(session.agentSummary)}</p>` : ''}
<p class="notice">This link expires in <strong id="left" data-expires="${session.expiresAt.toISOString()}">${Math.ceil(view.msLeft / 60000)} minutes</strong>.</p>
${options.error ? `<p class="error" role="alert">${escapeHtml(options.error)}</p>` : ''}
${paymentSection}
<p class="muted">Prices are estimates until confirmed by the policy documents; they are not a binding contract.</p>`;
  const script = `<script nonce="${nonce}">(function(){var el=document.getElementById('left');var end=Date.parse(el.dataset.expires);
function tick(){var s=Math.max(0,Math.round((end-Date.now())/1000));el.textContent=s>0?Math.floor(s/60)+' min '+(s%60)+' s':'now: this link has expired';if(s>0)setTimeout(tick,1000);}tick();})();</script>`;
  const head = options.processing ? refreshMeta(3) : '';
  res.status(options.error ? (options.errorStatus ?? 402) : 200).send(layout('Checkout', body, nonce, script + (stripe?.script ?? ''), head));
}
