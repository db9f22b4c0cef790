/**
 * @expedition/platform: what every Node service and lib needs and nothing else — the clock, ids and tokens, the
 * logger type, the polling loop of background workers, the rate limiter, and the pieces of each app's env schema.
 */
export { IPV6_CLIENT_PREFIX, clientBucket } from './client-bucket';
export { type Clock, addMs, epochSeconds, systemClock } from './clock';
export { hashToken, isUuid, randomToken } from './ids';
export { LOG_LEVELS, type LogLevel, type Logger } from './logger';
export {
  type AddressClass,
  type OutboundPolicy,
  BlockedAddressError,
  classifyAddress,
  classifyHostname,
  createGuardedLookup,
  isBlockedAddressError,
  refusedAddressClass,
  refusedHostname,
} from './outbound-address';
export { type PollingLoop, createPollingLoop } from './polling-loop';
export {
  DEFAULT_PORT_BASE,
  MAX_PORT_BASE,
  PortBaseSchema,
  type PortsEnv,
  type PortsReadBy,
  SERVICES,
  type Service,
  type UrlsReadBy,
  resolvePort,
  resolveUrl,
} from './service-ports';
export {
  type RateLimitResult,
  type RateLimiter,
  type RateLimiterOptions,
  type RefundableRateLimiter,
  createRateLimiter,
  toRetryAfterSec,
} from './rate-limiter';
export {
  ConfigError,
  DatabaseUrlSchema,
  type Env,
  LogLevelSchema,
  allowPrivateNetworks,
  asConfigError,
  isProduction,
  missingInProduction,
  PortSchema,
  RedisUrlSchema,
  emptyToUndefined,
  envVar,
  optionalVar,
  parseConfig,
} from './env';
