export {
  type OperatorErrorCode,
  OperatorError,
  isOperatorError,
} from './lib/operator-error';
export {
  type OperatorStatusValue,
  MAX_COMMISSION_BPS,
  MAX_GRACE_SECONDS,
  OPERATOR_STATUSES,
} from './lib/inputs';
export type { KeyState, OperatorView, PublishableKeyView, SecretKeyView } from './lib/views';
export {
  type MintedSecret,
  type NewOperator,
  type OperatorService,
  type OperatorServiceDeps,
  type RewrapReport,
  type RotatedKey,
  type WebhookSettings,
  type WebhookUpdate,
  WEBHOOK_SECRET_BYTES,
  WEBHOOK_SECRET_PREFIX,
  createOperatorService,
} from './lib/operator.service';
export {
  type DemoOperatorInfo,
  type EnsureDemoOperatorOptions,
  DEMO_COMMISSION_BPS,
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
  createSecretBox,
  isSealed,
} from './lib/secret-box';
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
