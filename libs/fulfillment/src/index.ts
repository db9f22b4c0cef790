// The money path's façade (createMoneyPath) and what other projects import beside it; the rest is internal.
export { createMoneyPath, type MoneyPath } from './money-path';
export { createFulfillment, type Fulfillment } from './fulfillment.service';
export {
  NO_WEBHOOK_URL_ERROR,
  succeededPaymentOf,
  type FulfillmentDeps,
  type FulfillmentOutcome,
} from './fulfillment-types';
export type { AttemptEnd } from './payment-claims';
export { attemptKey } from './payment-claims';
export type { ReconcileResult } from './attempt-resolver';
export type { PaymentReconciler, ReconcileReport } from './payment-reconciler';
export type { AttemptClaim, AttemptResult } from './payment-guard';
export type { Refunds } from './refunds';
export { policyLinks, storedDocumentUrl, withAccessToken, withoutAccessToken } from './policy-links';
export {
  createPolicyTokens,
  DEV_POLICY_TOKEN_SECRET,
  MIN_POLICY_TOKEN_SECRET_LENGTH,
  type PolicyTokens,
} from './policy-tokens';
export { policyTokenEnvVars, policyTokensOf } from './policy-token-env';
export { CONFIRMATION_MAIL, requeueConfirmationMail, type ResendOutcome } from './policy-mails';
