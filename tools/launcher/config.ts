import { z } from 'zod';
import { loadEmbedApiConfig, type EmbedApiConfig } from '@expedition/app-embed-api';
import { loadQuoteApiConfig, type QuoteApiConfig } from '@expedition/app-quote-api';
import { loadDispatcherConfig, type DispatcherConfig } from '@expedition/app-webhook-dispatcher';
import { loadPortalConfig, type PortalConfig } from '@expedition/app-operator-portal';
import { loadWidgetIframeConfig, type WidgetIframeConfig } from '@expedition/app-widget-iframe';
import { installationSecret } from '@expedition/payments';
import { envVar, parseConfig, resolvePort, resolveUrl, type Env } from '@expedition/platform';

/** The launcher's own variables; every app's variables are read by that app's config module (below). */
const LauncherEnvSchema = z.object({
  /** The tidy console of `npm start`: warnings and errors only unless told otherwise. */
  LOG_LEVEL: envVar.logLevel('warn'),
  HOST: envVar.host(),
  DATA_DIR: envVar.dataDir(),
  DATABASE_URL: envVar.databaseUrl(),
  /** Not used (limits stay in memory in one process); read so the banner can say so. */
  REDIS_URL: envVar.redisUrl(),
  /** Moves every app's default port and URL, the demo site's (PORT_BASE + 1200) too: libs/platform service-ports.ts. */
  PORT_BASE: envVar.portBase(),
  DEMO_PORT: envVar.servicePort(),
  DEMO_URL: envVar.url(),
  /** The keyring that seals operators' webhook secrets; embedded mode generates one under DATA_DIR. */
  WEBHOOK_SECRET_KEYS: envVar.string(),
});

export interface LauncherConfig {
  logLevel: z.infer<typeof LauncherEnvSchema>['LOG_LEVEL'];
  host: string;
  dataDir: string;
  databaseUrl?: string;
  /** REDIS_URL was set: the banner says it is ignored. */
  redisIgnored: boolean;
  demo: { port: number; url: string };
  webhookSecretKeys?: string;
  /** Each app's config, parsed once by its own schema from the launcher's environment for the apps (see below). */
  apps: {
    quote: QuoteApiConfig;
    embed: EmbedApiConfig;
    dispatcher: DispatcherConfig;
    portal: PortalConfig;
    widget: WidgetIframeConfig;
  };
}

export interface LauncherConfigDeps {
  /** Reads or creates DATA_DIR's simulated-processor secret (payments lib); injectable for tests. */
  installationSecret?: (dataDir: string) => string;
}

/**
 * Builds the launcher's configuration ONCE: its own variables through its zod schema, then each app's config from
 * `appEnv` — the given environment plus one default that makes one process one installation: (simulated provider) the
 * processor signs with the secret generated once into DATA_DIR, even on PostgreSQL. It reports to THIS process's
 * dispatcher as every app's does by default (DISPATCHER_PORT, else PORT_BASE + 5: the payments lib). Nothing is
 * written back to `process.env`; a bad variable throws ConfigError (one line).
 */
export function loadLauncherConfig(env: Env = process.env, deps: LauncherConfigDeps = {}): Readonly<LauncherConfig> {
  const own = parseConfig(LauncherEnvSchema, env);
  const simulated = (env['PAYMENTS_PROVIDER'] || 'simulated') === 'simulated';
  const appEnv: Env = Object.freeze({
    ...env,
    ...(simulated && !env['SIMULATED_PROCESSOR_WEBHOOK_SECRET']
      ? { SIMULATED_PROCESSOR_WEBHOOK_SECRET: (deps.installationSecret ?? installationSecret)(own.DATA_DIR) }
      : {}),
  });
  return Object.freeze({
    logLevel: own.LOG_LEVEL,
    host: own.HOST,
    dataDir: own.DATA_DIR,
    databaseUrl: own.DATABASE_URL,
    redisIgnored: own.REDIS_URL !== undefined,
    demo: { port: resolvePort('demo', own), url: resolveUrl('demo', own) },
    webhookSecretKeys: own.WEBHOOK_SECRET_KEYS,
    apps: {
      quote: loadQuoteApiConfig(appEnv),
      embed: loadEmbedApiConfig(appEnv),
      dispatcher: loadDispatcherConfig(appEnv),
      portal: loadPortalConfig(appEnv),
      widget: loadWidgetIframeConfig(appEnv),
    },
  });
}
