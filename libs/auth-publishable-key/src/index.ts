// What the apps and libs import; everything else is internal to the lib.
export { mintPublishableKey, parsePublishableKey, type RandomBytes } from './publishable-key';
export { hashSecretKey, mintSecretKey, secretKeyMatchesHash } from './secret-key';
export { configOrigin, normalizeOrigin, normalizeOrigins, OriginListSchema } from './origin';
export {
  createCachedKeyResolver,
  verifyKeyRecord,
  type CachedKeyResolver,
  type KeyRecord,
  type OperatorStatus,
  type PublishableKeyStore,
  type ResolveKey,
  type ResolvedKey,
} from './key-resolver';
export { sendBareForbidden } from './cors';
export {
  createEmbedGate,
  createEmbedGateSteps,
  createPreflightHandler,
  getEmbedContext,
  type AdmissibleRequest,
  type EmbedGateSteps,
} from './embed-gate';
