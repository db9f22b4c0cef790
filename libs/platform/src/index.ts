/**
 * @expedition/platform: what every Node service and lib needs and nothing else — the clock, ids and tokens, the
 * logger type, the polling loop of background workers, the rate limiter, and the pieces of each app's env schema.
 */
export { clientBucket } from './client-bucket';
export { addMs, type Clock, systemClock } from './clock';
export { hashToken, isUuid, randomToken } from './ids';
export { type Logger } from './logger';
export {
  BlockedAddressError,
  createGuardedLookup,
  isBlockedAddressError,
  type OutboundPolicy,
  refusedAddressClass,
  refusedHostname,
} from './outbound-address';
export { type PollingLoop, createPollingLoop } from './polling-loop';
export { resolvePort, resolveUrl } from './service-ports';
export { createRateLimiter, type RateLimiter, type RateLimitResult, type RefundableRateLimiter } from './rate-limiter';
export {
  allowPrivateNetworks,
  asConfigError,
  ConfigError,
  DatabaseUrlSchema,
  emptyToUndefined,
  type Env,
  envVar,
  isProduction,
  missingInProduction,
  optionalVar,
  parseConfig,
  parseServiceConfig,
  readSettings,
  serviceEnvVars,
  servicePortVars,
  storageEnvVars,
} from './env';
