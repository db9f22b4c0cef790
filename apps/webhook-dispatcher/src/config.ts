import { z } from 'zod';
import { asConfigError, ConfigError, DatabaseUrlSchema, emptyToUndefined, envVar, missingInProduction, parseConfig } from '@expedition/platform';
import { paymentsSettingsFromEnv, type PaymentsSettings } from '@expedition/payments';
import { DEV_POLICY_TOKEN_SECRET, MIN_POLICY_TOKEN_SECRET_LENGTH } from '@expedition/fulfillment';
import { MISSING_WEBHOOK_SECRET_KEYS, parseWebhookSecretKeys, WebhookSecretKeysError } from '@expedition/operators';

const optional = <T extends z.ZodType>(schema: T) => z.preprocess(emptyToUndefined, schema.optional());


/** Default pause between delivery attempts: 30 s after the 1st failure, 5 min after the 2nd (3 attempts in total). */
export const DEFAULT_RETRY_DELAYS_MS = [30_000, 300_000] as const;

const list = (value: string | undefined) =>
  (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');

const DelayList = z
  .string()
  .transform(list)
  .pipe(z.array(z.coerce.number<string>().int().nonnegative()).min(1, 'at least one delay'));

/** `kid:base64(32 bytes)`, comma-separated; the first seals, all open (libs/operators, webhook-secret-keys.ts). */
const Keyring = z.string().transform((value, ctx) => {
  try {
    return parseWebhookSecretKeys(value);
  } catch (err) {
    if (!(err instanceof WebhookSecretKeysError)) throw err;
    ctx.addIssue({ code: 'custom', message: err.problem });
    return z.NEVER;
  }
});

const ConfigSchema = z
  .object({
    LOG_LEVEL: optional(z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])).default('info'),
    HOST: optional(z.string()).default('0.0.0.0'),
    DISPATCHER_PORT: optional(z.coerce.number().int().min(0).max(65535)).default(3005),
    DATABASE_URL: optional(DatabaseUrlSchema),
    DATA_DIR: optional(z.string()).default('.data'),
    WEBHOOK_RETRY_DELAYS_MS: optional(DelayList),
    WEBHOOK_TIMEOUT_MS: optional(z.coerce.number().int().positive()).default(10_000),
    WEBHOOK_LEASE_MS: optional(z.coerce.number().int().positive()),
    WEBHOOK_WORKERS: optional(z.coerce.number().int().min(0).max(64)).default(2),
    WEBHOOK_BATCH_SIZE: optional(z.coerce.number().int().min(1).max(500)).default(10),
    WEBHOOK_POLL_INTERVAL_MS: optional(z.coerce.number().int().positive()).default(1_000),
    WEBHOOK_SECRET_KEYS: optional(Keyring),
    /** quote-api's public URL (or its port on localhost): `policy.issued` links the policy's certificate there. */
    QUOTE_API_PORT: envVar.port(3001),
    QUOTE_API_URL: envVar.url(),
    /** Derives the access token a delivered `policy.issued` puts in documentUrl: the same secret as quote-api's. */
    POLICY_TOKEN_SECRET: optional(z.string().min(MIN_POLICY_TOKEN_SECRET_LENGTH, `at least ${MIN_POLICY_TOKEN_SECRET_LENGTH} characters`)),
    POLICY_TOKEN_PREVIOUS_SECRET: optional(z.string().min(MIN_POLICY_TOKEN_SECRET_LENGTH, `at least ${MIN_POLICY_TOKEN_SECRET_LENGTH} characters`)),
  })
  // Deployed delivery workers open operators' sealed secrets; an intake-only replica (WEBHOOK_WORKERS=0) never does.
  .refine((env) => !env.DATABASE_URL || env.WEBHOOK_WORKERS === 0 || env.WEBHOOK_SECRET_KEYS, {
    path: ['WEBHOOK_SECRET_KEYS'],
    message: MISSING_WEBHOOK_SECRET_KEYS,
  })
  .transform((env) => {
    const timeoutMs = env.WEBHOOK_TIMEOUT_MS;
    return {
      logLevel: env.LOG_LEVEL,
      host: env.HOST,
      port: env.DISPATCHER_PORT,
      ...splitDatabaseUrl(env.DATABASE_URL),
      dataDir: env.DATA_DIR,
      quoteApiUrl: (env.QUOTE_API_URL ?? `http://localhost:${env.QUOTE_API_PORT}`).replace(/\/$/, ''),
      /** Unset in embedded mode: main.ts then uses DATA_DIR/webhook-secret-keys (resolveWebhookSecretKeys). */
      webhookSecretKeys: env.WEBHOOK_SECRET_KEYS,
      /** The published dev secret when unset (refused with NODE_ENV=production). */
      policyTokens: { secret: env.POLICY_TOKEN_SECRET ?? DEV_POLICY_TOKEN_SECRET, previous: env.POLICY_TOKEN_PREVIOUS_SECRET },
      delivery: {
        workers: env.WEBHOOK_WORKERS,
        batchSize: env.WEBHOOK_BATCH_SIZE,
        pollIntervalMs: env.WEBHOOK_POLL_INTERVAL_MS,
        timeoutMs,
        // The lease must outlive a whole attempt, or a second worker could re-send a row that is still in flight.
        leaseMs: Math.max(env.WEBHOOK_LEASE_MS ?? timeoutMs + 30_000, timeoutMs + 1_000),
        retryDelaysMs: env.WEBHOOK_RETRY_DELAYS_MS ?? [...DEFAULT_RETRY_DELAYS_MS],
      },
    };
  });

export type DispatcherConfig = z.infer<typeof ConfigSchema> & { payments: PaymentsSettings };

/**
 * `DATABASE_URL` may name a schema the Prisma way (`…/db?schema=t_abc`); createDatabase takes it as an option
 * (it pins search_path and Prisma's schema), and the pg driver must not see the parameter.
 */
export function splitDatabaseUrl(url: string | undefined): { databaseUrl?: string; databaseSchema?: string } {
  if (!url) return {};
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { databaseUrl: url };
  }
  const schema = parsed.searchParams.get('schema');
  if (!schema) return { databaseUrl: url };
  parsed.searchParams.delete('schema');
  return { databaseUrl: parsed.toString(), databaseSchema: schema };
}

/**
 * No default in production (the payments lib requires Stripe's keys there; WEBHOOK_SECRET_KEYS is required with
 * DATABASE_URL on every replica that delivers).
 */
export const PRODUCTION_REQUIRED = ['DATABASE_URL', 'POLICY_TOKEN_SECRET'] as const;

export function loadConfig(env: NodeJS.ProcessEnv = process.env): DispatcherConfig {
  const base = parseConfig(ConfigSchema, env);
  const missing = missingInProduction(env, PRODUCTION_REQUIRED);
  if (missing.length > 0) throw new ConfigError(missing);
  try {
    return Object.freeze({ ...base, payments: paymentsSettingsFromEnv(env) });
  } catch (err) {
    throw asConfigError(err);
  }
}
