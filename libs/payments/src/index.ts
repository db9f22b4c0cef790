// What the apps, libs and tools import; everything else is internal to the lib (test helpers: ./testing).
export {
  PaymentProcessorError,
  WebhookSignatureError,
  type ConfirmPaymentResult,
  type CreatePaymentResult,
  type PaymentProcessor,
  type PaymentProcessorEvent,
  type ProcessorEvent,
  type RefundPaymentInput,
  type RetrievedPayment,
  type SettleSharedPaymentTokenInput,
  type SettleSharedPaymentTokenResult,
} from './processor';
export { normalizeStripeEvent } from './stripe-format';
export { createStripeProcessor, type StripeProcessor, type StripeProcessorOptions } from './stripe/stripe-processor';
export { createSimulatedProcessor, type SimulatedProcessor } from './simulated/simulated-processor';
export { createInMemorySimulatedPaymentStore, type InMemorySimulatedPaymentStore } from './simulated/simulated-store';
export {
  booksSchemaBeside,
  createSqlSimulatedPaymentStore,
  simulatedBooks,
  type SqlRunner,
} from './simulated/sql-simulated-store';
export type { EventDeliveryResult, FetchLike } from './simulated/event-delivery';
export { TEST_CARDS, TEST_SPT_PREFIXES } from './magic-test-values';
export { encodeJcsBase64Url } from './mpp/encoding';
export { parseWwwAuthenticate } from './mpp/auth-params';
export {
  MIN_CHALLENGE_SECRET_BYTES,
  createChallenge,
  decodeOpaque,
  decodeRequest,
  formatWwwAuthenticate,
  isChallengeExpired,
  parsePaymentChallenges,
  verifyChallengeBinding,
  type PaymentChallenge,
  type StripeChargeRequest,
} from './mpp/challenge';
export { formatAuthorizationPayment, parseAuthorizationPayment } from './mpp/credential';
export { formatPaymentReceipt, parsePaymentReceipt } from './mpp/receipt';
export { PROBLEM_CONTENT_TYPE, problemDetails, type MppProblemCode } from './mpp/problem';
export {
  createPaymentProcessor,
  DEFAULT_RECONCILE_INTERVAL_MS,
  installationSecret,
  paymentsSettingsFromEnv,
  type PaymentsSettings,
} from './processor-settings';
