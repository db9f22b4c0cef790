export {
  type ParsedPublishableKey,
  type RandomBytes,
  PUBLISHABLE_KEY_BYTES,
  PUBLISHABLE_KEY_PREFIX,
  mintPublishableKey,
  parsePublishableKey,
  redactKey,
} from './publishable-key';
export {
  type MintedSecretKey,
  SECRET_KEY_BYTES,
  SECRET_KEY_PREFIX,
  hashSecretKey,
  isSecretKeyFormat,
  mintSecretKey,
  secretKeyMatchesHash,
} from './secret-key';
export { normalizeOrigin, normalizeOrigins, OriginListSchema } from './origin';
export {
  type CachedKeyResolver,
  type CachedKeyResolverOptions,
  type IntegrationTier,
  type KeyRecord,
  type OperatorStatus,
  type PublishableKeyStore,
  type ResolveKey,
  type ResolvedKey,
  createCachedKeyResolver,
  toIntegrationTier,
  verifyKeyRecord,
} from './key-resolver';
export {
  CORS_ALLOW_HEADERS,
  CORS_ALLOW_METHODS,
  PREFLIGHT_MAX_AGE_SEC,
  sendBareForbidden,
  sendBareUnauthorized,
  stripCorsHeaders,
} from './cors';
export {
  type EmbedContext,
  type EmbedGateOptions,
  createEmbedGate,
  createPreflightHandler,
  getEmbedContext,
} from './embed-gate';
