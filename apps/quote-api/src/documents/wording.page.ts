import type { PolicyWording } from '@expedition/policy-documents';
import { ASSISTANCE, WORDING_EDITION, formatDay } from '@expedition/policy-documents';
import { documentPage, escapeHtml as e } from './document-page';

const items = (list: readonly string[]) => list.map((item) => `<li>${e(item)}</li>`).join('');

/** A plan's policy wording as an HTML page: the same content as its PDF. Public: no personal data, no token. */
export function renderWordingPage(wording: PolicyWording, urls: { pdf: string }): string {
  const rows = wording.benefits
    .map((b) => `<tr><td>${e(b.benefit)}</td><td class="limit">${e(b.limit)}</td><td>${e(b.notes)}</td></tr>`)
    .join('');
  const tel = ASSISTANCE.emergencyLine;
  const body = `<h1>${e(wording.title)}</h1>
<p class="muted">Expedition Travel Insurance · underwritten by ${e(wording.carrier)} · edition of ${e(formatDay(WORDING_EDITION))}</p>
<p class="note">${e(wording.illustrativeNote)}</p>
${wording.notOnSale ? `<p><strong>${e(wording.notOnSale)}</strong></p>` : ''}
<p>${e(wording.summary)}</p>
<p><a href="${e(urls.pdf)}">Download this policy wording (PDF)</a></p>
<h2>Benefits and limits</h2>
<table><thead><tr><th scope="col">Benefit</th><th scope="col">Limit</th><th scope="col">What it covers</th></tr></thead><tbody>${rows}</tbody></table>
<p><strong>Covered cancellation reasons:</strong> ${e(wording.coveredCancellationReasons)}</p>
<h2>Who and what is covered</h2><ul>${items(wording.eligibility)}</ul>
<h2>Main exclusions</h2><p>The plan does not pay for:</p><ul>${items(wording.exclusions)}</ul>
<h2>In an emergency</h2>
<div class="emergency"><p>${e(ASSISTANCE.provider)}, 24 hours a day: <a class="phone" href="tel:${e(tel.e164)}">${e(tel.display)}</a></p><p>${e(ASSISTANCE.satellitePhoneNote)}</p></div>
<h2>How to claim</h2><ol>${items(wording.howToClaim)}</ol>
<h2>Cancelling your policy</h2><p>${e(wording.cancellation)}</p>
<p class="muted">${e(wording.contactsNote)}</p>`;
  return documentPage(wording.title, body);
}
