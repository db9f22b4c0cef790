/**
 * The demo operator's trip page (HTML only; behaviour in public/demo.js, styles in public/demo.css). Everything the
 * script needs is in ONE non-executable JSON block (`#demo-config`), so the page runs under a strict CSP.
 */
import { daysBetween, formatMoney } from '@expedition/contracts/rules';

export type DemoTier = 1 | 2 | 3;

export interface DemoTrip {
  name: string;
  destination: string;
  startDate: string;
  endDate: string;
  pricePerPersonUsd: number;
  travelers: number;
  travelerAges: number[];
  residence: string;
  email: string;
}

export interface DemoPageInput {
  tier: DemoTier;
  trip: DemoTrip;
  widgetUrl: string;
  publishableKey: string;
  operatorName: string;
  favicon: string;
  /** The widget's language (MountConfig.locale), from the demo page's `?locale=`; absent: the visitor's browser decides. */
  locale?: string;
}

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const json = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');
const usd = (dollars: number) => formatMoney(dollars * 100, 'USD', 'en-US', { trimZeroCents: true });
const day = (iso: string) =>
  new Intl.DateTimeFormat('en-GB', {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(`${iso}T00:00:00Z`));

/** Day 1 is the departure date, Day 12 the return date: 11 nights (demoTrip's dates). */
const ITINERARY: [string, string][] = [
  ['Day 1', 'Ushuaia, Argentina: embark in the afternoon and sail the Beagle Channel.'],
  ['Days 2–3', 'The Drake Passage: lectures on wildlife, ice and polar history; watch for albatrosses.'],
  ['Days 4–8', 'The Antarctic Peninsula: Zodiac landings, gentoo colonies, Paradise Harbour and the Lemaire Channel.'],
  ['Day 9', 'South Shetland Islands: Deception Island\u2019s flooded caldera, weather permitting.'],
  ['Days 10–11', 'The Drake Passage northbound.'],
  ['Day 12', 'Ushuaia: disembark after breakfast.'],
];

const TIERS: [DemoTier, string][] = [
  [3, 'Tier 3: checkout inside the widget'],
  [2, 'Tier 2: checkout in a new tab'],
  [1, 'Tier 1: link to the hosted quote page'],
];

/** The Tier 1 link: our hosted quote page, attributed by the key, prefilled from the trip. */
export function hostedQuoteUrl(widgetUrl: string, publishableKey: string, trip: DemoTrip): string {
  const query = new URLSearchParams({
    pk: publishableKey,
    destination: trip.destination,
    startDate: trip.startDate,
    endDate: trip.endDate,
    travelers: String(trip.travelers),
    tripCost: String(trip.pricePerPersonUsd * trip.travelers),
    residence: trip.residence,
  });
  return `${widgetUrl}/quote?${query}`;
}

export function demoPage(input: DemoPageInput): string {
  const { tier, trip, widgetUrl, publishableKey, operatorName } = input;
  const tripCost = trip.pricePerPersonUsd * trip.travelers;
  const config = {
    tier,
    ...(input.locale ? { locale: input.locale } : {}),
    widgetUrl,
    publishableKey,
    prefill: {
      destination: trip.destination,
      startDate: trip.startDate,
      endDate: trip.endDate,
      travelers: trip.travelers,
      travelerAges: trip.travelerAges,
      tripCost,
      residence: trip.residence,
      email: trip.email,
      currency: 'USD',
    },
  };
  const nav = TIERS.map(
    ([t, label]) => `<a href="/?tier=${t}"${t === tier ? ' aria-current="page"' : ''}>${escape(label)}</a>`,
  ).join('');
  const protect =
    tier === 1
      ? `<p>Our insurance partner's quote page opens with this voyage filled in: compare plans and buy there, in a few minutes.</p>
<p><a class="button" id="hosted-quote" href="${escape(hostedQuoteUrl(widgetUrl, publishableKey, trip))}">Get a travel insurance quote</a></p>
<p class="note">Tier 1 is a plain link (no script on this page): the hosted page has no in-page events, and the verified <code>policy.issued</code> webhook still lands in the back office below.</p>`
      : `<div id="svc-widget" class="widget-slot"><p class="note" id="widget-status">Loading the insurance quote…</p></div>`;

  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escape(trip.name)} — ${escape(operatorName)}</title>
<link rel="icon" type="image/svg+xml" href="data:image/svg+xml,${encodeURIComponent(input.favicon)}">
<link rel="stylesheet" href="/assets/demo.css">
<script type="application/json" id="demo-config">${json(config)}</script>
${tier === 1 ? '' : `<script src="${escape(widgetUrl)}/widget.js"></script>`}
<script src="/assets/demo.js" defer></script>
</head>
<body>
<header class="site">
  <div class="brand"><img src="data:image/svg+xml,${encodeURIComponent(input.favicon)}" alt="" width="32" height="32"><span>${escape(operatorName)}</span></div>
  <nav aria-label="Integration tier (demo)">${nav}</nav>
</header>
<main>
  <section class="hero" aria-labelledby="trip-title">
    <p class="eyebrow">Expedition cruise · Antarctica</p>
    <h1 id="trip-title">${escape(trip.name)}</h1>
    <p class="lede">${daysBetween(trip.startDate, trip.endDate)} nights aboard the ice-class MV <em>Polar Horizon</em>, 114 guests, round trip from Ushuaia.</p>
    <dl class="facts">
      <div><dt>Departs</dt><dd>${day(trip.startDate)}</dd></div>
      <div><dt>Returns</dt><dd>${day(trip.endDate)}</dd></div>
      <div><dt>Fare</dt><dd>from ${usd(trip.pricePerPersonUsd)} per person</dd></div>
      <div><dt>Your booking</dt><dd>${trip.travelers} travelers (ages ${trip.travelerAges.join(' and ')}), ${usd(tripCost)}</dd></div>
    </dl>
  </section>
  <div class="columns">
    <section aria-labelledby="itinerary-title">
      <h2 id="itinerary-title">Itinerary</h2>
      <ol class="itinerary">${ITINERARY.map(([when, what]) => `<li><strong>${when}</strong> ${escape(what)}</li>`).join('')}</ol>
      <p class="note">Polar voyages depend on ice and weather; the expedition leader adapts the route every day. A medical evacuation from Antarctica can cost more than US$100,000.</p>
    </section>
    <section class="protect" aria-labelledby="protect-title">
      <h2 id="protect-title">Travel insurance</h2>
      <p class="note">Required to board: medical evacuation cover of at least US$100,000. Protect your trip in two minutes, from our partner.</p>
      ${protect}
    </section>
  </div>
  <div class="backoffice">
    <section aria-labelledby="events-title">
      <h2 id="events-title">Widget events, live</h2>
      <p class="note">What <code>SvcWidget.on(…)</code> hands this page, newest first.</p>
      <div role="log" aria-live="polite" aria-labelledby="events-title"><ol id="events" class="log" tabindex="0" aria-labelledby="events-title"><li class="empty">None yet.</li></ol></div>
    </section>
    <section aria-labelledby="webhooks-title">
      <h2 id="webhooks-title">Back office: policy.issued webhooks</h2>
      <p class="note">Each delivery is verified (<code>X-SVC-Signature</code> over the raw body) and deduplicated on <code>eventId</code>.</p>
      <div id="webhooks" class="log"><p class="empty">None yet.</p></div>
    </section>
  </div>
</main>
<footer><p>A demo tour operator site of the expedition insurance platform, in test mode: no real money moves. Test card 4242 4242 4242 4242 pays; 4000 0000 0000 0002 is declined.</p></footer>
</body>
</html>`;
}
