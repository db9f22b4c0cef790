import { z } from 'zod';
import { ModeSchema } from '@expedition/contracts';
import {
  ConfigError,
  envVar,
  optionalVar,
  parseServiceConfig,
  readSettings,
  resolvePort,
  resolveUrl,
  serviceEnvVars,
  servicePortVars,
  storageEnvVars,
  type Env,
} from '@expedition/platform';
import { policyTokenEnvVars, policyTokensOf } from '@expedition/fulfillment';
import { MIN_CHALLENGE_SECRET_BYTES, paymentsSettingsFromEnv } from '@expedition/payments';

/**
 * Signs MPP challenges in simulated (test) mode when MPP_SECRET_KEY is unset. Published on purpose: simulated mode
 * moves no money. With PAYMENTS_PROVIDER=stripe or NODE_ENV=production, MPP_SECRET_KEY is required (and shared by
 * every replica).
 */
export const DEV_MPP_SECRET = 'mpp-simulated-dev-secret-not-for-production-0001';

const ConfigSchema = z
  .object({
    ...serviceEnvVars(),
    ...servicePortVars('quoteApi'),
    ...storageEnvVars(),
    QUOTE_API_RATE_LIMIT_PER_MINUTE: envVar.int({ min: 1 }).default(120),
    QUOTE_API_MODE: optionalVar(ModeSchema).default('test'),
    MPP_SECRET_KEY: optionalVar(
      z.string().min(MIN_CHALLENGE_SECRET_BYTES, `at least ${MIN_CHALLENGE_SECRET_BYTES} characters`),
    ),
    MPP_PREVIOUS_SECRET_KEY: optionalVar(z.string().min(MIN_CHALLENGE_SECRET_BYTES)),
    MPP_NETWORK_ID: envVar.string().default('profile_simulated_expedition'),
    MPP_CHALLENGE_TTL_SECONDS: envVar.int({ min: 30, max: 3600 }).default(300),
    ...policyTokenEnvVars(),
  })
  .transform((env) => ({
    logLevel: env.LOG_LEVEL,
    host: env.HOST,
    port: resolvePort('quoteApi', env),
    publicUrl: resolveUrl('quoteApi', env),
    databaseUrl: env.DATABASE_URL,
    dataDir: env.DATA_DIR,
    redisUrl: env.REDIS_URL,
    trustProxy: env.TRUST_PROXY,
    rateLimitPerMinute: env.QUOTE_API_RATE_LIMIT_PER_MINUTE,
    /** The payment mode of quotes created through /api/v1 (checkout links and MPP charge in it). */
    mode: env.QUOTE_API_MODE,
    mpp: {
      secret: env.MPP_SECRET_KEY,
      previousSecret: env.MPP_PREVIOUS_SECRET_KEY,
      networkId: env.MPP_NETWORK_ID,
      challengeTtlMs: env.MPP_CHALLENGE_TTL_SECONDS * 1000,
    },
    /** Derives policies' access tokens (libs/fulfillment policy-tokens.ts); the published dev secret when unset. */
    policyTokens: policyTokensOf(env),
  }));

export type QuoteApiConfig = z.infer<typeof ConfigSchema> & { payments: ReturnType<typeof paymentsSettingsFromEnv> };

/** Secrets with no default in production (the payments lib requires Stripe's keys there: no simulated processor). */
export const PRODUCTION_REQUIRED = ['DATABASE_URL', 'MPP_SECRET_KEY', 'POLICY_TOKEN_SECRET'] as const;

export function loadConfig(env: Env = process.env): QuoteApiConfig {
  const base = parseServiceConfig(ConfigSchema, env, PRODUCTION_REQUIRED);
  const payments = readSettings(() => paymentsSettingsFromEnv(env));
  if (base.mode === 'live' && (payments.provider !== 'stripe' || !payments.stripe?.liveSecretKey)) {
    throw new ConfigError(['QUOTE_API_MODE=live needs PAYMENTS_PROVIDER=stripe and STRIPE_LIVE_SECRET_KEY']);
  }
  if (payments.provider === 'stripe' && !base.mpp.secret) {
    throw new ConfigError(['MPP_SECRET_KEY: required when PAYMENTS_PROVIDER=stripe']);
  }
  return Object.freeze({ ...base, payments });
}
