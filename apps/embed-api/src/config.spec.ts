import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError } from '@expedition/platform';
import { configRefusal } from '@expedition/platform/testing';
import { loadConfig as loadConfigFrom } from './config';

// Embedded mode keeps its processor secret under DATA_DIR: this file's own temporary folder, never the working tree.
const DATA_DIR = mkdtempSync(path.join(os.tmpdir(), 'embed-api-config-'));
const loadConfig = (env: Record<string, string | undefined>) => loadConfigFrom({ DATA_DIR, ...env });

describe('embed-api config', () => {
  it('defaults to the operating contract ports and the widget/portal origins', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3002,
      publicUrl: 'http://localhost:3002',
      firstPartyOrigins: ['http://localhost:3003'],
      testDashboardOrigins: ['http://localhost:3004'],
      keyCacheTtlMs: 5_000,
    });
  });

  it('derives origins from WIDGET_URL / PORTAL_URL and appends the extra lists, normalized', () => {
    const config = loadConfig({
      WIDGET_URL: 'https://Widget.Example.com:443/embed/',
      PORTAL_URL: 'https://portal.example.com/app',
      EMBED_FIRST_PARTY_ORIGINS: 'https://cdn.example.com, https://widget.example.com',
      EMBED_TEST_DASHBOARD_ORIGINS: 'https://staging-portal.example.com',
      EMBED_KEY_CACHE_TTL_MS: '2000',
    });
    expect(config.firstPartyOrigins).toEqual(['https://widget.example.com', 'https://cdn.example.com']);
    expect(config.testDashboardOrigins).toEqual(['https://portal.example.com', 'https://staging-portal.example.com']);
    expect(config.keyCacheTtlMs).toBe(2_000);
  });

  it('refuses an entry that is not an origin', () => {
    expect(() => loadConfig({ EMBED_FIRST_PARTY_ORIGINS: 'https://ok.example, https://bad.example/path' })).toThrow(
      ConfigError,
    );
    expect(() => loadConfig({ EMBED_KEY_CACHE_TTL_MS: 'soon' })).toThrow(ConfigError);
  });

  it('names a bad common variable in one line', () => {
    expect(() => loadConfig({ EMBED_API_PORT: '99999' })).toThrow(/^Invalid configuration: EMBED_API_PORT: [^\n]+$/);
    expect(() => loadConfig({ DATABASE_URL: 'localhost:5432' })).toThrow(/DATABASE_URL: must be a postgres/);
    expect(() => loadConfig({ REDIS_URL: '127.0.0.1:6379' })).toThrow(/REDIS_URL: must be a redis/);
  });
});

describe('embed-api config: payments', () => {
  it('defaults to the simulated processor posting to the dispatcher intake', () => {
    const { payments } = loadConfig({});
    expect(payments).toMatchObject({
      provider: 'simulated',
      simulatedWebhookUrl: 'http://localhost:3005/processor/events',
    });
    expect(payments.stripe).toBeUndefined();
  });

  it('reads Stripe keys, including the publishable key of each mode for Stripe.js', () => {
    const { payments } = loadConfig({
      PAYMENTS_PROVIDER: 'stripe',
      STRIPE_TEST_SECRET_KEY: 'sk_test_1',
      STRIPE_WEBHOOK_SECRET: 'whsec_1',
      STRIPE_TEST_PUBLISHABLE_KEY: 'pk_test_1',
      STRIPE_LIVE_PUBLISHABLE_KEY: 'pk_live_1',
    });
    expect(payments.provider).toBe('stripe');
    expect(payments.stripe).toMatchObject({ testPublishableKey: 'pk_test_1', livePublishableKey: 'pk_live_1' });
  });

  it('wraps payment setting errors in ConfigError', () => {
    expect(() => loadConfig({ PAYMENTS_PROVIDER: 'paypal' })).toThrow(ConfigError);
    expect(() => loadConfig({ PAYMENTS_PROVIDER: 'stripe' })).toThrow(ConfigError);
  });

  it('refuses a publishable slot holding anything but a publishable key of that mode (it is sent to browsers)', () => {
    const stripe = {
      PAYMENTS_PROVIDER: 'stripe',
      STRIPE_TEST_SECRET_KEY: 'sk_test_1',
      STRIPE_WEBHOOK_SECRET: 'whsec_1',
    };
    expect(() => loadConfig({ ...stripe, STRIPE_TEST_PUBLISHABLE_KEY: 'sk_test_1' })).toThrow(
      /STRIPE_TEST_PUBLISHABLE_KEY/,
    );
    expect(() => loadConfig({ ...stripe, STRIPE_LIVE_PUBLISHABLE_KEY: 'pk_test_1' })).toThrow(
      /STRIPE_LIVE_PUBLISHABLE_KEY/,
    );
  });
});

describe('embed-api config: production and one-line refusals', () => {
  const refusal = (env: Record<string, string>): string => configRefusal(loadConfig, env);

  it('production: no default for DATABASE_URL, POLICY_TOKEN_SECRET or the processor (Stripe keys required)', () => {
    const SECRET = 'policy-token-secret-for-config-spec-0123456789';
    expect(refusal({ NODE_ENV: 'production' })).toBe(
      'Invalid configuration: DATABASE_URL: required when NODE_ENV=production; POLICY_TOKEN_SECRET: required when NODE_ENV=production',
    );
    const deployed = { NODE_ENV: 'production', DATABASE_URL: 'postgresql://db/app', POLICY_TOKEN_SECRET: SECRET };
    expect(refusal(deployed)).toMatch(/^Invalid configuration: PAYMENTS_PROVIDER: /);
    expect(refusal({ ...deployed, PAYMENTS_PROVIDER: 'stripe' })).toMatch(/STRIPE_TEST_SECRET_KEY/);
    const config = loadConfig({
      ...deployed,
      PAYMENTS_PROVIDER: 'stripe',
      STRIPE_TEST_SECRET_KEY: 'sk_test_1',
      STRIPE_WEBHOOK_SECRET: 'whsec_1',
    });
    expect(config.payments.provider).toBe('stripe');
  });

  it('deployed on the simulated processor without its secret: one line naming it', () => {
    expect(refusal({ DATABASE_URL: 'postgresql://db/app' })).toMatch(
      /^Invalid configuration: SIMULATED_PROCESSOR_WEBHOOK_SECRET: required/,
    );
  });

  it('several payment problems stay on one line', () => {
    expect(refusal({ PAYMENTS_PROVIDER: 'paypal', SIMULATED_PROCESSOR_WEBHOOK_URL: 'nope' })).toMatch(
      /PAYMENTS_PROVIDER: .*; SIMULATED_PROCESSOR_WEBHOOK_URL: /,
    );
  });
});
