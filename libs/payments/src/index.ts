export {
  PaymentProcessorError,
  WebhookSignatureError,
  type ConfirmPaymentInput,
  type ConfirmPaymentResult,
  type CreatePaymentInput,
  type CreatePaymentResult,
  type OtherProcessorEvent,
  type PaymentChannel,
  type PaymentFailure,
  type PaymentMetadata,
  type PaymentMode,
  type PaymentProcessor,
  type PaymentProcessorErrorCode,
  type PaymentProcessorEvent,
  type PaymentStatus,
  type ProcessorEvent,
  type RefundPaymentInput,
  type RefundPaymentResult,
  type RefundReason,
  type RetrievePaymentInput,
  type RetrievedPayment,
  type SettleSharedPaymentTokenInput,
  type SettleSharedPaymentTokenResult,
  type WebhookSignatureErrorReason,
} from './processor';
export { normalizeStripeEvent, toPaymentStatus, type StripeEventLike, type StripeIntentLike } from './stripe-format';
export {
  SPT_API_VERSION,
  createStripeProcessor,
  type StripeProcessor,
  type StripeProcessorOptions,
} from './stripe/stripe-processor';
export {
  createSimulatedProcessor,
  type SimulatedProcessor,
  type SimulatedProcessorOptions,
} from './simulated/simulated-processor';
export {
  createInMemorySimulatedPaymentStore,
  type InMemorySimulatedPaymentStore,
  type SimulatedRefund,
  type SimulatedPaymentRecord,
  type SimulatedPaymentStore,
} from './simulated/simulated-store';
export type { EventDeliveryResult, FetchLike } from './simulated/event-delivery';
export {
  SIMULATED_LIVE_PREFIXES,
  TEST_CARDS,
  TEST_SPT_PREFIXES,
  outcomeForPaymentMethodIn,
  outcomeForSptIn,
} from './magic-test-values';
export * from './mpp';
export {
  DISPATCHER_INTAKE_PATH,
  PaymentsConfigError,
  PaymentsEnvSchema,
  SIMULATED_SECRET_FILE,
  createPaymentProcessor,
  installationSecret,
  paymentsSettingsFromEnv,
  type PaymentsSettings,
} from './processor-settings';
