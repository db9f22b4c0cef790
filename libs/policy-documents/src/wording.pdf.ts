import { CATALOG_VERSION } from '@expedition/domain-pricing';
import { documentsMessages } from '@expedition/i18n/documents';
import { createPdf, list, paragraph, pdfSafe, row, section } from './pdf';
import type { PolicyWording } from './wording';

/** The date the catalog was last changed: the wording's edition, and its PDF's dates (same catalog → same bytes). */
export const WORDING_EDITION = CATALOG_VERSION;

/** A plan's policy wording as PDF bytes, in the wording's language, from the same content as the HTML page. */
export function renderWordingPdf(wording: PolicyWording, urls: { html: string }): Promise<Buffer> {
  const m = documentsMessages(wording.locale);
  const { doc, done } = createPdf({
    title: wording.title,
    subject: m.wording.subject(),
    date: new Date(`${WORDING_EDITION}T00:00:00Z`),
    lang: wording.locale,
  });
  doc.font('Helvetica-Bold').fontSize(18).fillColor('#111111').text(pdfSafe(wording.title));
  doc
    .font('Helvetica')
    .fontSize(10)
    .fillColor('#555555')
    .text(pdfSafe(m.wording.underwrittenBy({ carrier: wording.carrier })));
  doc.moveDown(0.5);
  paragraph(doc, wording.illustrativeNote, { size: 9, color: '#555555' });
  if (wording.notOnSale) paragraph(doc, wording.notOnSale, { bold: true });
  paragraph(doc, wording.summary);

  section(doc, m.wording.benefitsAndLimits());
  for (const b of wording.benefits) row(doc, b.benefit, `${b.limit}. ${b.notes}`);
  row(doc, m.wording.coveredCancellationReasons(), wording.coveredCancellationReasons);

  section(doc, m.wording.whoIsCovered());
  list(doc, wording.eligibility);

  section(doc, m.wording.mainExclusions(), 120);
  paragraph(doc, m.wording.doesNotPayFor());
  list(doc, wording.exclusions);

  section(doc, m.sections.inAnEmergency());
  list(doc, wording.emergency);

  section(doc, m.sections.howToClaim(), 120);
  list(doc, wording.howToClaim, true);

  section(doc, m.sections.cancellingYourPolicy());
  paragraph(doc, wording.cancellation);

  doc.moveDown(0.5);
  paragraph(doc, `${wording.contactsNote} ${m.wording.alsoPublishedAt({ url: urls.html })}`, {
    size: 9,
    color: '#555555',
  });
  doc.end();
  return done;
}
