import type { PolicyLookup } from '@expedition/contracts';
import {
  ASSISTANCE,
  CANCELLATION_RULE,
  HOW_TO_CLAIM,
  ILLUSTRATIVE_CONTACTS_NOTE,
  coverDates,
  formatDay,
  formatMinor,
  formatUsd,
  insuredPersons,
} from '@expedition/policy-documents';
import { documentPage, escapeHtml as e } from '../documents/document-page';

const STATUS: Record<string, string> = { issued: 'Issued' };

/**
 * The policy page a traveler opens from the confirmation e-mail or receipt: status, cover, documents, emergency and
 * claims. Its URL carries the access token, so the route serves it with no-store and no-referrer.
 */
export function renderPolicyPage(policy: PolicyLookup): string {
  const { plan, trip } = policy;
  const dates = coverDates(trip);
  const test = policy.mode === 'test';
  const tel = ASSISTANCE.emergencyLine;
  const limits = plan.coverage
    ? `<h2>Limits</h2><dl>
<dt>Emergency medical</dt><dd>${e(formatUsd(plan.coverage.medicalExpenseLimit))} per traveler</dd>
<dt>Evacuation</dt><dd>${e(formatUsd(plan.coverage.evacuationCoverage))} per traveler</dd>
<dt>Trip cancellation</dt><dd>${e(formatUsd(plan.coverage.tripCancellation))} per traveler</dd>
<dt>Deductible</dt><dd>${e(formatUsd(plan.coverage.deductible))} per claim</dd>
<dt>Cancellation reasons</dt><dd>${e(plan.coverage.cancelReason)}</dd></dl>`
    : '';
  const wording = plan.policyTermsUrl
    ? `<li><a href="${e(plan.policyTermsUrl)}">Policy wording<span>Web page: the full terms of ${e(plan.planName)}</span></a></li>
<li><a href="${e(plan.policyTermsUrl)}.pdf">Policy wording (PDF)<span>The same terms, to download</span></a></li>`
    : '';
  const body = `${test ? '<p class="specimen">Test policy (specimen): not valid for travel. No money was taken.</p>' : ''}
<h1>Your travel insurance policy</h1>
<p class="muted">Policy number <strong>${e(policy.policyNumber)}</strong> · ${e(plan.planName)}</p>
<p class="status">${e(STATUS[policy.status] ?? policy.status)}: cover from ${e(dates.starts)} to ${e(dates.ends)}</p>
<div class="emergency"><p><strong>In an emergency</strong>, call ${e(ASSISTANCE.provider)}, 24 hours a day:</p>
<p><a class="phone" href="tel:${e(tel.e164)}">${e(tel.display)}</a></p><p>${e(ASSISTANCE.satellitePhoneNote)}</p></div>
<h2>Your documents</h2>
<ul class="docs">
<li><a href="${e(policy.documentUrl)}">Certificate of insurance (PDF)<span>Your proof of cover: carry it when you travel</span></a></li>
${wording}
</ul>
<h2>Your cover</h2>
<dl>
<dt>Destination</dt><dd>${e(trip.destination)}</dd>
<dt>Cover starts</dt><dd>${e(dates.starts)}</dd>
<dt>Cover ends</dt><dd>${e(dates.ends)}</dd>
<dt>${policy.travelers.count === 1 ? 'Insured person' : 'Insured persons'}</dt><dd>${insuredPersons(policy.travelers).map(e).join('<br>')}</dd>
<dt>Plan</dt><dd>${e(plan.planName)}</dd>
${plan.carrier ? `<dt>Carrier</dt><dd>${e(plan.carrier)}: invented for this platform, no real insurer</dd>` : ''}
<dt>${test ? 'Premium' : 'Premium paid'}</dt><dd>${e(formatMinor(policy.premiumCents, policy.currency))}</dd>
<dt>Issued</dt><dd>${e(formatDay(policy.issuedAt))}</dd>
</dl>
${limits}
<h2>How to claim</h2><ol>${HOW_TO_CLAIM.map((step) => `<li>${e(step)}</li>`).join('')}</ol>
<h2>Cancelling your policy</h2><p>${e(CANCELLATION_RULE)}</p>
<p class="note">${e(ILLUSTRATIVE_CONTACTS_NOTE)} Keep this page's link private: it opens your policy.</p>`;
  return documentPage(`Policy ${policy.policyNumber}`, body, { noindex: true });
}

/** The one page for an unknown number, a wrong token and no token: it tells nobody which policies exist. */
export function renderPolicyNotFoundPage(): string {
  return documentPage(
    'Policy not found',
    `<h1>We could not open this policy</h1>
<p>The link may be incomplete. Open it again from your confirmation e-mail or receipt, and make sure the whole link was copied, including the part after <span class="nowrap">“?access_token=”</span>.</p>
<p>In an emergency, call ${e(ASSISTANCE.provider)} on <a class="phone" href="tel:${e(ASSISTANCE.emergencyLine.e164)}">${e(ASSISTANCE.emergencyLine.display)}</a> and give your policy number.</p>
<p class="muted">${e(ILLUSTRATIVE_CONTACTS_NOTE)}</p>`,
    { noindex: true },
  );
}
