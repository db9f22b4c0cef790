import { z } from 'zod';
import {
  allowPrivateNetworks,
  ConfigError,
  envVar,
  missingInProduction,
  optionalVar,
  parseConfig,
  resolvePort,
  resolveUrl,
  serviceEnvVars,
  servicePortVars,
  storageEnvVars,
  type Env,
} from '@expedition/platform';
import { DEFAULT_MAIL_FROM, outboxDirOf } from '@expedition/mail';
import { MISSING_WEBHOOK_SECRET_KEYS, parseWebhookSecretKeys, WebhookSecretKeysError } from '@expedition/operators';

const SmtpUrl = z
  .string()
  .trim()
  .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL');

const ConfigSchema = z
  .object({
    ...serviceEnvVars(),
    NODE_ENV: optionalVar(z.string().trim()).default('development'),
    // PORTAL_URL: the portal's public URL (links in e-mails, the CSRF origin check, the Secure cookie flag when https).
    ...servicePortVars('portal', 'quoteApi', 'embedApi', 'widget'),
    ...storageEnvVars(),
    /** Outgoing mail; unset → the outbox under DATA_DIR (refused in production). */
    SMTP_URL: optionalVar(SmtpUrl),
    MAIL_FROM: optionalVar(z.string().trim()).default(DEFAULT_MAIL_FROM),
    PORTAL_SESSION_IDLE_MINUTES: envVar.int({ min: 1, max: 24 * 60 }).default(30),
    PORTAL_SESSION_ABSOLUTE_HOURS: envVar.int({ min: 1, max: 24 * 30 }).default(12),
    /** Keyring of webhook secrets at rest (see libs/operators README); in embedded mode a file under DATA_DIR. */
    WEBHOOK_SECRET_KEYS: envVar.string(),
    /** Webhook URLs the provider sets may name loopback and private hosts; default true unless NODE_ENV=production. */
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: envVar.flag(),
    /** The built UI (dist/browser/portal-ui); default: next to main.js in a build, else the workspace's dist. */
    PORTAL_UI_DIR: envVar.string(),
  })
  .transform((env) => {
    const production = env.NODE_ENV === 'production';
    return {
      logLevel: env.LOG_LEVEL,
      host: env.HOST,
      port: resolvePort('portal', env),
      production,
      urls: {
        portal: resolveUrl('portal', env),
        quoteApi: resolveUrl('quoteApi', env),
        embed: resolveUrl('embedApi', env),
        widget: resolveUrl('widget', env),
      },
      databaseUrl: env.DATABASE_URL,
      dataDir: env.DATA_DIR,
      /** Embedded mode: PGlite under DATA_DIR (no DATABASE_URL). */
      embedded: env.DATABASE_URL === undefined,
      redisUrl: env.REDIS_URL,
      trustProxy: env.TRUST_PROXY,
      smtpUrl: env.SMTP_URL,
      mailFrom: env.MAIL_FROM,
      outboxDir: outboxDirOf(env.DATA_DIR),
      sessionIdleMs: env.PORTAL_SESSION_IDLE_MINUTES * 60_000,
      sessionAbsoluteMs: env.PORTAL_SESSION_ABSOLUTE_HOURS * 60 * 60_000,
      webhookSecretKeys: env.WEBHOOK_SECRET_KEYS,
      allowPrivateWebhookUrls: allowPrivateNetworks(env.WEBHOOK_ALLOW_PRIVATE_NETWORKS, { NODE_ENV: env.NODE_ENV }),
      uiDir: env.PORTAL_UI_DIR,
    };
  });

export type PortalConfig = z.infer<typeof ConfigSchema>;

/** No default in production (SMTP_URL: no outbox there). */
export const PRODUCTION_REQUIRED = ['DATABASE_URL', 'SMTP_URL', 'WEBHOOK_SECRET_KEYS'] as const;

export function loadConfig(env: Env = process.env): PortalConfig {
  const config = parseConfig(ConfigSchema, env);
  const problems = missingInProduction(env, PRODUCTION_REQUIRED);
  if (config.webhookSecretKeys) {
    // Checked here, not first in compose, so that a bad keyring is one line at start (never key material).
    try {
      parseWebhookSecretKeys(config.webhookSecretKeys);
    } catch (err) {
      if (!(err instanceof WebhookSecretKeysError)) throw err;
      problems.push(err.message);
    }
  } else if (!config.embedded && !problems.some((p) => p.startsWith('WEBHOOK_SECRET_KEYS'))) {
    problems.push(`WEBHOOK_SECRET_KEYS: ${MISSING_WEBHOOK_SECRET_KEYS}`);
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}
