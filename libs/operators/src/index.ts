// What other projects use of this lib, and nothing more (tests of the lib import its modules directly).

// Operators, keys, origins and webhooks (one service per concern; createOperatorService is all of them as one object).
export { type OperatorService, createOperatorService } from './lib/operator.service';
export { OPERATOR_LIMITS } from './lib/service-context';
export type { OperatorView, PublishableKeyView, SecretKeyView } from './lib/views';
export type { AllowedOriginView } from './lib/origin.service';
export { WEBHOOK_SECRET_BYTES, WEBHOOK_SECRET_PREFIX } from './lib/webhook-secret.service';
export { OPERATOR_CONNECTION_ERROR, TEST_EVENT_ID_PREFIX } from './lib/webhook-event.service';
export { type OperatorStatusValue, optionalWebhookSecret, requireWebhookUrl } from './lib/inputs';
export { SUSPENDED_OPERATOR_MESSAGE, isOperatorError } from './lib/operator-error';
export { describeOriginProblem, isLoopbackOrigin } from './lib/origin-rules';
export { type AuditActor, CLI_ACTOR, writeAudit } from './lib/audit';

// The embed gate's key store (embed-api, widget-iframe).
export {
  createKeyResolver,
  createKeyUsageRecorder,
  createPrismaKeyStore,
  type KeyUsageRecorder,
} from './lib/publishable-key-store';

// Webhook secrets at rest.
export { type Keyring, type SecretBox, agentKeySecretContext, createSecretBox } from './lib/secret-box';
export {
  MISSING_WEBHOOK_SECRET_KEYS,
  WebhookSecretKeysError,
  parseWebhookSecretKeys,
  resolveWebhookSecretKeys,
} from './lib/webhook-secret-keys';

// The embedded launcher's demo operator and log-ins under DATA_DIR.
export { type DemoOperatorInfo, demoOperatorFilePath, ensureDemoOperator } from './lib/demo-operator';
export { readJson, writePrivateJson } from './lib/private-json';

export * from './lib/accounts';
