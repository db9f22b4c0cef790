// Public face of the embed-api app for composition roots (main.ts, the all-in-one launcher, benchmarks, e2e tests).
export { createApp, type EmbedApiDeps } from './app';
export { composeEmbedApi, type EmbedApi, type EmbedApiRuntime } from './compose';
export { loadConfig as loadEmbedApiConfig, type EmbedApiConfig } from './config';
/** Moved to @expedition/operators (the widget server resolves keys too); re-exported for existing callers. */
export { createKeyResolver, createPrismaKeyStore, DEFAULT_KEY_CACHE_TTL_MS } from '@expedition/operators';
export {
  EMBED_CHECKOUT_PATH,
  EMBED_MAX_BODY_BYTES,
  EMBED_OPTIONS_PATH,
  EMBED_PAYMENTS_AUTHENTICATE_PATH,
  EMBED_PAYMENTS_CONFIRM_PATH,
  EMBED_PAYMENTS_PATH,
  EMBED_QUOTE_PATH,
  EMBED_RATE_LIMIT,
} from './limits';
export type { EmbedPaymentsOptions } from './payments/embed-payment.service';
