import { ConfigError } from '@expedition/platform';
import { configRefusal } from '@expedition/platform/testing';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_RETRY_DELAYS_MS, loadConfig as loadConfigFrom, splitDatabaseUrl } from './config';

// Embedded mode keeps its processor secret under DATA_DIR: this file's own temporary folder, never the working tree.
const DATA_DIR = mkdtempSync(path.join(os.tmpdir(), 'dispatcher-config-'));
const loadConfig = (env: Record<string, string | undefined>) => loadConfigFrom({ DATA_DIR, ...env });

describe('loadConfig', () => {
  it('has embedded-mode defaults: port 3005, simulated processor with a secret of this installation, 2 workers, 30 s / 5 min', () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'dispatcher-config-'));
    const config = loadConfig({ DATA_DIR: dataDir });
    expect(config.port).toBe(3005);
    expect(config.payments.provider).toBe('simulated');
    // Random per installation, generated once into DATA_DIR (owner-only), the same on every start.
    const [secret] = config.payments.simulatedWebhookSecrets;
    expect(secret).toMatch(/^whsec_sim_[A-Za-z0-9_-]{43}$/);
    expect(readFileSync(path.join(dataDir, 'simulated-processor-secret'), 'utf8').trim()).toBe(secret);
    expect(statSync(path.join(dataDir, 'simulated-processor-secret')).mode & 0o777).toBe(0o600);
    expect(loadConfig({ DATA_DIR: dataDir }).payments.simulatedWebhookSecrets).toEqual([secret]);
    expect(
      loadConfig({ DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'dispatcher-config-')) }).payments
        .simulatedWebhookSecrets,
    ).not.toEqual([secret]);
    expect(config.delivery).toEqual({
      workers: 2,
      batchSize: 10,
      pollIntervalMs: 1_000,
      timeoutMs: 10_000,
      leaseMs: 40_000,
      retryDelaysMs: [...DEFAULT_RETRY_DELAYS_MS],
      allowPrivateNetworks: true,
    });
    expect(DEFAULT_RETRY_DELAYS_MS).toEqual([30_000, 300_000]);
  });

  it('WEBHOOK_ALLOW_PRIVATE_NETWORKS: true by default outside production (the demo receiver on localhost), as given otherwise', () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'dispatcher-config-'));
    expect(loadConfig({ DATA_DIR: dataDir, NODE_ENV: 'development' }).delivery.allowPrivateNetworks).toBe(true);
    expect(
      loadConfig({ DATA_DIR: dataDir, WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'false' }).delivery.allowPrivateNetworks,
    ).toBe(false);
    expect(loadConfig({ DATA_DIR: dataDir, WEBHOOK_ALLOW_PRIVATE_NETWORKS: '0' }).delivery.allowPrivateNetworks).toBe(
      false,
    );
    expect(() => loadConfig({ DATA_DIR: dataDir, WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'maybe' })).toThrow(
      /WEBHOOK_ALLOW_PRIVATE_NETWORKS/,
    );
  });

  it("knows quote-api's public URL (policy.issued links the certificate there): QUOTE_API_URL, else its port on localhost", () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'dispatcher-config-'));
    expect(loadConfig({ DATA_DIR: dataDir }).quoteApiUrl).toBe('http://localhost:3001');
    expect(loadConfig({ DATA_DIR: dataDir, QUOTE_API_PORT: '3101' }).quoteApiUrl).toBe('http://localhost:3101');
    expect(loadConfig({ DATA_DIR: dataDir, QUOTE_API_URL: 'https://quote.example.com/' }).quoteApiUrl).toBe(
      'https://quote.example.com',
    );
  });

  it('reads the delivery settings and keeps the lease longer than the timeout', () => {
    const config = loadConfig({
      WEBHOOK_RETRY_DELAYS_MS: '50, 100',
      WEBHOOK_TIMEOUT_MS: '2000',
      WEBHOOK_LEASE_MS: '500',
      WEBHOOK_WORKERS: '4',
      WEBHOOK_POLL_INTERVAL_MS: '25',
      SIMULATED_PROCESSOR_WEBHOOK_SECRET:
        'whsec_new_0123456789abcdef0123456789abcdef,whsec_old_0123456789abcdef0123456789abcdef',
    });
    expect(config.delivery).toMatchObject({
      retryDelaysMs: [50, 100],
      timeoutMs: 2_000,
      leaseMs: 3_000,
      workers: 4,
      pollIntervalMs: 25,
    });
    expect(config.payments.simulatedWebhookSecrets).toEqual([
      'whsec_new_0123456789abcdef0123456789abcdef',
      'whsec_old_0123456789abcdef0123456789abcdef',
    ]);
  });

  it('rejects bad values and a Stripe provider without its secrets', () => {
    expect(() => loadConfig({ WEBHOOK_RETRY_DELAYS_MS: 'soon' })).toThrow(ConfigError);
    expect(() => loadConfig({ PAYMENTS_PROVIDER: 'stripe' })).toThrow(/STRIPE_TEST_SECRET_KEY/);
    expect(
      loadConfig({ PAYMENTS_PROVIDER: 'stripe', STRIPE_TEST_SECRET_KEY: 'sk_test_x', STRIPE_WEBHOOK_SECRET: 'whsec_x' })
        .payments.stripe,
    ).toMatchObject({ testSecretKey: 'sk_test_x', webhookSecrets: ['whsec_x'] });
  });
});

describe('WEBHOOK_SECRET_KEYS', () => {
  const key = (kid: string, fill: number) => `${kid}:${Buffer.alloc(32, fill).toString('base64')}`;

  it('is optional in embedded mode (main.ts then uses DATA_DIR/webhook-secret-keys) and parsed when given', () => {
    expect(loadConfig({}).webhookSecretKeys).toBeUndefined();
    const config = loadConfig({ WEBHOOK_SECRET_KEYS: `${key('k2', 2)},${key('k1', 1)}` });
    expect(config.webhookSecretKeys?.map((k) => k.kid)).toEqual(['k2', 'k1']);
  });

  it('is required with DATABASE_URL, except on an intake-only replica, with one clear line', () => {
    const deployed = {
      DATABASE_URL: 'postgresql://db/app',
      SIMULATED_PROCESSOR_WEBHOOK_SECRET: 'whsec_sim_0123456789abcdef0123456789abcdef',
    };
    expect(() => loadConfig(deployed)).toThrow(/WEBHOOK_SECRET_KEYS: required with DATABASE_URL/);
    expect(loadConfig({ ...deployed, WEBHOOK_WORKERS: '0' }).webhookSecretKeys).toBeUndefined();
    expect(loadConfig({ ...deployed, WEBHOOK_SECRET_KEYS: key('k1', 1) }).webhookSecretKeys).toHaveLength(1);
  });

  it('refuses a malformed keyring without echoing key material', () => {
    const short = `k1:${Buffer.alloc(16, 7).toString('base64')}`;
    expect(() => loadConfig({ WEBHOOK_SECRET_KEYS: short })).toThrow(
      /WEBHOOK_SECRET_KEYS: key "k1" is 16 bytes, not 32/,
    );
    expect(() => loadConfig({ WEBHOOK_SECRET_KEYS: short })).not.toThrow(short.slice(3));
  });
});

describe('splitDatabaseUrl', () => {
  it('moves a Prisma-style ?schema= out of the URL', () => {
    expect(splitDatabaseUrl('postgresql://postgres@127.0.0.1:5432/test?schema=w_abc&sslmode=disable')).toEqual({
      databaseUrl: 'postgresql://postgres@127.0.0.1:5432/test?sslmode=disable',
      databaseSchema: 'w_abc',
    });
    expect(splitDatabaseUrl('postgresql://db/app')).toEqual({ databaseUrl: 'postgresql://db/app' });
    expect(splitDatabaseUrl(undefined)).toEqual({});
  });
});

describe('loadConfig: production and one-line refusals', () => {
  const KEYRING = `k1:${Buffer.alloc(32, 7).toString('base64')}`;
  const refusal = (env: Record<string, string>): string => configRefusal(loadConfig, env);

  it('production: no default for DATABASE_URL, the policy token secret, the keyring or the processor', () => {
    const SECRET = 'policy-token-secret-for-config-spec-0123456789';
    expect(refusal({ NODE_ENV: 'production', SMTP_URL: 'smtp://mail:25' })).toBe(
      'Invalid configuration: DATABASE_URL: required when NODE_ENV=production; POLICY_TOKEN_SECRET: required when NODE_ENV=production',
    );
    expect(
      refusal({ NODE_ENV: 'production', SMTP_URL: 'smtp://mail:25', DATABASE_URL: 'postgresql://db/app' }),
    ).toMatch(/^Invalid configuration: WEBHOOK_SECRET_KEYS: required/);
    expect(
      refusal({
        NODE_ENV: 'production',
        SMTP_URL: 'smtp://mail:25',
        DATABASE_URL: 'postgresql://db/app',
        WEBHOOK_SECRET_KEYS: KEYRING,
      }),
    ).toBe('Invalid configuration: POLICY_TOKEN_SECRET: required when NODE_ENV=production');
    expect(
      refusal({
        NODE_ENV: 'production',
        SMTP_URL: 'smtp://mail:25',
        DATABASE_URL: 'postgresql://db/app',
        WEBHOOK_SECRET_KEYS: KEYRING,
        POLICY_TOKEN_SECRET: SECRET,
      }),
    ).toMatch(/PAYMENTS_PROVIDER: the simulated processor is refused/);
    const config = loadConfig({
      NODE_ENV: 'production',
      SMTP_URL: 'smtp://mail:25',
      DATABASE_URL: 'postgresql://db/app',
      WEBHOOK_SECRET_KEYS: KEYRING,
      POLICY_TOKEN_SECRET: SECRET,
      PAYMENTS_PROVIDER: 'stripe',
      STRIPE_TEST_SECRET_KEY: 'sk_test_1',
      STRIPE_WEBHOOK_SECRET: 'whsec_1',
    });
    expect(config.policyTokens).toEqual({ secret: SECRET, previous: undefined });
    expect(config.payments.provider).toBe('stripe');
  });

  it('production: policyholder mails need SMTP_URL, unless this replica sends none (MAIL_WORKERS=0)', () => {
    const deployed = {
      NODE_ENV: 'production',
      DATABASE_URL: 'postgresql://db/app',
      WEBHOOK_SECRET_KEYS: KEYRING,
      POLICY_TOKEN_SECRET: 'p'.repeat(40),
      PAYMENTS_PROVIDER: 'stripe',
      STRIPE_TEST_SECRET_KEY: 'sk_test_1',
      STRIPE_WEBHOOK_SECRET: 'whsec_1',
    };
    expect(refusal(deployed)).toMatch(/SMTP_URL: required when NODE_ENV=production/);
    expect(loadConfig({ ...deployed, MAIL_WORKERS: '0' }).mail.workers).toBe(0);
    expect(
      loadConfig({ ...deployed, SMTP_URL: 'smtps://mail.example.test:465', MAIL_FROM: 'Policies <p@x.test>' }).mail,
    ).toMatchObject({ smtpUrl: 'smtps://mail.example.test:465', from: 'Policies <p@x.test>', workers: 1 });
  });

  it.each([
    [{ DATABASE_URL: 'mysql://db/app' }, 'DATABASE_URL'],
    [{ DISPATCHER_PORT: '99999' }, 'DISPATCHER_PORT'],
    [{ WEBHOOK_RETRY_DELAYS_MS: 'soon' }, 'WEBHOOK_RETRY_DELAYS_MS'],
    [{ WEBHOOK_SECRET_KEYS: 'k1:short' }, 'WEBHOOK_SECRET_KEYS'],
    [{ POLICY_TOKEN_SECRET: 'short' }, 'POLICY_TOKEN_SECRET'],
  ])('refuses %j in one line naming %s', (env, name) => {
    expect(refusal(env)).toMatch(new RegExp(`^Invalid configuration: .*${name}`));
  });
});
