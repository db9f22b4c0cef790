export { coverDates, insuredPersons, renderCertificate, SPECIMEN_MARK } from './certificate.pdf';
export { certificateContentDisposition, certificateFileName } from './certificate-file-name';
export { loadPolicyView, toPolicyView, POLICY_VIEW_INCLUDE, type PolicyKey, type PolicyViewRow } from './policy-view';
export {
  ASSISTANCE,
  CLAIM_DEADLINE_DAYS,
  COOLING_OFF_DAYS,
  cancellationRule,
  emergencyLineLabel,
  howToClaim,
  illustrativeContactsNote,
  satellitePhoneNote,
  type PhoneLine,
} from './assistance';
export {
  cancelReasonText,
  carrierName,
  destinationName,
  exclusionText,
  planDescription,
  tierName,
} from './catalog-texts';
export { coverageLimitText, formatDay } from './format';
export { specimenMark } from './pdf';
export { policyWording, type Benefit, type PolicyWording } from './wording';
export { renderWordingPdf, WORDING_EDITION } from './wording.pdf';
