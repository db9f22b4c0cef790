// What the apps, other libs and tools import; everything else is internal to the lib. The embed schemas stay
// `export *`: the contract snapshots (tools/checks/contract-snapshots.ts) hash every Embed*Schema and EMBED_* export.
export {
  ACP_MERCHANT_SIGNATURE_HEADER,
  addDays,
  ageOn,
  DAY_MS,
  daysBetween,
  EMBED_SANDBOX_OPTIONS_PENDING_EMAIL,
  EMBED_SANDBOX_QUOTE_ERROR_EMAIL,
  EMBED_SANDBOX_QUOTE_ERROR_TRIP_COST,
  isoDay,
  type Mode,
  MODES,
  PORTAL_CSRF_HEADER,
  TRIP_DATE_WINDOW,
  WEBHOOK_EVENT_ID_HEADER,
  WEBHOOK_SIGNATURE_HEADER,
} from './rules';
export { type ApiErrorCode, ApiErrorSchema, CentsSchema, ModeSchema, TRAVELER_LOCALES } from './common.schema';
export { tripDateProblems } from './trip-dates';
export { findUnstorableJson, isStorableString, JSON_MAX_DEPTH } from './storable-json';
export {
  deceptiveTextMessage,
  findDeceptiveCharacter,
  isDisplaySafeText,
  type DeceptiveCharacter,
  type DeceptiveKind,
} from './text/display-text';
export * from './agent-guidance';
export {
  type Destination,
  DestinationListSchema,
  type PlanDetails,
  PlanDetailsSchema,
  PlanIdParamsSchema,
  type PlanSummary,
  type ProductList,
  ProductListQuerySchema,
  ProductListSchema,
} from './quote-api/catalog.schema';
export {
  QuoteRequestSchema,
  quoteRequestSchemaAt,
  type QuoteResponse,
  QuoteResponseSchema,
} from './quote-api/quote.schema';
export {
  type CoverageGapRequest,
  CoverageGapRequestSchema,
  CoverageGapResponseSchema,
} from './quote-api/coverage-gap.schema';
export * from './quote-api/checkout.schema';
export {
  PaymentProblemSchema,
  type PurchaseReceipt,
  PurchaseReceiptSchema,
  type PurchaseRequest,
  PurchaseRequestSchema,
} from './quote-api/purchase.schema';
export { type PolicyLookup, PolicyLookupSchema } from './quote-api/policy.schema';
export * from './quote-api/policy-wording';
export * from './embed/embed-quote.schema';
export * from './embed/embed-options.schema';
export {
  QuoteSelectedEventSchema,
  WIDGET_EVENT_NAMES,
  WIDGET_EVENT_SCHEMAS,
  WIDGET_MESSAGE_PREFIX,
} from './events/widget-events.schema';
export { MountConfigSchema } from './widget/mount-config.schema';
export * from './webhook/policy-issued.schema';
export * from './quote-api/quote-api.constants';
export * from './embed/embed-payment.schema';
export * from './embed/embed-checkout.schema';
export { type PortalErrorCode, PortalErrorSchema, PortalWeakPasswordErrorSchema } from './portal/portal-error.schema';
export {
  type AddOriginResponse,
  type AllowedOriginList,
  CreatePublishableKeyRequestSchema,
  CreateSecretKeyRequestSchema,
  type CreateSecretKeyResponse,
  type IntegrationResponse,
  IntegrationResponseSchema,
  OriginQuerySchema,
  OriginRequestSchema,
  type OriginTestResponse,
  OriginTestResponseSchema,
  type PortalAllowedOrigin,
  type PortalOperator,
  type PortalOperatorResponse,
  PortalOperatorResponseSchema,
  type PortalPublishableKey,
  type PortalSecretKey,
  type PublishableKeyList,
  PublishableKeyListSchema,
  RotateKeyRequestSchema,
  type RotateKeyResponse,
  RotateKeyResponseSchema,
  type SecretKeyList,
} from './portal/operator.schema';
export { UpdateBrandingRequestSchema } from './portal/branding.schema';
export {
  type PortalWebhook,
  PortalWebhookSchema,
  type RevealSecretResponse,
  type WebhookAttempt,
  type WebhookEventDetail,
  WebhookEventDetailSchema,
  type WebhookEventList,
  WebhookEventListQuerySchema,
  WebhookEventListSchema,
  type WebhookEventResponse,
  WebhookEventResponseSchema,
  type WebhookEventSummary,
  WEBHOOK_EVENTS_PAGE_SIZE,
} from './portal/webhook.schema';
export {
  type DashboardDay,
  DashboardQuerySchema,
  type DashboardResponse,
  DashboardResponseSchema,
  type RecentPolicy,
} from './portal/dashboard.schema';
export { type AuditEntry, type AuditList, AuditListQuerySchema, AuditListSchema } from './portal/audit.schema';
export {
  AdminAuditQuerySchema,
  type AdminOperator,
  type AdminOperatorDetail,
  AdminOperatorDetailSchema,
  type AdminOperatorList,
  AdminOperatorListSchema,
  type AdminOperatorPatch,
  AdminOperatorPatchSchema,
  type AdminOperatorResponse,
  AdminLookAlikeOperatorSchema,
  AdminOperatorPatchResponseSchema,
  AdminOperatorSearchQuerySchema,
  AdminRotateSecretRequestSchema,
  type AdminRotateSecretResponse,
  AdminWebhookUrlRequestSchema,
} from './portal/admin.schema';
export {
  AcceptInviteRequestSchema,
  ChangePasswordRequestSchema,
  CreateInviteRequestSchema,
  CreateInviteResponseSchema,
  LoginRequestSchema,
  type LoginResponse,
  LoginResponseSchema,
  type OutboxMail,
  OutboxResponseSchema,
  PasswordResetConfirmSchema,
  PasswordResetRequestSchema,
  PORTAL_SESSION_COOKIE,
  PORTAL_HOST_SESSION_COOKIE,
  type PortalUser,
  type SessionResponse,
  SessionResponseSchema,
  type SessionStatusResponse,
  SessionStatusResponseSchema,
  SignInLinkRequestSchema,
  SignupRequestSchema,
  type SignupResponse,
  SignupResponseSchema,
  type TeamInvite,
  type TeamMember,
  type TeamResponse,
  TeamResponseSchema,
  VerifyEmailRequestSchema,
} from './portal/auth.schema';
export {
  ACP_AGENT_KEY_PREFIX,
  ACP_API_VERSION,
  ACP_SPT_HANDLER_ID,
  ACP_SUPPORTED_VERSIONS,
  AcpCancelSessionRequestSchema,
  type AcpCheckoutSession,
  type AcpCompleteSessionRequest,
  AcpCompleteSessionRequestSchema,
  type AcpCreateSessionRequest,
  AcpCreateSessionRequestSchema,
  type AcpError,
  AcpErrorSchema,
  type AcpMessage,
  type AcpOrder,
  type AcpSessionStatus,
  type AcpTotal,
  type AcpUpdateSessionRequest,
  AcpUpdateSessionRequestSchema,
} from './acp/acp.schema';
export { ACP_ORDER_EVENT_MAX_ATTEMPTS, type AcpOrderEvent, AcpOrderEventSchema } from './acp/acp-order-event.schema';
