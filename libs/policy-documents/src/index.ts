export { renderCertificate, SPECIMEN_MARK } from './certificate.pdf';
export { loadPolicyView, toPolicyView, POLICY_VIEW_INCLUDE, type PolicyKey, type PolicyViewRow } from './policy-view';
export {
  ASSISTANCE,
  CANCELLATION_RULE,
  CLAIM_DEADLINE_DAYS,
  COOLING_OFF_DAYS,
  HOW_TO_CLAIM,
  ILLUSTRATIVE_CONTACTS_NOTE,
  type PhoneLine,
} from './assistance';
