export {
  createFulfillment,
  NO_WEBHOOK_URL_ERROR,
  type Fulfillment,
  type FulfillmentDeps,
  type FulfillmentOutcome,
  type RefundCause,
  succeededPaymentOf,
  type PaymentFacts,
  type SucceededPayment,
  type UntrustedReason,
} from './fulfillment.service';
export {
  createPaymentClaims,
  DEFAULT_CLAIM_LEASE_MS,
  type AcquireResult,
  type AttemptEnd,
  type HeldClaim,
  type PaymentClaims,
} from './payment-claims';
export {
  createPaymentGuard,
  type AttemptClaim,
  type AttemptResult,
  type Guarded,
  type PaymentGuard,
  type PaymentGuardDeps,
} from './payment-guard';
export { createRefunds, type RefundResult, type Refunds, type RefundsDeps } from './refunds';
export { createMoneyPath, type MoneyPath, type MoneyPathDeps } from './money-path';
export { computeCommissionCents } from './commission';
export { randomPolicyNumber, randomWebhookEventId } from './identifiers';
export { policyLinks, storedDocumentUrl, withAccessToken, withoutAccessToken, type PolicyLinks } from './policy-links';
export {
  createPolicyTokens,
  DEV_POLICY_TOKEN_SECRET,
  MIN_POLICY_TOKEN_SECRET_LENGTH,
  type PolicyTokens,
  type PolicyTokensOptions,
  type PolicyTokenSubject,
} from './policy-tokens';
export {
  CONFIRMATION_MAIL,
  requeueConfirmationMail,
  type ConfirmationMailStatus,
  type ResendOutcome,
} from './policy-mails';
