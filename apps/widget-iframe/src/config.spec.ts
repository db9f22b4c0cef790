import { configRefusal } from '@expedition/platform/testing';
import { loadConfig } from './config';

const refusal = (env: Record<string, string>): string => configRefusal(loadConfig, env);

describe('widget-iframe config', () => {
  it('embedded defaults (NODE_ENV unset): port 3003, the local URLs, the simulated processor', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3003,
      publicUrl: 'http://localhost:3003',
      embedUrl: 'http://localhost:3002',
      payments: { provider: 'simulated' },
    });
  });

  it.each([
    [{ WIDGET_PORT: '-1' }, 'WIDGET_PORT'],
    [{ EMBED_URL: 'embed.example.com' }, 'EMBED_URL'],
    [{ EMBED_TEST_DASHBOARD_ORIGINS: 'https://ok.example, not an origin' }, 'EMBED_TEST_DASHBOARD_ORIGINS'],
    [{ STRIPE_TEST_PUBLISHABLE_KEY: 'sk_test_secret' }, 'STRIPE_TEST_PUBLISHABLE_KEY'],
    [{ DATABASE_URL: 'sqlite://x' }, 'DATABASE_URL'],
  ])('refuses %j in one line naming %s', (env, name) => {
    expect(refusal(env)).toMatch(new RegExp(`^Invalid configuration: .*${name}`));
  });

  it('production: DATABASE_URL required and the simulated processor refused', () => {
    expect(refusal({ NODE_ENV: 'production' })).toBe(
      'Invalid configuration: DATABASE_URL: required when NODE_ENV=production; PAYMENTS_PROVIDER: the simulated processor is refused with NODE_ENV=production; set PAYMENTS_PROVIDER=stripe',
    );
    const config = loadConfig({
      NODE_ENV: 'production',
      DATABASE_URL: 'postgresql://db/app',
      PAYMENTS_PROVIDER: 'stripe',
    });
    expect(config.payments.provider).toBe('stripe');
  });
});
