import { z } from 'zod';
import { configOrigin, normalizeOrigins, OriginListSchema } from '@expedition/auth-publishable-key';
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
import { paymentsSettingsFromEnv, type PaymentsSettings } from '@expedition/payments';

const ConfigSchema = z
  .object({
    ...serviceEnvVars(),
    // QUOTE_API_URL: quote-api, whose hosted checkout page POST /api/embed/checkout links to.
    ...servicePortVars('embedApi', 'widget', 'portal', 'quoteApi'),
    /** Extra first-party origins (accepted for every valid key), e.g. a CDN host of the widget iframe. */
    EMBED_FIRST_PARTY_ORIGINS: optionalVar(OriginListSchema),
    /** Extra provider dashboard origins (accepted for test keys only). */
    EMBED_TEST_DASHBOARD_ORIGINS: optionalVar(OriginListSchema),
    /** Revocation / suspension / embedding changes reach every replica within this bound. */
    EMBED_KEY_CACHE_TTL_MS: envVar.int({ min: 0, max: 60_000 }).default(5_000),
    /** Idle wait of the options worker between rounds (it is also kicked right after each quote). */
    EMBED_OPTIONS_POLL_MS: envVar.int({ min: 50, max: 60_000 }).default(1_000),
    ...storageEnvVars(),
    // POLICY_TOKEN_SECRET derives the access token of a policy a Tier 3 payment bought: the same secret as quote-api's.
    ...policyTokenEnvVars(),
  })
  .transform((env, ctx) => {
    const widgetOrigin = configOrigin(resolveUrl('widget', env), 'WIDGET_URL', ctx);
    const portalOrigin = configOrigin(resolveUrl('portal', env), 'PORTAL_URL', ctx);
    return {
      logLevel: env.LOG_LEVEL,
      host: env.HOST,
      port: resolvePort('embedApi', env),
      publicUrl: resolveUrl('embedApi', env),
      quoteApiUrl: resolveUrl('quoteApi', env),
      firstPartyOrigins: normalizeOrigins([widgetOrigin, ...(env.EMBED_FIRST_PARTY_ORIGINS ?? [])]),
      testDashboardOrigins: normalizeOrigins([portalOrigin, ...(env.EMBED_TEST_DASHBOARD_ORIGINS ?? [])]),
      keyCacheTtlMs: env.EMBED_KEY_CACHE_TTL_MS,
      optionsPollMs: env.EMBED_OPTIONS_POLL_MS,
      databaseUrl: env.DATABASE_URL,
      dataDir: env.DATA_DIR,
      redisUrl: env.REDIS_URL,
      trustProxy: env.TRUST_PROXY,
      policyTokens: policyTokensOf(env),
    };
  });

/** `payments`: PAYMENTS_PROVIDER and friends, read by the payments lib exactly as quote-api reads them. */
export type EmbedApiConfig = z.infer<typeof ConfigSchema> & { payments: PaymentsSettings };

/** No default in production (the payments lib requires Stripe's keys there: no simulated processor). */
export const PRODUCTION_REQUIRED = ['DATABASE_URL', 'POLICY_TOKEN_SECRET'] as const;

export function loadConfig(env: Env = process.env): EmbedApiConfig {
  const base = parseServiceConfig(ConfigSchema, env, PRODUCTION_REQUIRED);
  const payments = readSettings(() => paymentsSettingsFromEnv(env));
  const problems = publishableKeyProblems(payments);
  if (problems.length > 0) throw new ConfigError(problems);
  return Object.freeze({ ...base, payments });
}

/** A Stripe secret key in a publishable slot would be handed to every browser: refuse anything but `pk_<mode>_`. */
function publishableKeyProblems(payments: PaymentsSettings): string[] {
  const slots = [
    ['STRIPE_TEST_PUBLISHABLE_KEY', payments.stripe?.testPublishableKey, 'pk_test_'],
    ['STRIPE_LIVE_PUBLISHABLE_KEY', payments.stripe?.livePublishableKey, 'pk_live_'],
  ] as const;
  return slots.flatMap(([name, value, prefix]) =>
    value && !value.startsWith(prefix) ? [`${name}: must start with ${prefix}`] : [],
  );
}
