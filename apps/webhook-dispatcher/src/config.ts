import { z } from 'zod';
import { WEBHOOK_RETRY_DELAYS_MS } from '@expedition/contracts';
import {
  allowPrivateNetworks,
  ConfigError,
  DatabaseUrlSchema,
  emptyToUndefined,
  envVar,
  parseServiceConfig,
  readSettings,
  resolvePort,
  resolveUrl,
} from '@expedition/platform';
import { paymentsSettingsFromEnv, type PaymentsSettings } from '@expedition/payments';
import { policyTokenEnvVars, policyTokensOf } from '@expedition/fulfillment';
import { DEFAULT_MAIL_FROM } from '@expedition/mail';
import { MISSING_WEBHOOK_SECRET_KEYS, parseWebhookSecretKeys, WebhookSecretKeysError } from '@expedition/operators';

const optional = <T extends z.ZodType>(schema: T) => z.preprocess(emptyToUndefined, schema.optional());

/** Default pause between delivery attempts: 30 s after the 1st failure, 5 min after the 2nd (3 attempts in total). */
export const DEFAULT_RETRY_DELAYS_MS = WEBHOOK_RETRY_DELAYS_MS;
/**
 * Default pause after policy mail attempts 1…5 (30 s, 2 min, 10 min, 30 min, 2 h): with policy_mails.max_attempts
 * (6) a mail is marked failed about 2 h 43 min after its first attempt.
 */
export const DEFAULT_MAIL_RETRY_DELAYS_MS = [30_000, 120_000, 600_000, 1_800_000, 7_200_000] as const;

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
    PORT_BASE: envVar.portBase(),
    DISPATCHER_PORT: envVar.servicePort(),
    DATABASE_URL: optional(DatabaseUrlSchema),
    DATA_DIR: optional(z.string()).default('.data'),
    WEBHOOK_RETRY_DELAYS_MS: optional(DelayList),
    WEBHOOK_TIMEOUT_MS: optional(z.coerce.number().int().positive()).default(10_000),
    WEBHOOK_LEASE_MS: optional(z.coerce.number().int().positive()),
    WEBHOOK_WORKERS: optional(z.coerce.number().int().min(0).max(64)).default(2),
    WEBHOOK_BATCH_SIZE: optional(z.coerce.number().int().min(1).max(500)).default(10),
    WEBHOOK_POLL_INTERVAL_MS: optional(z.coerce.number().int().positive()).default(1_000),
    WEBHOOK_SECRET_KEYS: optional(Keyring),
    /** Webhook URLs may reach loopback and private addresses; default true unless NODE_ENV=production. */
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: envVar.flag(),
    /** quote-api's public URL (or its port on localhost): `policy.issued` links the policy's certificate there. */
    QUOTE_API_PORT: envVar.servicePort(),
    QUOTE_API_URL: envVar.url(),
    // POLICY_TOKEN_SECRET derives the access token a delivered `policy.issued` puts in documentUrl (as quote-api's).
    ...policyTokenEnvVars(),
    NODE_ENV: optional(z.string().trim()).default('development'),
    /** Every mail of the platform (docs: README "Configuration"); unset → the outbox under DATA_DIR (not in production). */
    SMTP_URL: optional(
      z
        .string()
        .trim()
        .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL'),
    ),
    MAIL_FROM: optional(z.string().trim()).default(DEFAULT_MAIL_FROM),
    /** Policyholder mail workers in this replica (0: this replica sends no mail). */
    MAIL_WORKERS: optional(z.coerce.number().int().min(0).max(16)).default(1),
    MAIL_RETRY_DELAYS_MS: optional(DelayList),
    MAIL_LEASE_MS: optional(z.coerce.number().int().min(1_000)).default(120_000),
    MAIL_POLL_INTERVAL_MS: optional(z.coerce.number().int().positive()).default(2_000),
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
      port: resolvePort('dispatcher', env),
      ...splitDatabaseUrl(env.DATABASE_URL),
      dataDir: env.DATA_DIR,
      quoteApiUrl: resolveUrl('quoteApi', env),
      /** Unset in embedded mode: main.ts then uses DATA_DIR/webhook-secret-keys (resolveWebhookSecretKeys). */
      webhookSecretKeys: env.WEBHOOK_SECRET_KEYS,
      policyTokens: policyTokensOf(env),
      delivery: {
        workers: env.WEBHOOK_WORKERS,
        batchSize: env.WEBHOOK_BATCH_SIZE,
        pollIntervalMs: env.WEBHOOK_POLL_INTERVAL_MS,
        timeoutMs,
        // The lease must outlive a whole attempt, or a second worker could re-send a row that is still in flight.
        leaseMs: Math.max(env.WEBHOOK_LEASE_MS ?? timeoutMs + 30_000, timeoutMs + 1_000),
        retryDelaysMs: env.WEBHOOK_RETRY_DELAYS_MS ?? [...DEFAULT_RETRY_DELAYS_MS],
        allowPrivateNetworks: allowPrivateNetworks(env.WEBHOOK_ALLOW_PRIVATE_NETWORKS, { NODE_ENV: env.NODE_ENV }),
      },
      production: env.NODE_ENV === 'production',
      mail: {
        smtpUrl: env.SMTP_URL,
        from: env.MAIL_FROM,
        workers: env.MAIL_WORKERS,
        retryDelaysMs: env.MAIL_RETRY_DELAYS_MS ?? [...DEFAULT_MAIL_RETRY_DELAYS_MS],
        leaseMs: env.MAIL_LEASE_MS,
        batchSize: 5,
        pollIntervalMs: env.MAIL_POLL_INTERVAL_MS,
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
  const base = parseServiceConfig(ConfigSchema, env, PRODUCTION_REQUIRED);
  const payments = readSettings(() => paymentsSettingsFromEnv(env));
  // In production mails go through SMTP (the embedded outbox is a development aid), unless this replica sends none.
  if (base.production && base.mail.workers > 0 && !base.mail.smtpUrl) {
    throw new ConfigError([
      'SMTP_URL: required when NODE_ENV=production (or MAIL_WORKERS=0 on a replica that sends no mail)',
    ]);
  }
  return Object.freeze({ ...base, payments });
}
