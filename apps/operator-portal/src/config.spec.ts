import { ConfigError } from '@expedition/platform';
import { loadConfig } from './config';

const KEYRING = `k1:${Buffer.alloc(32, 7).toString('base64')}`;

describe('operator-portal config', () => {
  it('defaults: port 3004, localhost URLs, outbox under DATA_DIR, 30 min idle / 12 h absolute sessions', () => {
    const config = loadConfig({ DATA_DIR: '/data' });
    expect(config).toMatchObject({
      port: 3004,
      production: false,
      embedded: true,
      urls: {
        portal: 'http://localhost:3004',
        widget: 'http://localhost:3003',
        embed: 'http://localhost:3002',
        quoteApi: 'http://localhost:3001',
      },
      outboxDir: '/data/outbox',
      sessionIdleMs: 30 * 60_000,
      sessionAbsoluteMs: 12 * 3600_000,
    });
    expect(config.smtpUrl).toBeUndefined();
  });

  it('reads every variable', () => {
    const config = loadConfig({
      PORTAL_PORT: '8080',
      PORTAL_URL: 'https://portal.example.com/',
      WIDGET_URL: 'https://widget.example.com',
      EMBED_URL: 'https://embed.example.com',
      QUOTE_API_URL: 'https://api.example.com',
      DATABASE_URL: 'postgresql://db/portal',
      REDIS_URL: 'redis://cache:6379',
      SMTP_URL: 'smtps://user:pass@smtp.example.com',
      MAIL_FROM: 'Portal <portal@example.com>',
      PORTAL_SESSION_IDLE_MINUTES: '15',
      PORTAL_SESSION_ABSOLUTE_HOURS: '8',
      NODE_ENV: 'production',
      TRUST_PROXY: '1',
      WEBHOOK_SECRET_KEYS: KEYRING,
    });
    expect(config).toMatchObject({
      port: 8080,
      production: true,
      embedded: false,
      urls: { portal: 'https://portal.example.com', widget: 'https://widget.example.com' },
      redisUrl: 'redis://cache:6379',
      smtpUrl: 'smtps://user:pass@smtp.example.com',
      mailFrom: 'Portal <portal@example.com>',
      sessionIdleMs: 15 * 60_000,
      sessionAbsoluteMs: 8 * 3600_000,
      trustProxy: 1, // a number of proxies, as Express reads a number (the string "1" would be an address)
      webhookSecretKeys: KEYRING,
    });
  });

  it('production requires SMTP_URL (no outbox in production)', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', DATABASE_URL: 'postgresql://db/x' })).toThrow(ConfigError);
    expect(() => loadConfig({ NODE_ENV: 'production', DATABASE_URL: 'postgresql://db/x' })).toThrow(/SMTP_URL/);
  });

  it('refuses malformed values with one line naming them', () => {
    expect(() => loadConfig({ SMTP_URL: 'http://smtp', PORTAL_URL: 'ftp://x' })).toThrow(/SMTP_URL.*|PORTAL_URL/);
    expect(() => loadConfig({ PORTAL_SESSION_IDLE_MINUTES: '0' })).toThrow(/PORTAL_SESSION_IDLE_MINUTES/);
  });

  it('production: no default for DATABASE_URL, SMTP_URL or WEBHOOK_SECRET_KEYS, named in one line', () => {
    let message = '';
    try {
      loadConfig({ NODE_ENV: 'production' });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toBe(
      'Invalid configuration: DATABASE_URL: required when NODE_ENV=production; SMTP_URL: required when NODE_ENV=production; WEBHOOK_SECRET_KEYS: required when NODE_ENV=production',
    );
    const config = loadConfig({
      NODE_ENV: 'production',
      DATABASE_URL: 'postgresql://db/x',
      SMTP_URL: 'smtp://mail:25',
      WEBHOOK_SECRET_KEYS: KEYRING,
    });
    expect(config.production).toBe(true);
  });

  it('deployed (DATABASE_URL) without the keyring, or with a bad one: one line naming WEBHOOK_SECRET_KEYS, never key material', () => {
    expect(() => loadConfig({ DATABASE_URL: 'postgresql://db/x' })).toThrow(
      /^Invalid configuration: WEBHOOK_SECRET_KEYS: required with DATABASE_URL/,
    );
    let message = '';
    try {
      loadConfig({ DATABASE_URL: 'postgresql://db/x', WEBHOOK_SECRET_KEYS: 'k1:c2hvcnQta2V5' });
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      message = (err as Error).message;
    }
    expect(message).toMatch(/^Invalid configuration: WEBHOOK_SECRET_KEYS: key "k1" is 9 bytes, not 32/);
    expect(message).not.toContain('c2hvcnQta2V5');
    expect(message).not.toContain('\n');
  });

  it('embedded (no DATABASE_URL, NODE_ENV unset) needs no keyring: it is generated under DATA_DIR', () => {
    expect(loadConfig({}).webhookSecretKeys).toBeUndefined();
  });
});
