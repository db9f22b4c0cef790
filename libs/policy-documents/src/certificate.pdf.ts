import type { PolicyLookup } from '@expedition/contracts';
import { ASSISTANCE, CANCELLATION_RULE, HOW_TO_CLAIM, ILLUSTRATIVE_CONTACTS_NOTE } from './assistance';
import { formatDay, formatMinor, formatUsd } from './format';
import { createPdf, list, paragraph, row, section, specimenBanner, SPECIMEN_MARK, contentWidth } from './pdf';

export { SPECIMEN_MARK } from './pdf';

/** "Ada Lovelace, age 40" per insured person; "Traveler 2, age 72" when the checkout did not collect names. */
export function insuredPersons(travelers: PolicyLookup['travelers']): string[] {
  return Array.from({ length: travelers.count }, (_, i) => {
    const name = travelers.names?.[i]?.trim() || `Traveler ${i + 1}`;
    const age = travelers.ages[i];
    return age === undefined ? name : `${name}, age ${age}`;
  });
}

/** When cover starts and ends, in words for people. */
export function coverDates(trip: PolicyLookup['trip']): { starts: string; ends: string } {
  return {
    starts: trip.startDate ? formatDay(trip.startDate) : 'On departure',
    ends: trip.endDate ? formatDay(trip.endDate) : trip.durationDays ? `${trip.durationDays} days after departure` : 'At the end of the trip',
  };
}

const STATUS: Record<string, string> = { issued: 'Issued: in force for the cover dates below' };

/**
 * The certificate of insurance of one policy, as PDF bytes: the policyholder's legal document (no agent
 * disclaimer). Deterministic: its dates come from `issuedAt`, never from the clock, so the same policy always gives
 * the same bytes. A test policy carries the SPECIMEN mark at the top of every page and at the end.
 */
export function renderCertificate(policy: PolicyLookup): Promise<Buffer> {
  const { doc, done } = createPdf({
    title: `Certificate of insurance ${policy.policyNumber}`,
    subject: `${policy.plan.planName}, ${policy.trip.destination}`,
    date: new Date(policy.issuedAt),
  });
  const test = policy.mode === 'test';
  if (test) {
    specimenBanner(doc);
    doc.on('pageAdded', () => specimenBanner(doc));
  }
  doc.font('Helvetica-Bold').fontSize(20).fillColor('#111111').text('Certificate of Insurance');
  doc.font('Helvetica').fontSize(10).fillColor('#555555').text('Expedition Travel Insurance');

  section(doc, 'Policy');
  row(doc, 'Policy number', policy.policyNumber);
  row(doc, 'Status', STATUS[policy.status] ?? policy.status);
  row(doc, 'Issued', formatDay(policy.issuedAt));
  row(doc, 'Premium paid', formatMinor(policy.premiumCents, policy.currency));
  row(doc, 'Quote number', policy.quoteNumber);

  section(doc, 'Insured travelers');
  row(doc, policy.travelers.count === 1 ? 'Insured person' : 'Insured persons', insuredPersons(policy.travelers).join('\n'));
  doc.font('Helvetica').fontSize(9).fillColor('#555555').text('Ages are ages at departure.', doc.page.margins.left);

  section(doc, 'Cover');
  const dates = coverDates(policy.trip);
  row(doc, 'Destination', policy.trip.destination);
  row(doc, 'Cover starts', dates.starts);
  row(doc, 'Cover ends', dates.ends);
  if (policy.trip.durationDays) row(doc, 'Trip length', `${policy.trip.durationDays} days`);

  section(doc, 'Plan and limits');
  const { plan } = policy;
  row(doc, 'Plan', plan.planName);
  if (plan.carrier) row(doc, 'Carrier', `${plan.carrier}: invented for this platform, no real insurer underwrites this plan.`);
  if (plan.coverage) {
    row(doc, 'Emergency medical', `${formatUsd(plan.coverage.medicalExpenseLimit)} per traveler`);
    row(doc, 'Evacuation', `${formatUsd(plan.coverage.evacuationCoverage)} per traveler`);
    row(doc, 'Trip cancellation', `${formatUsd(plan.coverage.tripCancellation)} per traveler`);
    row(doc, 'Deductible', `${formatUsd(plan.coverage.deductible)} per claim`);
    row(doc, 'Cancellation reasons', plan.coverage.cancelReason);
  }

  section(doc, 'In an emergency', 120);
  paragraph(doc, `Call ${ASSISTANCE.provider}, 24 hours a day: ${ASSISTANCE.emergencyLine.display}`, { bold: true, size: 12 });
  paragraph(doc, `${ASSISTANCE.emergencyLine.label}. ${ASSISTANCE.satellitePhoneNote}`);

  section(doc, 'How to claim', 120);
  list(doc, HOW_TO_CLAIM, true);

  section(doc, 'Cancelling this policy');
  paragraph(doc, CANCELLATION_RULE);

  section(doc, 'Policy wording');
  if (plan.policyTermsUrl) {
    paragraph(doc, 'This certificate summarises your policy. The policy wording is the contract: read it at');
    row(doc, 'Web page', plan.policyTermsUrl, plan.policyTermsUrl);
    row(doc, 'PDF', `${plan.policyTermsUrl}.pdf`, `${plan.policyTermsUrl}.pdf`);
  } else {
    paragraph(doc, 'This certificate summarises your policy; the policy wording of your plan is the contract.');
  }
  doc.moveDown(0.5);
  paragraph(doc, `Carry your policy number when you travel: the assistance line asks for it. ${ILLUSTRATIVE_CONTACTS_NOTE}`, {
    size: 9,
    color: '#555555',
  });
  if (test) {
    doc.moveDown(1);
    doc.font('Helvetica-Bold').fontSize(12).fillColor('#b00020').text(SPECIMEN_MARK, doc.page.margins.left, doc.y, { align: 'center', width: contentWidth(doc) });
  }
  doc.end();
  return done;
}
