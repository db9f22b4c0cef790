import { existsSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { configOrigin, normalizeOrigins, OriginListSchema } from '@expedition/auth-publishable-key';
import {
  ConfigError,
  envVar,
  isProduction,
  missingInProduction,
  optionalVar,
  parseConfig,
  resolvePort,
  resolveUrl,
  serviceEnvVars,
  servicePortVars,
  type Env,
} from '@expedition/platform';

const StripePublishableKey = (prefix: string) =>
  optionalVar(
    z.string().trim().startsWith(prefix, `must start with ${prefix} (a Stripe publishable key, never a secret key)`),
  );

const ConfigSchema = z
  .object({
    ...serviceEnvVars(),
    // WIDGET_URL: this server's public base URL (the loader's host and the iframe's origin); EMBED_URL: the embed API
    // the iframe calls (its origin goes into the iframe's CSP connect-src); PORTAL_URL: the operator portal, a
    // first-party dashboard origin that may frame the widget with TEST keys.
    ...servicePortVars('widget', 'embedApi', 'portal'),
    /** Extra dashboard origins (test keys only), like embed-api's EMBED_TEST_DASHBOARD_ORIGINS. */
    EMBED_TEST_DASHBOARD_ORIGINS: optionalVar(OriginListSchema),
    // QUOTE_API_URL: quote-api, which serves the hosted checkout page (documented; the iframe only follows links to it).
    ...servicePortVars('quoteApi'),
    /** Revocation bound for the frame document, as for the embed gate. */
    EMBED_KEY_CACHE_TTL_MS: envVar.int({ min: 0, max: 60_000 }).default(5_000),
    PAYMENTS_PROVIDER: optionalVar(z.enum(['simulated', 'stripe'])).default('simulated'),
    STRIPE_TEST_PUBLISHABLE_KEY: StripePublishableKey('pk_test_'),
    STRIPE_LIVE_PUBLISHABLE_KEY: StripePublishableKey('pk_live_'),
    /** dist/browser/widget-loader (widget.js: the rolling channel). */
    WIDGET_LOADER_DIR: envVar.string(),
    /** dist/browser/widget-frame (manifest.json + hashed assets). */
    WIDGET_FRAME_DIR: envVar.string(),
    /** apps/widget-iframe/releases (manifest.json + pinned widget-<x.y.z>.js files). */
    WIDGET_RELEASES_DIR: envVar.string(),
    DATABASE_URL: envVar.databaseUrl(),
    DATA_DIR: envVar.dataDir(),
    TRUST_PROXY: envVar.trustProxy(),
  })
  .transform((env, ctx) => {
    const publicUrl = resolveUrl('widget', env);
    const embedUrl = resolveUrl('embedApi', env);
    const portalUrl = resolveUrl('portal', env);
    const dirs = defaultAssetDirs();
    return {
      logLevel: env.LOG_LEVEL,
      host: env.HOST,
      port: resolvePort('widget', env),
      publicUrl,
      embedUrl,
      embedOrigin: configOrigin(embedUrl, 'EMBED_URL', ctx),
      portalUrl,
      testDashboardOrigins: normalizeOrigins([
        configOrigin(portalUrl, 'PORTAL_URL', ctx),
        ...(env.EMBED_TEST_DASHBOARD_ORIGINS ?? []),
      ]),
      quoteApiUrl: resolveUrl('quoteApi', env),
      keyCacheTtlMs: env.EMBED_KEY_CACHE_TTL_MS,
      payments: {
        provider: env.PAYMENTS_PROVIDER,
        stripePublishableKeys: { test: env.STRIPE_TEST_PUBLISHABLE_KEY, live: env.STRIPE_LIVE_PUBLISHABLE_KEY },
      },
      loaderDir: path.resolve(env.WIDGET_LOADER_DIR ?? dirs.loaderDir),
      frameDir: path.resolve(env.WIDGET_FRAME_DIR ?? dirs.frameDir),
      releasesDir: path.resolve(env.WIDGET_RELEASES_DIR ?? dirs.releasesDir),
      databaseUrl: env.DATABASE_URL,
      dataDir: env.DATA_DIR,
      trustProxy: env.TRUST_PROXY,
    };
  });

export type WidgetIframeConfig = z.infer<typeof ConfigSchema>;

/** No default in production. */
export const PRODUCTION_REQUIRED = ['DATABASE_URL'] as const;

export function loadConfig(env: Env = process.env): WidgetIframeConfig {
  const config = parseConfig(ConfigSchema, env);
  const problems = missingInProduction(env, PRODUCTION_REQUIRED);
  // As in every app that takes payments (libs/payments): production never runs the simulated processor.
  if (isProduction(env) && config.payments.provider !== 'stripe') {
    problems.push(
      'PAYMENTS_PROVIDER: the simulated processor is refused with NODE_ENV=production; set PAYMENTS_PROVIDER=stripe',
    );
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

/**
 * Where the bundles live when no variable says so. The built app (dist/apps/widget-iframe/main.js) has them copied
 * next to it (`browser/…`, `releases/`); from the repository (`npm start` through tsx, tests) they are the
 * workspace's dist/browser/… and apps/widget-iframe/releases.
 */
export function defaultAssetDirs(baseDir: string = __dirname): {
  loaderDir: string;
  frameDir: string;
  releasesDir: string;
} {
  if (existsSync(path.join(baseDir, 'browser'))) {
    return {
      loaderDir: path.join(baseDir, 'browser', 'widget-loader'),
      frameDir: path.join(baseDir, 'browser', 'widget-frame'),
      releasesDir: path.join(baseDir, 'releases'),
    };
  }
  const root = findWorkspaceRoot(baseDir) ?? process.cwd();
  return {
    loaderDir: path.join(root, 'dist', 'browser', 'widget-loader'),
    frameDir: path.join(root, 'dist', 'browser', 'widget-frame'),
    releasesDir: path.join(root, 'apps', 'widget-iframe', 'releases'),
  };
}

function findWorkspaceRoot(from: string): string | null {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'nx.json'))) return dir;
    if (path.dirname(dir) === dir) return null;
  }
}
