import type { PolicyLookup } from '@expedition/contracts';
import { formatMoney } from '@expedition/contracts/rules';
import { asLocale, type RenderLocale } from '@expedition/i18n';
import { documentsMessages } from '@expedition/i18n/documents';
import {
  ASSISTANCE,
  cancellationRule,
  emergencyLineLabel,
  howToClaim,
  illustrativeContactsNote,
  satellitePhoneNote,
} from './assistance';
import { cancelReasonText, carrierName, destinationName } from './catalog-texts';
import { coverageLimitText, formatDay } from './format';
import { createPdf, list, paragraph, pdfSafe, row, section, specimenBanner, specimenMark, contentWidth } from './pdf';

export { SPECIMEN_MARK } from './pdf';

/** "Ada Lovelace, age 40" per insured person; "Traveler 2, age 72" when the checkout did not collect names. */
export function insuredPersons(travelers: PolicyLookup['travelers'], locale: RenderLocale = 'en'): string[] {
  const m = documentsMessages(locale).common;
  return Array.from({ length: travelers.count }, (_, i) => {
    const name = travelers.names?.[i]?.trim() || m.travelerNumber({ number: i + 1 });
    const age = travelers.ages[i];
    return age === undefined ? name : m.personWithAge({ name, age });
  });
}

/** When cover starts and ends, in words for people. */
export function coverDates(trip: PolicyLookup['trip'], locale: RenderLocale = 'en'): { starts: string; ends: string } {
  const m = documentsMessages(locale).common;
  return {
    starts: trip.startDate ? formatDay(trip.startDate, locale) : m.onDeparture(),
    ends: trip.endDate
      ? formatDay(trip.endDate, locale)
      : trip.durationDays
        ? m.daysAfterDeparture({ days: trip.durationDays })
        : m.atTripEnd(),
  };
}

/**
 * The certificate of insurance of one policy, as PDF bytes: the policyholder's legal document (no agent
 * disclaimer), in the language recorded on its quote (`policy.locale`) unless `locale` says otherwise.
 * Deterministic: its dates come from `issuedAt`, never from the clock, so the same policy always gives the same
 * bytes. A test policy carries the SPECIMEN mark at the top of every page and at the end.
 */
export function renderCertificate(
  policy: PolicyLookup,
  locale: RenderLocale = asLocale(policy.locale),
): Promise<Buffer> {
  const m = documentsMessages(locale);
  const { labels: l } = m;
  const destination = destinationName(policy.trip.destinationSlug, locale);
  const { doc, done } = createPdf({
    title: m.certificate.documentTitle({ policyNumber: policy.policyNumber }),
    subject: `${policy.plan.planName}, ${destination}`,
    date: new Date(policy.issuedAt),
    lang: locale,
  });
  const test = policy.mode === 'test';
  const mark = specimenMark(locale);
  if (test) {
    specimenBanner(doc, mark);
    doc.on('pageAdded', () => specimenBanner(doc, mark));
  }
  doc.font('Helvetica-Bold').fontSize(20).fillColor('#111111').text(pdfSafe(m.certificate.title()));
  doc.font('Helvetica').fontSize(10).fillColor('#555555').text('Expedition Travel Insurance');

  section(doc, m.certificate.policy());
  row(doc, l.policyNumber(), policy.policyNumber);
  row(doc, l.status(), policy.status === 'issued' ? m.certificate.statusIssued() : policy.status);
  row(doc, l.issued(), formatDay(policy.issuedAt, locale));
  row(doc, l.premiumPaid(), formatMoney(policy.premiumCents, policy.currency, locale, { code: true }));
  row(doc, l.quoteNumber(), policy.quoteNumber);

  section(doc, m.certificate.insuredTravelers());
  row(doc, l.insuredPersons({ count: policy.travelers.count }), insuredPersons(policy.travelers, locale).join('\n'));
  doc
    .font('Helvetica')
    .fontSize(9)
    .fillColor('#555555')
    .text(pdfSafe(m.certificate.agesAtDeparture()), doc.page.margins.left);

  section(doc, m.certificate.cover());
  const dates = coverDates(policy.trip, locale);
  row(doc, l.destination(), destination);
  row(doc, l.coverStarts(), dates.starts);
  row(doc, l.coverEnds(), dates.ends);
  if (policy.trip.durationDays) row(doc, l.tripLength(), m.common.days({ days: policy.trip.durationDays }));

  section(doc, m.certificate.planAndLimits());
  const { plan } = policy;
  row(doc, l.plan(), plan.planName);
  if (plan.carrier) row(doc, l.carrier(), m.common.inventedCarrier({ carrier: carrierName(plan.carrier, locale) }));
  if (plan.coverage) {
    const perTraveler = (dollars: number) => m.common.perTraveler({ amount: coverageLimitText(dollars, locale) });
    row(doc, l.emergencyMedical(), perTraveler(plan.coverage.medicalExpenseLimit));
    row(doc, l.evacuation(), perTraveler(plan.coverage.evacuationCoverage));
    row(doc, l.tripCancellation(), perTraveler(plan.coverage.tripCancellation));
    row(doc, l.deductible(), m.common.perClaim({ amount: coverageLimitText(plan.coverage.deductible, locale) }));
    row(doc, l.cancellationReasons(), cancelReasonText(plan.coverage.cancelReason, locale));
  }

  section(doc, m.sections.inAnEmergency(), 120);
  paragraph(
    doc,
    m.certificate.callProvider({ provider: ASSISTANCE.provider, phone: ASSISTANCE.emergencyLine.display }),
    { bold: true, size: 12 },
  );
  paragraph(doc, `${emergencyLineLabel(locale)}. ${satellitePhoneNote(locale)}`);

  section(doc, m.sections.howToClaim(), 120);
  list(doc, howToClaim(locale), true);

  section(doc, m.certificate.cancellingThisPolicy());
  paragraph(doc, cancellationRule(locale));

  section(doc, m.sections.policyWording());
  if (plan.policyTermsUrl) {
    // The wording in the certificate's language: the page and the PDF take ?locale=.
    const web = `${plan.policyTermsUrl}?locale=${locale}`;
    const pdf = `${plan.policyTermsUrl}.pdf?locale=${locale}`;
    paragraph(doc, m.certificate.wordingIntro());
    row(doc, m.certificate.wordingWebPage(), web, web);
    row(doc, m.certificate.wordingPdf(), pdf, pdf);
  } else {
    paragraph(doc, m.certificate.wordingWithoutLink());
  }
  doc.moveDown(0.5);
  paragraph(doc, `${m.certificate.carryPolicyNumber()} ${illustrativeContactsNote(locale)}`, {
    size: 9,
    color: '#555555',
  });
  if (test) {
    doc.moveDown(1);
    doc
      .font('Helvetica-Bold')
      .fontSize(12)
      .fillColor('#b00020')
      .text(pdfSafe(mark), doc.page.margins.left, doc.y, { align: 'center', width: contentWidth(doc) });
  }
  doc.end();
  return done;
}
