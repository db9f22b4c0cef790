import type { Response } from 'express';
import type { CheckoutReceipt, IssuedPolicy } from './checkout-receipt.repository';
import { day, escapeHtml, layout, money, refreshMeta, startCheckoutPage } from './checkout.page';

/** Seconds between reloads while the policy is being issued (the processor's event usually lands in under one). */
export const ISSUING_REFRESH_SECONDS = 3;

type ShownReceipt = Exclude<CheckoutReceipt, { kind: 'none' }>;

/**
 * What a checkout link shows once money has moved: the policy bought through this link, the policy being issued, or
 * the news that the quote was bought another way and this link charged nothing.
 */
export function renderCheckoutReceipt(res: Response, receipt: ShownReceipt): void {
  const nonce = startCheckoutPage(res);
  switch (receipt.kind) {
    case 'paid_here':
      res.status(200).send(layout(`Policy ${receipt.policy.policyNumber}`, paidHere(receipt.policy), nonce));
      return;
    case 'issuing':
      res.status(200).send(layout('Issuing your policy', issuing(receipt.quoteNumber), nonce, '', refreshMeta(ISSUING_REFRESH_SECONDS)));
      return;
    case 'bought_elsewhere':
      res.status(200).send(layout('Already insured', boughtElsewhere(receipt), nonce));
      return;
  }
}

function paidHere(p: IssuedPolicy): string {
  const travelers = p.guestNames.length ? p.guestNames.map(escapeHtml).join(', ') : `${p.travelers} traveler${p.travelers === 1 ? '' : 's'}`;
  const ages = p.travelerAges.length ? `; ages ${p.travelerAges.join(', ')}` : '';
  const days = p.durationDays ? ` (${p.durationDays} days)` : '';
  const emailed = p.email
    ? p.mailStatus === 'sent'
      ? `A confirmation e-mail with your certificate attached was sent to <strong>${escapeHtml(p.email)}</strong>; check the names and dates in it.`
      : `A confirmation e-mail with your certificate attached is being sent to <strong>${escapeHtml(p.email)}</strong>; check the names and dates when it arrives.`
    : 'No e-mail is sent for this policy: no address was given. Keep this page&#39;s link: it shows this policy again, and the links above open your policy page and certificate.';
  const testMode = p.mode === 'test'
    ? '<p class="notice">Test mode: no money moved and this policy is not real cover.</p>'
    : '';
  return `
<h1 class="success">Payment received — policy <span id="policy-number" class="nowrap">${escapeHtml(p.policyNumber)}</span></h1>
<p class="muted">Quote ${escapeHtml(p.quoteNumber)}</p>
${testMode || '<p>You are covered. Here is your policy.</p>'}
<dl>
<dt>Policy number</dt><dd><strong>${escapeHtml(p.policyNumber)}</strong></dd>
<dt>Plan</dt><dd>${escapeHtml(p.planName)} <span class="muted">(${escapeHtml(p.planBrand)}, ${escapeHtml(p.planTier)})</span></dd>
<dt>${p.mode === 'test' ? 'Premium' : 'Premium paid'}</dt><dd class="premium">${money(p.premiumCents, p.currency)}</dd>
<dt>Destination</dt><dd>${escapeHtml(p.destinationName)}</dd>
<dt>Dates</dt><dd>${day(p.startDate)} → ${day(p.endDate)}${days}</dd>
<dt>Travelers</dt><dd>${travelers}${ages}</dd>
</dl>
<p><a id="policy-page" href="${escapeHtml(p.pageUrl)}">Open your policy page</a>: your cover, documents, emergency line and how to claim, at any time.</p>
<p><a id="certificate" href="${escapeHtml(p.documentUrl)}" target="_blank" rel="noopener noreferrer">Download your certificate of insurance (PDF)</a></p>
<p class="muted">Keep these links private: they open your policy.</p>
<h2>What happens next</h2>
<ul>
<li>${emailed}</li>
<li>Your cover starts on ${day(p.startDate)}. Carry the policy number with you on the expedition: the assistance line asks for it.</li>
<li>Keep your quote number <strong>${escapeHtml(p.quoteNumber)}</strong> and policy number for any question.</li>
</ul>
<p class="muted">Nothing more to do here. You can close this page; this link will not charge you again.</p>`;
}

function issuing(quoteNumber: string): string {
  return `
<h1 class="success">Payment received — issuing your policy…</h1>
<p class="muted">Quote ${escapeHtml(quoteNumber)}</p>
<p>This usually takes a few seconds. This page refreshes by itself and shows your policy number as soon as it is issued.</p>
<p class="muted">Do not pay again: your payment has been received.</p>`;
}

function boughtElsewhere(r: Extract<CheckoutReceipt, { kind: 'bought_elsewhere' }>): string {
  const what = r.policyNumber
    ? `It was bought through another checkout link or channel: policy <strong class="nowrap">${escapeHtml(r.policyNumber)}</strong>${r.planName ? ` (${escapeHtml(r.planName)})` : ''}.`
    : 'It was bought through another checkout link or channel.';
  const charge = r.chargedHere
    ? 'A payment made on this link was not needed: it is refunded automatically.'
    : '<strong>Nothing was charged on this link.</strong>';
  return `
<h1>This trip is already insured</h1>
<p class="muted">Quote ${escapeHtml(r.quoteNumber)}</p>
<p>${what}</p>
<p>${charge}</p>
<p class="muted">If an e-mail address was given with that purchase, its confirmation e-mail and certificate went there. Nothing more to do here.</p>`;
}
