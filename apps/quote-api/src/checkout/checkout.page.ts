import { randomBytes } from 'node:crypto';
import type { Response } from 'express';
import { CHECKOUT_LINK_TTL_MS } from '@expedition/contracts';
import { formatMoney, TEST_CARDS } from '@expedition/contracts/rules';
import { formatDay, LANGUAGE_NAMES, LOCALES, type Locale, type RenderLocale } from '@expedition/i18n';
import { checkoutMessages } from '@expedition/i18n/documents';
import { carrierName, destinationName, tierName } from '@expedition/policy-documents';
import { slot, withSlots } from '../documents/document-page';
import type { CheckoutService } from './checkout.service';
import { checkoutStyles } from './checkout-style';

type View = Awaited<ReturnType<CheckoutService['view']>>;

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
/** A date as people read it ("10 Jan 2027", "10. Jan. 2027"), as HTML that never breaks inside the date. */
export const day = (d: Date | null, locale: RenderLocale = 'en') =>
  `<span class="nowrap">${escapeHtml(d ? formatDay(d, locale, 'short') : checkoutMessages(locale).values.dateNotGiven())}</span>`;

/** The links to this page in the other languages (`?locale=`: the path, and with it the token, stays). */
function languageSwitch(current: RenderLocale): string {
  const links = LOCALES.map(
    (l: Locale) =>
      `<a href="?locale=${l}" hreflang="${l}" lang="${l}"${l === current ? ' aria-current="true"' : ''}>${escapeHtml(LANGUAGE_NAMES[l])}</a>`,
  ).join('');
  return `<nav class="langs" aria-label="Language / Sprache / Langue / Idioma">${links}</nav>`;
}

/** Whose page this is: the operator the quote came through (null: none), and its optional branding. */
export interface PageBrand {
  operatorName: string | null;
  /** A brand colour already checked for contrast against white text (libs/operators). */
  accent?: string | null;
  /** An https logo URL, already validated; shown with the operator's name as its alt text. */
  logoUrl?: string | null;
}
export const NO_BRAND: PageBrand = { operatorName: null };
/**
 * The brand of a quote's operator row (null: the quote came through no operator). The portal validated the colour
 * and the logo (libs/operators branding.ts); they are checked again here, so a stored value that is not a plain
 * #rrggbb or an https URL never reaches the stylesheet or the CSP.
 */
export function checkoutBrand(
  operator: { name: string; brandColor?: string | null; logoUrl?: string | null } | null | undefined,
): PageBrand {
  if (!operator) return NO_BRAND;
  const accent = operator.brandColor && /^#[0-9a-f]{6}$/i.test(operator.brandColor) ? operator.brandColor : null;
  return { operatorName: operator.name, accent, logoUrl: logoOrigin(operator.logoUrl) ? operator.logoUrl : null };
}

/** The https origin of a logo URL, for the page's img-src; null for anything else. */
export function logoOrigin(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' ? parsed.origin : null;
  } catch {
    return null;
  }
}

/** The page's header: the operator's name (and logo) when the quote came through one, and the language switch. */
function brandHeader(brand: PageBrand, lang: RenderLocale): string {
  const name = brand.operatorName;
  const logo =
    name && brand.logoUrl
      ? `<img class="brand-logo" src="${escapeHtml(brand.logoUrl)}" alt="${escapeHtml(name)}" width="160" height="40">`
      : '';
  const who = name
    ? `<p class="brand-name" id="operator">${logo}<span>${escapeHtml(checkoutMessages(lang).page.offeredBy({ operator: name }))}</span></p>`
    : '';
  return `<header class="brand">${who}${languageSwitch(lang)}</header>`;
}

/**
 * A whole page in `lang`, with the language switch. `head`: extra elements for <head>, e.g. a meta refresh (the CSP
 * allows no inline script for that).
 */
export function layout(
  title: string,
  body: string,
  nonce: string,
  script = '',
  head = '',
  lang: RenderLocale = 'en',
  brand: PageBrand = NO_BRAND,
): string {
  return `<!doctype html>
<html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><link rel="icon" href="data:,">${head}<title>${escapeHtml(title)}</title>
<style nonce="${nonce}">
${checkoutStyles(brand.accent)}
</style></head><body><main>${brandHeader(brand, lang)}${body}</main>${script}</body></html>`;
}

/** The optional field's name, and what the page says about it (one place: the page and its tests). */
export const EMAIL_FIELD = 'email';
export const EMAIL_FIELD_HINT = checkoutMessages('en').page.emailHint();

/** Asked only when neither the link nor its quote carries an address (the assistant never collected one). */
function emailField(locale: RenderLocale): string {
  const m = checkoutMessages(locale).page;
  return `<label for="email">${escapeHtml(m.emailLabel())}</label><input id="email" name="${EMAIL_FIELD}" type="email" autocomplete="email" maxlength="254" aria-describedby="email-hint">
<p class="muted" id="email-hint">${escapeHtml(m.emailHint())}</p>`;
}

/** Cards are written in groups of four, as on the card. */
const grouped = (digits: string) => digits.replace(/(\d{4})(?=\d)/g, '$1 ');

/** Posts back to the page's own URL (its `?locale=` too): the bearer token is not repeated in the document. */
function payForm(testMode: boolean, askEmail: boolean, locale: RenderLocale): string {
  const m = checkoutMessages(locale).page;
  const hint = testMode
    ? `<p class="muted">${escapeHtml(
        m.testCards({
          success: grouped(TEST_CARDS.success),
          declined: grouped(TEST_CARDS.decline),
          insufficient: grouped(TEST_CARDS.insufficientFunds),
        }),
      )}</p>`
    : '';
  // The test cards come before the form: the payer needs them to fill it in.
  return `${hint}<form method="post" autocomplete="off">
${askEmail ? emailField(locale) : ''}<label for="card">${escapeHtml(m.cardNumber())}</label><input id="card" name="cardNumber" inputmode="numeric" autocomplete="cc-number" required maxlength="23">
<label for="exp">${escapeHtml(m.expiry())}</label><input id="exp" name="expiry" autocomplete="cc-exp" required maxlength="7">
<label for="cvc">${escapeHtml(m.cvc())}</label><input id="cvc" name="cvc" inputmode="numeric" autocomplete="cc-csc" required maxlength="4">
<button type="submit">${escapeHtml(m.pay())}</button></form>`;
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
  /** The page's language: `?locale=`, else the quote's (the router negotiates it). */
  locale?: RenderLocale;
}

const STRIPE_JS = 'https://js.stripe.com/v3/';

/**
 * Stripe's Payment Element confirms the payment in the browser and Stripe redirects back: no form of ours is posted.
 * So the optional address (`askEmail`) is stored on the link first (POST {link}/email, with the page's `?locale=`), then
 * Stripe is called; the dispatcher that issues the policy on Stripe's event finds it there. An address the server
 * refuses stops the payment, and the page shows the server's reason (in the page's language).
 * The Payment Element speaks the page's language too (its own texts: card fields, errors).
 */
function stripeForm(
  nonce: string,
  stripe: { publishableKey: string; clientSecret: string },
  askEmail: boolean,
  locale: RenderLocale,
) {
  const m = checkoutMessages(locale).page;
  const config = JSON.stringify({ ...stripe, locale, networkError: m.emailNotSaved() }).replace(/</g, '\\u003c');
  const body = `<form id="stripe-form">${askEmail ? emailField(locale) : ''}<div id="payment-element"></div><button type="submit">${escapeHtml(m.pay())}</button>
<p class="error" id="stripe-error" role="alert" hidden></p></form>`;
  const script = `<script nonce="${nonce}" src="${STRIPE_JS}"></script>
<script nonce="${nonce}">(function(){var c=${config};var stripe=Stripe(c.publishableKey);
var elements=stripe.elements({clientSecret:c.clientSecret,locale:c.locale});elements.create('payment').mount('#payment-element');
var form=document.getElementById('stripe-form');var err=document.getElementById('stripe-error');
function fail(m){err.textContent=m;err.hidden=false;}
function pay(){return stripe.confirmPayment({elements:elements,confirmParams:{return_url:location.origin+location.pathname+location.search}}).then(function(r){
if(r.error)fail(r.error.message);});}
form.addEventListener('submit',function(e){e.preventDefault();err.hidden=true;var field=form.elements.namedItem('${EMAIL_FIELD}');
var email=field&&!field.readOnly?field.value.trim():'';if(!email)return pay();
fetch(location.pathname+'/email'+location.search,{method:'POST',body:new URLSearchParams({${EMAIL_FIELD}:email})}).then(function(r){
if(r.ok){field.readOnly=true;return pay();}return r.json().then(function(b){fail(b.message);});},function(){fail(c.networkError);});});})();</script>`;
  return { body, script };
}

/**
 * Security headers of every page behind a checkout link (the token is a bearer secret: no caching, no referrer, no
 * framing, a strict CSP); returns the nonce of its inline style and scripts.
 */
export function startCheckoutPage(
  res: Response,
  stripeCsp = '',
  locale: RenderLocale = 'en',
  brand: PageBrand = NO_BRAND,
): string {
  const nonce = randomBytes(16).toString('base64');
  // An operator's logo: its origin alone joins img-src.
  const logo = logoOrigin(brand.logoUrl);
  res.setHeader('Content-Language', locale);
  res.setHeader(
    'Content-Security-Policy',
    `default-src 'none'; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}'${stripeCsp}; img-src 'self' data:${logo ? ` ${logo}` : ''}; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
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
  const locale = options.locale ?? 'en';
  const m = checkoutMessages(locale);
  const e = escapeHtml;
  // Stripe's Payment Element loads its script and iframes from Stripe and talks to its API; the page itself only posts
  // the optional e-mail to its own origin. Nothing else is allowed.
  const stripeCsp = options.stripe
    ? ` https://js.stripe.com; frame-src https://js.stripe.com https://hooks.stripe.com; connect-src 'self' https://api.stripe.com`
    : '';
  const brand = view.state === 'unknown' ? NO_BRAND : checkoutBrand(view.session.quote.operator);
  const nonce = startCheckoutPage(res, stripeCsp, locale, brand);
  const page = (title: string, body: string, script = '', head = '') =>
    layout(title, body, nonce, script, head, locale, brand);

  if (view.state === 'unknown') {
    res
      .status(404)
      .send(page(m.page.notFoundTitle(), `<h1>${e(m.page.notFoundHeading())}</h1><p>${e(m.page.notFoundBody())}</p>`));
    return;
  }
  const { session } = view;
  const { quote, plan } = session;
  const reference = `<p class="muted">${e(m.page.quoteReference({ quoteNumber: quote.quoteNumber }))}</p>`;
  if (view.state === 'expired') {
    res
      .status(410)
      .send(
        page(
          m.page.expiredTitle(),
          `<h1>${e(m.page.expiredHeading())}</h1>${reference}<p>${e(m.page.expiredBody({ minutes: CHECKOUT_LINK_MINUTES }))}</p>`,
        ),
      );
    return;
  }
  if (view.state === 'paid') {
    res
      .status(200)
      .send(page(m.page.paidTitle(), `<h1>${e(m.page.paidHeading())}</h1>${reference}<p>${e(m.page.paidBody())}</p>`));
    return;
  }

  const askEmail = !session.email && !quote.email;
  const stripe = options.stripe && !options.processing ? stripeForm(nonce, options.stripe, askEmail, locale) : null;
  const paymentSection = options.processing
    ? `<p class="notice" id="processing">${e(m.page.processing())}</p>`
    : stripe
      ? stripe.body
      : options.payable
        ? payForm(options.testMode ?? false, askEmail, locale)
        : `<p class="notice">${e(m.page.notEnabled())}</p>`;
  const guests = session.guestNames.length
    ? session.guestNames.join(', ')
    : m.values.travelerCount({ count: quote.travelers });
  const dates = withSlots(m.values.datesWithDays({ start: slot(0), end: slot(1), days: quote.durationDays }), [
    day(quote.startDate, locale),
    day(quote.endDate, locale),
  ]);
  const minutes = Math.ceil(view.msLeft / 60000);
  const left = `<strong id="left" data-expires="${session.expiresAt.toISOString()}" data-countdown="${e(m.page.countdown({ minutes: '%m', seconds: '%s' }))}" data-expired="${e(`${m.page.expiredHeading()}.`)}">${e(m.page.minutesLeft({ minutes }))}</strong>`;
  const body = `
<h1>${e(m.page.heading())}</h1>${reference}
<dl>
<dt>${e(m.labels.plan())}</dt><dd>${e(plan.name)} <span class="muted">(${e(plan.brand)}, ${e(tierName(plan.tier, locale))})</span></dd>
<dt>${e(m.labels.carrier())}</dt><dd id="carrier">${e(carrierName(plan.carrier, locale))}</dd>
<dt>${e(m.labels.destination())}</dt><dd>${e(destinationName(quote.destinationSlug, locale))}</dd>
<dt>${e(m.labels.dates())}</dt><dd>${dates}</dd>
<dt>${e(m.labels.travelers())}</dt><dd>${e(m.values.travelersWithAges({ travelers: guests, ages: quote.travelerAges.join(', ') }))}</dd>
<dt>${e(m.labels.tripCost())}</dt><dd>${e(formatMoney(quote.tripCostCents, quote.currency, locale))}</dd>
<dt>${e(m.labels.premium())}</dt><dd class="premium">${e(formatMoney(session.premiumCents, session.currency, locale))}</dd>
</dl>
${session.agentSummary ? `<h2>${e(m.page.assistantSummary())}</h2><p class="summary">${e(session.agentSummary)}</p>` : ''}
<p class="notice">${withSlots(m.page.expiresIn({ time: slot(0) }), [left])}</p>
${options.error ? `<p class="error" role="alert">${e(options.error)}</p>` : ''}
${paymentSection}
<p class="muted">${e(m.page.estimates())}</p>`;
  const script = `<script nonce="${nonce}">(function(){var el=document.getElementById('left');var end=Date.parse(el.dataset.expires);
var fmt=el.dataset.countdown;function tick(){var s=Math.max(0,Math.round((end-Date.now())/1000));if(s>0){el.textContent=fmt.replace('%m',Math.floor(s/60)).replace('%s',s%60);setTimeout(tick,1000);}
else{el.parentElement.textContent=el.dataset.expired;}}tick();})();</script>`;
  const head = options.processing ? refreshMeta(3) : '';
  res
    .status(options.error ? (options.errorStatus ?? 402) : 200)
    .send(page(m.page.title(), body, script + (stripe?.script ?? ''), head));
}

/** How long a checkout link works (libs/quoting opens it for this long). */
const CHECKOUT_LINK_MINUTES = CHECKOUT_LINK_TTL_MS / 60_000;
