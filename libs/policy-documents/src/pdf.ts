import PDFDocument from 'pdfkit';
import type { RenderLocale } from '@expedition/i18n';
import { documentsMessages } from '@expedition/i18n/documents';

/** Printed in large type on every page of a test (sandbox) certificate (English; `specimenMark(locale)` translates). */
export const SPECIMEN_MARK = documentsMessages('en').common.specimenMark();
export const specimenMark = (locale: RenderLocale) => documentsMessages(locale).common.specimenMark();

/**
 * Text as the built-in Helvetica can print it (WinAnsi): Intl writes French numbers with a narrow no-break space
 * (U+202F), which WinAnsi lacks; a no-break space looks the same. Every string goes through here before pdfkit.
 */
export const pdfSafe = (text: string) => text.replace(/[\u202f\u2009]/g, '\u00a0');

export type Doc = InstanceType<typeof PDFDocument>;

const AUTHOR = 'Expedition Travel Insurance';

/**
 * A new A4 document (pdfkit, its built-in Helvetica: nothing to embed) and the promise of its bytes. `date` is the
 * document's creation date: callers pass a date from their data, never the clock, so the same input always gives the
 * same bytes (testable, cacheable).
 */
export function createPdf(info: { title: string; subject: string; date: Date; lang?: string }): {
  doc: Doc;
  done: Promise<Buffer>;
} {
  const doc = new PDFDocument({
    size: 'A4',
    margin: 56,
    // The document's language (PDF /Lang): screen readers and search read it in the right language.
    lang: info.lang ?? 'en',
    info: {
      Title: info.title,
      Author: AUTHOR,
      Subject: info.subject,
      Producer: AUTHOR,
      Creator: 'quote-api',
      CreationDate: info.date,
      ModDate: info.date,
    },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  return { doc, done };
}

export const contentWidth = (doc: Doc) => doc.page.width - doc.page.margins.left - doc.page.margins.right;

/** The red SPECIMEN band at the top of the page. */
export function specimenBanner(doc: Doc, mark = SPECIMEN_MARK): void {
  const { left } = doc.page.margins;
  const top = doc.y;
  doc.rect(left, top, contentWidth(doc), 30).fill('#b00020');
  doc
    .font('Helvetica-Bold')
    .fontSize(14)
    .fillColor('#ffffff')
    .text(pdfSafe(mark), left, top + 9, { align: 'center', width: contentWidth(doc) });
  doc.x = left;
  doc.y = top + 44;
}

/** Starts a section; moves to a new page first when fewer than `keep` points are left, so a title is never orphaned. */
export function section(doc: Doc, title: string, keep = 80): void {
  if (doc.y + keep > doc.page.height - doc.page.margins.bottom) doc.addPage();
  else doc.moveDown(0.8);
  doc.font('Helvetica-Bold').fontSize(12).fillColor('#111111').text(pdfSafe(title), doc.page.margins.left);
  doc.moveDown(0.2);
}

/** A label and its value; `url` makes the value a link (for a value that is a URL). */
export function row(doc: Doc, label: string, value: string, url?: string): void {
  const left = doc.page.margins.left;
  if (doc.y + 30 > doc.page.height - doc.page.margins.bottom) doc.addPage();
  const y = doc.y;
  doc.font('Helvetica').fontSize(10).fillColor('#555555').text(pdfSafe(label), left, y, { width: 150 });
  const labelBottom = doc.y;
  doc
    .font('Helvetica')
    .fontSize(10)
    .fillColor(url ? '#0b5cad' : '#111111')
    .text(pdfSafe(value), left + 160, y, {
      width: contentWidth(doc) - 160,
      ...(url ? { link: url, underline: true } : {}),
    });
  doc.x = left;
  doc.y = Math.max(labelBottom, doc.y) + 2;
}

export function paragraph(doc: Doc, text: string, opts: { bold?: boolean; size?: number; color?: string } = {}): void {
  doc
    .font(opts.bold ? 'Helvetica-Bold' : 'Helvetica')
    .fontSize(opts.size ?? 10)
    .fillColor(opts.color ?? '#222222')
    .text(pdfSafe(text), doc.page.margins.left, doc.y, { width: contentWidth(doc) });
  doc.moveDown(0.3);
}

/** A numbered (`ordered`) or bulleted list. */
export function list(doc: Doc, items: readonly string[], ordered = false): void {
  const left = doc.page.margins.left;
  items.forEach((item, i) => {
    const y = doc.y;
    doc
      .font('Helvetica')
      .fontSize(10)
      .fillColor('#222222')
      .text(ordered ? `${i + 1}.` : '•', left, y, { width: 16 });
    doc.text(pdfSafe(item), left + 18, y, { width: contentWidth(doc) - 18 });
    doc.x = left;
    doc.moveDown(0.25);
  });
}
