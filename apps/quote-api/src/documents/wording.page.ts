import type { Locale } from '@expedition/i18n';
import { documentsMessages } from '@expedition/i18n/documents';
import type { PolicyWording } from '@expedition/policy-documents';
import { ASSISTANCE, WORDING_EDITION, formatDay, satellitePhoneNote } from '@expedition/policy-documents';
import { documentPage, escapeHtml as e, languageSwitch, slot, withSlots } from './document-page';

const items = (list: readonly string[]) => list.map((item) => `<li>${e(item)}</li>`).join('');

/**
 * A plan's policy wording as an HTML page in the wording's language, with a language switch (`?locale=`): the same
 * content as its PDF. Public: no personal data, no token.
 */
export function renderWordingPage(wording: PolicyWording, urls: { html: string; pdf: string }): string {
  const m = documentsMessages(wording.locale);
  const w = m.wording;
  const rows = wording.benefits
    .map((b) => `<tr><td>${e(b.benefit)}</td><td class="limit">${e(b.limit)}</td><td>${e(b.notes)}</td></tr>`)
    .join('');
  const tel = ASSISTANCE.emergencyLine;
  const body = `${languageSwitch(wording.locale, (l: Locale) => `${urls.html}?locale=${l}`)}
<h1>${e(wording.title)}</h1>
<p class="muted">${e(w.underwrittenBy({ carrier: wording.carrier }))} · ${e(w.edition({ date: formatDay(WORDING_EDITION, wording.locale) }))}</p>
<p class="note">${e(wording.illustrativeNote)}</p>
${wording.notOnSale ? `<p><strong>${e(wording.notOnSale)}</strong></p>` : ''}
<p>${e(wording.summary)}</p>
<p><a href="${e(`${urls.pdf}?locale=${wording.locale}`)}">${e(w.downloadPdf())}</a></p>
<h2>${e(w.benefitsAndLimits())}</h2>
<table><thead><tr><th scope="col">${e(w.benefit())}</th><th scope="col">${e(w.limit())}</th><th scope="col">${e(w.whatItCovers())}</th></tr></thead><tbody>${rows}</tbody></table>
<p>${withSlots(m.common.labelValue({ label: slot(0), value: slot(1) }), [`<strong>${e(w.coveredCancellationReasons())}</strong>`, e(wording.coveredCancellationReasons)])}</p>
<h2>${e(w.whoIsCovered())}</h2><ul>${items(wording.eligibility)}</ul>
<h2>${e(w.mainExclusions())}</h2><p>${e(w.doesNotPayFor())}</p><ul>${items(wording.exclusions)}</ul>
<h2>${e(m.sections.inAnEmergency())}</h2>
<div class="emergency"><p>${withSlots(m.assistance.callAnyHour({ provider: ASSISTANCE.provider, phone: slot(0) }), [`<a class="phone" href="tel:${e(tel.e164)}">${e(tel.display)}</a>`])}</p><p>${e(satellitePhoneNote(wording.locale))}</p></div>
<h2>${e(m.sections.howToClaim())}</h2><ol>${items(wording.howToClaim)}</ol>
<h2>${e(m.sections.cancellingYourPolicy())}</h2><p>${e(wording.cancellation)}</p>
<p class="muted">${e(wording.contactsNote)}</p>`;
  return documentPage(wording.title, body, { lang: wording.locale });
}
