import PDFDocument from 'pdfkit';
import type { PolicyLookup } from '@expedition/contracts';

/** Printed in large type on every test (sandbox) certificate. */
export const SPECIMEN_MARK = 'SPECIMEN / TEST — NOT VALID FOR TRAVEL';

const usd = (dollars: number) => `$${dollars.toLocaleString('en-US', { minimumFractionDigits: 0, maximumFractionDigits: 2 })}`;
const minor = (cents: number, currency: string) =>
  `${(cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })} ${currency}`;

/**
 * The certificate of insurance of one policy, as PDF bytes (pdfkit, its built-in Helvetica: nothing to embed).
 * Deterministic: the document's dates (and so its file id) come from `issuedAt`, never from the clock, so the same
 * policy always gives the same bytes (testable, cacheable).
 */
export function renderCertificate(policy: PolicyLookup): Promise<Buffer> {
  const issued = new Date(policy.issuedAt);
  const doc = new PDFDocument({
    size: 'A4',
    margin: 56,
    info: {
      Title: `Certificate of insurance ${policy.policyNumber}`,
      Author: 'Expedition Travel Insurance',
      Subject: `${policy.plan.planName}, ${policy.trip.destination}`,
      Producer: 'Expedition Travel Insurance',
      Creator: 'quote-api',
      CreationDate: issued,
      ModDate: issued,
    },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const test = policy.mode === 'test';
  if (test) banner(doc);
  doc.font('Helvetica-Bold').fontSize(20).fillColor('#111111').text('Certificate of Insurance');
  doc.font('Helvetica').fontSize(10).fillColor('#555555').text('Expedition Travel Insurance');
  doc.moveDown(1);

  section(doc, 'Policy');
  row(doc, 'Policy number', policy.policyNumber);
  row(doc, 'Status', policy.status);
  row(doc, 'Quote number', policy.quoteNumber);
  row(doc, 'Issued', `${policy.issuedAt.slice(0, 10)} (${policy.issuedAt})`);
  row(doc, 'Premium paid', minor(policy.premiumCents, policy.currency));

  section(doc, 'Insured travellers');
  const { travelers } = policy;
  row(doc, 'Number of travellers', String(travelers.count));
  row(doc, 'Ages at departure', travelers.ages.join(', ') || '—');
  if (travelers.names?.length) row(doc, 'Names', travelers.names.join(', '));

  section(doc, 'Trip');
  row(doc, 'Destination', policy.trip.destination);
  row(doc, 'Cover starts', policy.trip.startDate ?? 'on departure');
  row(doc, 'Cover ends', policy.trip.endDate ?? '—');
  if (policy.trip.durationDays) row(doc, 'Duration', `${policy.trip.durationDays} days`);

  section(doc, 'Plan and limits');
  const { plan } = policy;
  row(doc, 'Plan', `${plan.planName} (${plan.planId})`);
  if (plan.carrier) row(doc, 'Carrier', plan.carrier);
  if (plan.tier) row(doc, 'Tier', plan.tier);
  if (plan.coverage) {
    row(doc, 'Emergency medical', usd(plan.coverage.medicalExpenseLimit));
    row(doc, 'Evacuation', usd(plan.coverage.evacuationCoverage));
    row(doc, 'Trip cancellation', usd(plan.coverage.tripCancellation));
    row(doc, 'Deductible', usd(plan.coverage.deductible));
    row(doc, 'Cancellation reasons', plan.coverage.cancelReason);
  }
  if (plan.policyTermsUrl) row(doc, 'Policy terms', plan.policyTermsUrl);

  section(doc, 'Important');
  doc.font('Helvetica').fontSize(9).fillColor('#333333').text(policy.disclaimer, { width: contentWidth(doc) });
  doc.moveDown(0.5);
  doc.text(
    'This certificate summarises the policy; the policy wording is the contract. Carry the policy number on your ' +
      'trip: the assistance line asks for it.',
    { width: contentWidth(doc) },
  );
  if (test) {
    doc.moveDown(1);
    doc.font('Helvetica-Bold').fontSize(12).fillColor('#b00020').text(SPECIMEN_MARK, { align: 'center', width: contentWidth(doc) });
  }
  doc.end();
  return done;
}

type Doc = InstanceType<typeof PDFDocument>;

const contentWidth = (doc: Doc) => doc.page.width - doc.page.margins.left - doc.page.margins.right;

function banner(doc: Doc): void {
  const { left } = doc.page.margins;
  const top = doc.y;
  doc.rect(left, top, contentWidth(doc), 30).fill('#b00020');
  doc.font('Helvetica-Bold').fontSize(14).fillColor('#ffffff').text(SPECIMEN_MARK, left, top + 9, { align: 'center', width: contentWidth(doc) });
  doc.x = left;
  doc.y = top + 44;
}

function section(doc: Doc, title: string): void {
  doc.moveDown(0.8);
  doc.font('Helvetica-Bold').fontSize(12).fillColor('#111111').text(title, doc.page.margins.left);
  doc.moveDown(0.2);
}

function row(doc: Doc, label: string, value: string): void {
  const left = doc.page.margins.left;
  const y = doc.y;
  doc.font('Helvetica').fontSize(10).fillColor('#555555').text(label, left, y, { width: 150 });
  const labelBottom = doc.y;
  doc.font('Helvetica').fontSize(10).fillColor('#111111').text(value, left + 160, y, { width: contentWidth(doc) - 160 });
  doc.x = left;
  doc.y = Math.max(labelBottom, doc.y) + 2;
}
