import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { configRefusal } from '@expedition/platform/testing';
import { DEV_POLICY_TOKEN_SECRET } from '@expedition/fulfillment';
import { DEV_MPP_SECRET, loadConfig } from './config';

// Embedded mode keeps its processor secret under DATA_DIR: this file's own temporary folder.
const DATA_DIR = mkdtempSync(path.join(os.tmpdir(), 'quote-api-config-spec-'));
const refusal = (env: Record<string, string>): string => configRefusal(loadConfig, env);

const STRIPE = {
  PAYMENTS_PROVIDER: 'stripe',
  STRIPE_TEST_SECRET_KEY: 'sk_test_123',
  STRIPE_WEBHOOK_SECRET: 'whsec_123',
};
const PRODUCTION = { NODE_ENV: 'production', DATABASE_URL: 'postgresql://db/app', ...STRIPE };
const MPP = 'm'.repeat(40);
const TOKENS = 't'.repeat(40);

describe('quote-api config', () => {
  it('embedded defaults (NODE_ENV unset): port 3001, test mode, no MPP secret (the simulated dev secret is used)', () => {
    const config = loadConfig({ DATA_DIR });
    expect(config).toMatchObject({
      port: 3001,
      publicUrl: 'http://localhost:3001',
      mode: 'test',
      rateLimitPerMinute: 120,
    });
    expect(config.mpp.secret).toBeUndefined();
    expect(DEV_MPP_SECRET.length).toBeGreaterThanOrEqual(32);
    // Policy access tokens are derived with the published dev secret until POLICY_TOKEN_SECRET is set.
    expect(config.policyTokens).toEqual({ secret: DEV_POLICY_TOKEN_SECRET, previous: undefined });
  });

  it.each([
    [{ QUOTE_API_PORT: 'http' }, 'QUOTE_API_PORT'],
    [{ QUOTE_API_URL: 'not a url' }, 'QUOTE_API_URL'],
    [{ DATABASE_URL: 'mysql://db/app' }, 'DATABASE_URL'],
    [{ REDIS_URL: 'cache:6379' }, 'REDIS_URL'],
    [{ QUOTE_API_RATE_LIMIT_PER_MINUTE: '0' }, 'QUOTE_API_RATE_LIMIT_PER_MINUTE'],
    [{ MPP_SECRET_KEY: 'short' }, 'MPP_SECRET_KEY'],
    [{ POLICY_TOKEN_SECRET: 'short' }, 'POLICY_TOKEN_SECRET'],
    [{ POLICY_TOKEN_PREVIOUS_SECRET: 'short' }, 'POLICY_TOKEN_PREVIOUS_SECRET'],
    [{ MPP_CHALLENGE_TTL_SECONDS: '5' }, 'MPP_CHALLENGE_TTL_SECONDS'],
    [{ PAYMENTS_PROVIDER: 'paypal' }, 'PAYMENTS_PROVIDER'],
    [{ ...STRIPE, STRIPE_WEBHOOK_SECRET: '' }, 'STRIPE_WEBHOOK_SECRET'],
    [{ ...STRIPE }, 'MPP_SECRET_KEY'],
    [{ QUOTE_API_MODE: 'live', ...STRIPE, MPP_SECRET_KEY: MPP }, 'STRIPE_LIVE_SECRET_KEY'],
  ])('refuses %j in one line naming %s', (env, name) => {
    expect(refusal({ DATA_DIR, ...env })).toMatch(new RegExp(`^Invalid configuration: .*${name}`));
  });

  it('production: no default for DATABASE_URL, MPP_SECRET_KEY, POLICY_TOKEN_SECRET or the processor', () => {
    expect(refusal({ NODE_ENV: 'production' })).toBe(
      'Invalid configuration: DATABASE_URL: required when NODE_ENV=production; MPP_SECRET_KEY: required when NODE_ENV=production; ' +
        'POLICY_TOKEN_SECRET: required when NODE_ENV=production',
    );
    expect(refusal({ ...PRODUCTION })).toMatch(/MPP_SECRET_KEY: required when NODE_ENV=production/);
    expect(refusal({ ...PRODUCTION, MPP_SECRET_KEY: MPP })).toBe(
      'Invalid configuration: POLICY_TOKEN_SECRET: required when NODE_ENV=production',
    );
    expect(
      refusal({
        NODE_ENV: 'production',
        DATABASE_URL: 'postgresql://db/app',
        MPP_SECRET_KEY: MPP,
        POLICY_TOKEN_SECRET: TOKENS,
      }),
    ).toMatch(/PAYMENTS_PROVIDER: the simulated processor is refused with NODE_ENV=production/);
    expect(
      refusal({
        NODE_ENV: 'production',
        DATABASE_URL: 'postgresql://db/app',
        MPP_SECRET_KEY: MPP,
        POLICY_TOKEN_SECRET: TOKENS,
        PAYMENTS_PROVIDER: 'stripe',
      }),
    ).toMatch(/STRIPE_TEST_SECRET_KEY and STRIPE_WEBHOOK_SECRET/);
  });

  it('production with every secret starts', () => {
    const config = loadConfig({
      ...PRODUCTION,
      MPP_SECRET_KEY: MPP,
      POLICY_TOKEN_SECRET: TOKENS,
      POLICY_TOKEN_PREVIOUS_SECRET: MPP,
    });
    expect(config.payments.provider).toBe('stripe');
    expect(config.mpp.secret).toBe(MPP);
    expect(config.policyTokens).toEqual({ secret: TOKENS, previous: MPP });
  });
});
