import { CATALOG_VERSION } from '@expedition/domain-pricing';
import { createPdf, list, paragraph, row, section } from './pdf';
import type { PolicyWording } from './wording';

/** The date the catalog was last changed: the wording's edition, and its PDF's dates (same catalog → same bytes). */
export const WORDING_EDITION = CATALOG_VERSION;

/** A plan's policy wording as PDF bytes, from the same content as the HTML page. */
export function renderWordingPdf(wording: PolicyWording, urls: { html: string }): Promise<Buffer> {
  const { doc, done } = createPdf({ title: wording.title, subject: 'Policy wording', date: new Date(`${WORDING_EDITION}T00:00:00Z`) });
  doc.font('Helvetica-Bold').fontSize(18).fillColor('#111111').text(wording.title);
  doc.font('Helvetica').fontSize(10).fillColor('#555555').text(`Expedition Travel Insurance · underwritten by ${wording.carrier}`);
  doc.moveDown(0.5);
  paragraph(doc, wording.illustrativeNote, { size: 9, color: '#555555' });
  if (wording.notOnSale) paragraph(doc, wording.notOnSale, { bold: true });
  paragraph(doc, wording.summary);

  section(doc, 'Benefits and limits');
  for (const b of wording.benefits) row(doc, b.benefit, `${b.limit}. ${b.notes}`);
  row(doc, 'Covered cancellation reasons', wording.coveredCancellationReasons);

  section(doc, 'Who and what is covered');
  list(doc, wording.eligibility);

  section(doc, 'Main exclusions', 120);
  paragraph(doc, 'The plan does not pay for:');
  list(doc, wording.exclusions);

  section(doc, 'In an emergency');
  list(doc, wording.emergency);

  section(doc, 'How to claim', 120);
  list(doc, wording.howToClaim, true);

  section(doc, 'Cancelling your policy');
  paragraph(doc, wording.cancellation);

  doc.moveDown(0.5);
  paragraph(doc, `${wording.contactsNote} This wording is also published at ${urls.html}.`, { size: 9, color: '#555555' });
  doc.end();
  return done;
}
