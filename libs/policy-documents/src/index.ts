export { renderCertificate, SPECIMEN_MARK } from './certificate.pdf';
export { loadPolicyView, toPolicyView, POLICY_VIEW_INCLUDE, type PolicyKey, type PolicyViewRow } from './policy-view';
