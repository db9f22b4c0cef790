export {
  type OperatorErrorCode,
  OperatorError,
  SUSPENDED_OPERATOR_MESSAGE,
  isOperatorError,
} from './lib/operator-error';
export {
  type OperatorStatusValue,
  MAX_COMMISSION_BPS,
  MAX_GRACE_SECONDS,
  OPERATOR_STATUSES,
  optionalWebhookSecret,
  requireWebhookUrl,
} from './lib/inputs';
export type { KeyState, OperatorView, PublishableKeyView, SecretKeyView } from './lib/views';
export {
  type MintedSecret,
  type NewOperator,
  type OperatorService,
  type OperatorServiceDeps,
  type RewrapReport,
  type AllowedOriginView,
  type RevealedSecret,
  type RotateOptions,
  type RotatedKey,
  type RotatedSecret,
  type ServiceContext,
  type WebhookSettings,
  MAX_SECRET_OVERLAP_HOURS,
  OPERATOR_LIMITS,
  type WebhookUpdate,
  WEBHOOK_SECRET_BYTES,
  WEBHOOK_SECRET_PREFIX,
  createOperatorService,
} from './lib/operator.service';
export {
  type DemoOperatorInfo,
  type EnsureDemoOperatorOptions,
  DEMO_COMMISSION_BPS,
  DEMO_INTEGRATION_TIER,
  DEMO_OPERATOR_FILE,
  DEMO_OPERATOR_NAME,
  demoOperatorFilePath,
  ensureDemoOperator,
  readDemoOperatorFile,
} from './lib/demo-operator';
export {
  type Keyring,
  type KeyEncryptionKey,
  type SecretBox,
  type SecretBoxErrorCode,
  SEALED_PREFIX,
  SecretBoxError,
  agentKeySecretContext,
  createSecretBox,
  isSealed,
} from './lib/secret-box';
export {
  type AuditActor,
  type AuditEntryView,
  type AuditQuery,
  type AuditRecord,
  AUDIT_PAGE_SIZE,
  CLI_ACTOR,
  SYSTEM_ACTOR,
  listAudit,
  writeAudit,
} from './lib/audit';
export { describeOriginProblem, isLoopbackOrigin, originModes, originsForMode } from './lib/origin-rules';
export {
  type DeliveryLogAudience,
  type WebhookAttemptView,
  type WebhookEventDetailView,
  type WebhookEventQuery,
  type WebhookEventStatusValue,
  type WebhookEventSummaryView,
  OPERATOR_CONNECTION_ERROR,
  TEST_EVENT_ID_PREFIX,
  WEBHOOK_EVENT_STATUSES,
  operatorDeliveryError,
  sampleTestPayload,
} from './lib/webhook-events';
export {
  type DashboardDayView,
  type DashboardFigures,
  type DashboardView,
  type RecentPolicyView,
  DASHBOARD_CURRENCY,
  DASHBOARD_MAX_DAYS,
} from './lib/dashboard';
export {
  type ResolveWebhookSecretKeysOptions,
  MISSING_WEBHOOK_SECRET_KEYS,
  WEBHOOK_SECRET_KEYS_FILE,
  WEBHOOK_SECRET_KEYS_VAR,
  WebhookSecretKeysError,
  parseWebhookSecretKeys,
  resolveWebhookSecretKeys,
  webhookSecretKeysFilePath,
} from './lib/webhook-secret-keys';
export {
  type KeyUsageRecorder,
  DEFAULT_KEY_CACHE_TTL_MS,
  KEY_USAGE_WRITE_INTERVAL_MS,
  createKeyResolver,
  createKeyUsageRecorder,
  createPrismaKeyStore,
} from './lib/publishable-key-store';
export * from './lib/accounts';
