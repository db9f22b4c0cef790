import { z } from 'zod';
import { allowPrivateNetworks, envVar, parseConfig, resolveUrl, type Env } from '@expedition/platform';
import { demoDefaults } from './src/demo-defaults';

/** `npm run admin`: the one place its environment is read. */
const AdminEnvSchema = z
  .object({
    DATABASE_URL: envVar.databaseUrl(),
    DATA_DIR: envVar.dataDir(),
    /** The keyring that seals operators' webhook secrets (embedded mode generates one under DATA_DIR). */
    WEBHOOK_SECRET_KEYS: envVar.string(),
    PORT_BASE: envVar.portBase(),
    DEMO_PORT: envVar.servicePort(),
    DEMO_URL: envVar.url(),
    DEMO_WEBHOOK_URL: envVar.url(),
    /** Webhook URLs may name loopback and private hosts; default true unless NODE_ENV=production. */
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: envVar.flag(),
    NODE_ENV: envVar.string(),
  })
  .transform((env) => ({
    databaseUrl: env.DATABASE_URL,
    dataDir: env.DATA_DIR,
    webhookSecretKeys: env.WEBHOOK_SECRET_KEYS,
    allowPrivateWebhookUrls: allowPrivateNetworks(env.WEBHOOK_ALLOW_PRIVATE_NETWORKS, { NODE_ENV: env.NODE_ENV }),
    ...demoDefaults({ demoOrigin: resolveUrl('demo', env), demoWebhookUrl: env.DEMO_WEBHOOK_URL }),
  }));

export type AdminConfig = z.infer<typeof AdminEnvSchema>;

export function loadAdminConfig(env: Env = process.env): Readonly<AdminConfig> {
  return parseConfig(AdminEnvSchema, env);
}
