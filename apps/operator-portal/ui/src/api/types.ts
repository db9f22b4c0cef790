/**
 * Types of the portal API the UI reads. Operator and admin shapes come from libs/contracts (type-only imports: no zod
 * in the bundle). The UI reads only the fields it shows and ignores the rest (docs/contract.md, "Versioning": clients
 * ignore unknown fields).
 */
export type {
  AdminOperator,
  AdminOperatorDetail,
  AdminOperatorList,
  AdminOperatorPatch,
  AdminOperatorResponse,
  AdminRotateSecretResponse,
  AuditEntry,
  AuditList,
  CreateSecretKeyResponse,
  DashboardDay,
  DashboardResponse,
  IntegrationResponse,
  OriginTestResponse,
  PortalAllowedOrigin,
  PortalOperator,
  PortalOperatorResponse,
  PortalPublishableKey,
  PortalSecretKey,
  PortalWebhook,
  PublishableKeyList,
  RecentPolicy,
  RevealSecretResponse,
  RotateKeyResponse,
  SecretKeyList,
  AllowedOriginList,
  AddOriginResponse,
  WebhookAttempt,
  WebhookEventDetail,
  WebhookEventList,
  WebhookEventResponse,
  WebhookEventSummary,
} from '@expedition/contracts';

export type {
  PortalUser,
  SessionResponse,
  SessionStatusResponse,
  SignupResponse,
  LoginResponse,
  TeamInvite,
  TeamMember,
  TeamResponse,
} from '@expedition/contracts';
