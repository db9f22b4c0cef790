import type { PolicyLookup } from '@expedition/contracts';
import { formatMoney } from '@expedition/contracts/rules';
import type { Locale, RenderLocale } from '@expedition/i18n';
import { documentsMessages } from '@expedition/i18n/documents';
import {
  ASSISTANCE,
  cancelReasonText,
  cancellationRule,
  carrierName,
  coverageLimitText,
  coverDates,
  destinationName,
  formatDay,
  howToClaim,
  illustrativeContactsNote,
  insuredPersons,
  satellitePhoneNote,
} from '@expedition/policy-documents';
import { documentPage, escapeHtml as e, languageSwitch, slot, withSlots } from '../documents/document-page';

/** `url` with `locale` set (replacing one it has): the links of a page in one language open the others in it. */
function withLocale(url: string, locale: RenderLocale): string {
  const u = new URL(url);
  u.searchParams.set('locale', locale);
  return u.toString();
}

const phoneLink = () =>
  `<a class="phone" href="tel:${e(ASSISTANCE.emergencyLine.e164)}">${e(ASSISTANCE.emergencyLine.display)}</a>`;

/**
 * The policy page a traveler opens from the confirmation e-mail or receipt: status, cover, documents, emergency and
 * claims, in `locale` (the quote's language unless the page was asked for another), with a language switch. Its URL
 * carries the access token, so the route serves it with no-store and no-referrer.
 */
export function renderPolicyPage(policy: PolicyLookup, locale: RenderLocale): string {
  const m = documentsMessages(locale);
  const { labels: l, policyPage: p } = m;
  const { plan, trip } = policy;
  const dates = coverDates(trip, locale);
  const test = policy.mode === 'test';
  const usd = (n: number) => coverageLimitText(n, locale);
  const limits = plan.coverage
    ? `<h2>${e(p.limits())}</h2><dl>
<dt>${e(l.emergencyMedical())}</dt><dd>${e(m.common.perTraveler({ amount: usd(plan.coverage.medicalExpenseLimit) }))}</dd>
<dt>${e(l.evacuation())}</dt><dd>${e(m.common.perTraveler({ amount: usd(plan.coverage.evacuationCoverage) }))}</dd>
<dt>${e(l.tripCancellation())}</dt><dd>${e(m.common.perTraveler({ amount: usd(plan.coverage.tripCancellation) }))}</dd>
<dt>${e(l.deductible())}</dt><dd>${e(m.common.perClaim({ amount: usd(plan.coverage.deductible) }))}</dd>
<dt>${e(l.cancellationReasons())}</dt><dd>${e(cancelReasonText(plan.coverage.cancelReason, locale))}</dd></dl>`
    : '';
  const wording = plan.policyTermsUrl
    ? `<li><a href="${e(withLocale(plan.policyTermsUrl, locale))}">${e(p.wordingLink())}<span>${e(p.wordingHint({ planName: plan.planName }))}</span></a></li>
<li><a href="${e(withLocale(`${plan.policyTermsUrl}.pdf`, locale))}">${e(p.wordingPdfLink())}<span>${e(p.wordingPdfHint())}</span></a></li>`
    : '';
  const status = policy.status === 'issued' ? p.statusIssued({ start: dates.starts, end: dates.ends }) : policy.status;
  const pageUrl = policy.pageUrl;
  const body = `${pageUrl ? languageSwitch(locale, (other: Locale) => withLocale(pageUrl, other)) : ''}
${test ? `<p class="specimen">${e(p.specimen())}</p>` : ''}
<h1>${e(p.heading())}</h1>
<p class="muted">${e(l.policyNumber())} <strong>${e(policy.policyNumber)}</strong> · ${e(plan.planName)}</p>
<p class="status">${e(status)}</p>
<div class="emergency"><p><strong>${e(p.emergencyCall({ provider: ASSISTANCE.provider }))}</strong></p>
<p>${phoneLink()}</p><p>${e(satellitePhoneNote(locale))}</p></div>
<h2>${e(p.yourDocuments())}</h2>
<ul class="docs">
<li><a href="${e(withLocale(policy.documentUrl, locale))}">${e(p.certificateLink())}<span>${e(p.certificateHint())}</span></a></li>
${wording}
</ul>
<h2>${e(p.yourCover())}</h2>
<dl>
<dt>${e(l.destination())}</dt><dd>${e(destinationName(trip.destinationSlug, locale))}</dd>
<dt>${e(l.coverStarts())}</dt><dd>${e(dates.starts)}</dd>
<dt>${e(l.coverEnds())}</dt><dd>${e(dates.ends)}</dd>
<dt>${e(l.insuredPersons({ count: policy.travelers.count }))}</dt><dd>${insuredPersons(policy.travelers, locale).map(e).join('<br>')}</dd>
<dt>${e(l.plan())}</dt><dd>${e(plan.planName)}</dd>
${plan.carrier ? `<dt>${e(l.carrier())}</dt><dd>${e(m.common.inventedCarrier({ carrier: carrierName(plan.carrier, locale) }))}</dd>` : ''}
<dt>${e(test ? l.premium() : l.premiumPaid())}</dt><dd>${e(formatMoney(policy.premiumCents, policy.currency, locale, { code: true }))}</dd>
<dt>${e(l.issued())}</dt><dd>${e(formatDay(policy.issuedAt, locale))}</dd>
</dl>
${limits}
<h2>${e(m.sections.howToClaim())}</h2><ol>${howToClaim(locale)
    .map((step) => `<li>${e(step)}</li>`)
    .join('')}</ol>
<h2>${e(m.sections.cancellingYourPolicy())}</h2><p>${e(cancellationRule(locale))}</p>
<p class="note">${e(illustrativeContactsNote(locale))} ${e(p.keepPrivate())}</p>`;
  return documentPage(p.title({ policyNumber: policy.policyNumber }), body, { noindex: true, lang: locale });
}

/**
 * The one page for an unknown number, a wrong token and no token: it tells nobody which policies exist. In the
 * language asked for (`?locale=`, else Accept-Language): we do not know the policy's.
 */
export function renderPolicyNotFoundPage(locale: RenderLocale): string {
  const p = documentsMessages(locale).policyPage;
  return documentPage(
    p.notFoundTitle(),
    `<h1>${e(p.notFoundHeading())}</h1>
<p>${e(p.notFoundHelp({ parameter: '?access_token=' }))}</p>
<p>${withSlots(p.notFoundEmergency({ provider: ASSISTANCE.provider, phone: slot(0) }), [phoneLink()])}</p>
<p class="muted">${e(illustrativeContactsNote(locale))}</p>`,
    { noindex: true, lang: locale },
  );
}
