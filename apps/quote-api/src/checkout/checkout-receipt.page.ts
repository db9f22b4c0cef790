import type { Response } from 'express';
import { formatMoney } from '@expedition/contracts/rules';
import type { RenderLocale } from '@expedition/i18n';
import { checkoutMessages } from '@expedition/i18n/documents';
import { carrierName, destinationName, tierName } from '@expedition/policy-documents';
import { slot, withSlots } from '../documents/document-page';
import type { CheckoutReceipt, IssuedPolicy } from './checkout-receipt.repository';
import {
  day,
  escapeHtml as e,
  layout,
  NO_BRAND,
  refreshMeta,
  startCheckoutPage,
  type PageBrand,
} from './checkout.page';

/** Seconds between reloads while the policy is being issued (the processor's event usually lands in under one). */
export const ISSUING_REFRESH_SECONDS = 3;

type ShownReceipt = Exclude<CheckoutReceipt, { kind: 'none' }>;

/**
 * What a checkout link shows once money has moved, in the page's language: the policy bought through this link, the
 * policy being issued, or the news that the quote was bought another way and this link charged nothing.
 */
export function renderCheckoutReceipt(
  res: Response,
  receipt: ShownReceipt,
  locale: RenderLocale = 'en',
  brand: PageBrand = NO_BRAND,
): void {
  const nonce = startCheckoutPage(res, '', locale, brand);
  const r = checkoutMessages(locale).receipt;
  switch (receipt.kind) {
    case 'paid_here':
      res
        .status(200)
        .send(
          layout(
            r.policyTitle({ policyNumber: receipt.policy.policyNumber }),
            paidHere(receipt.policy, locale),
            nonce,
            '',
            '',
            locale,
            brand,
          ),
        );
      return;
    case 'issuing':
      res
        .status(200)
        .send(
          layout(
            r.issuingTitle(),
            issuing(receipt.quoteNumber, locale),
            nonce,
            '',
            refreshMeta(ISSUING_REFRESH_SECONDS),
            locale,
            brand,
          ),
        );
      return;
    case 'bought_elsewhere':
      res.status(200).send(layout(r.elsewhereTitle(), boughtElsewhere(receipt, locale), nonce, '', '', locale, brand));
      return;
  }
}

function paidHere(p: IssuedPolicy, locale: RenderLocale): string {
  const m = checkoutMessages(locale);
  const r = m.receipt;
  const travelers = p.guestNames.length ? p.guestNames.join(', ') : m.values.travelerCount({ count: p.travelers });
  const who = p.travelerAges.length
    ? m.values.travelersWithAges({ travelers, ages: p.travelerAges.join(', ') })
    : travelers;
  const dates = p.durationDays
    ? withSlots(m.values.datesWithDays({ start: slot(0), end: slot(1), days: p.durationDays }), [
        day(p.startDate, locale),
        day(p.endDate, locale),
      ])
    : withSlots(m.values.dates({ start: slot(0), end: slot(1) }), [day(p.startDate, locale), day(p.endDate, locale)]);
  const address = [`<strong>${e(p.email ?? '')}</strong>`];
  const emailed = p.email
    ? p.mailStatus === 'sent'
      ? withSlots(r.mailSent({ email: slot(0) }), address)
      : withSlots(r.mailPending({ email: slot(0) }), address)
    : e(r.noMail());
  const testMode = p.mode === 'test' ? `<p class="notice">${e(r.testMode())}</p>` : '';
  return `
<h1 class="success">${withSlots(r.paidHeading({ policyNumber: slot(0) }), [`<span id="policy-number" class="nowrap">${e(p.policyNumber)}</span>`])}</h1>
<p class="muted">${e(m.page.quoteReference({ quoteNumber: p.quoteNumber }))}</p>
${testMode || `<p>${e(r.covered())}</p>`}
<dl>
<dt>${e(m.labels.policyNumber())}</dt><dd><strong>${e(p.policyNumber)}</strong></dd>
<dt>${e(m.labels.plan())}</dt><dd>${e(p.planName)} <span class="muted">(${e(p.planBrand)}, ${e(tierName(p.planTier, locale))})</span></dd>
<dt>${e(m.labels.carrier())}</dt><dd id="carrier">${e(carrierName(p.planCarrier, locale))}</dd>
<dt>${e(p.mode === 'test' ? m.labels.premium() : m.labels.premiumPaid())}</dt><dd class="premium">${e(formatMoney(p.premiumCents, p.currency, locale))}</dd>
<dt>${e(m.labels.destination())}</dt><dd>${e(destinationName(p.destinationSlug, locale))}</dd>
<dt>${e(m.labels.dates())}</dt><dd>${dates}</dd>
<dt>${e(m.labels.travelers())}</dt><dd>${e(who)}</dd>
</dl>
<p>${withSlots(r.openPolicyPage({ link: slot(0) }), [`<a id="policy-page" href="${e(p.pageUrl)}">${e(r.policyPageLink())}</a>`])}</p>
<p><a id="certificate" class="button" href="${e(p.documentUrl)}" target="_blank" rel="noopener noreferrer">${e(r.downloadCertificate())}</a></p>
<p class="muted">${e(r.keepPrivate())}</p>
<h2>${e(r.whatNext())}</h2>
<ul>
<li>${emailed}</li>
<li>${withSlots(r.coverStarts({ date: slot(0) }), [day(p.startDate, locale)])}</li>
<li>${withSlots(r.keepNumbers({ quoteNumber: slot(0) }), [`<strong>${e(p.quoteNumber)}</strong>`])}</li>
</ul>
<p class="muted">${e(r.nothingMore())}</p>`;
}

function issuing(quoteNumber: string, locale: RenderLocale): string {
  const m = checkoutMessages(locale);
  return `
<h1 class="success">${e(m.receipt.issuingHeading())}</h1>
<p class="muted">${e(m.page.quoteReference({ quoteNumber }))}</p>
<p>${e(m.receipt.issuingBody())}</p>
<p class="muted">${e(m.receipt.doNotPayAgain())}</p>`;
}

function boughtElsewhere(b: Extract<CheckoutReceipt, { kind: 'bought_elsewhere' }>, locale: RenderLocale): string {
  const m = checkoutMessages(locale);
  const r = m.receipt;
  const policy = b.policyNumber ? [`<strong class="nowrap">${e(b.policyNumber)}</strong>`] : [];
  const what = !b.policyNumber
    ? e(r.boughtElsewhere())
    : b.planName
      ? withSlots(r.boughtElsewhereAsPlan({ policyNumber: slot(0), planName: b.planName }), policy)
      : withSlots(r.boughtElsewhereAs({ policyNumber: slot(0) }), policy);
  const charge = b.chargedHere ? e(r.refunded()) : `<strong>${e(r.nothingCharged())}</strong>`;
  return `
<h1>${e(r.elsewhereHeading())}</h1>
<p class="muted">${e(m.page.quoteReference({ quoteNumber: b.quoteNumber }))}</p>
<p>${what}</p>
<p>${charge}</p>
<p class="muted">${e(r.elsewhereMail())}</p>`;
}
