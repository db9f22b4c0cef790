export { coverDates, insuredPersons, renderCertificate } from './certificate.pdf';
export { certificateContentDisposition, certificateFileName } from './certificate-file-name';
export { loadPolicyView, POLICY_VIEW_INCLUDE, toPolicyView } from './policy-view';
export {
  ASSISTANCE,
  cancellationRule,
  COOLING_OFF_DAYS,
  howToClaim,
  illustrativeContactsNote,
  satellitePhoneNote,
} from './assistance';
export { cancelReasonText, carrierName, destinationName, tierName } from './catalog-texts';
export { coverageLimitText, formatDay } from './format';
export { policyWording, type PolicyWording } from './wording';
export { renderWordingPdf, WORDING_EDITION } from './wording.pdf';
