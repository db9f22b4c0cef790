import { ConfigError } from '@expedition/platform';
import { loadLauncherConfig } from './config';

const secret = (dataDir: string) => `installation-secret-of-${dataDir}-0123456789abcdef`;

describe('loadLauncherConfig', () => {
  it("builds every app's config once, pointing the simulated processor at this process's dispatcher", () => {
    const config = loadLauncherConfig({ DISPATCHER_PORT: '3105' }, { installationSecret: secret });
    expect(config).toMatchObject({ logLevel: 'warn', host: '0.0.0.0', dataDir: '.data', redisIgnored: false });
    expect(config.demo).toEqual({ port: 4200, url: 'http://localhost:4200' });
    expect(config.apps.dispatcher.port).toBe(3105);
    for (const app of [config.apps.quote, config.apps.embed, config.apps.dispatcher]) {
      expect(app.payments.simulatedWebhookUrl).toBe('http://localhost:3105/processor/events');
      expect(app.payments.simulatedWebhookSecrets).toEqual([secret('.data')]);
    }
    // The certificate links of policy.issued (dispatcher) and of receipts (embed-api) point at this quote-api.
    const moved = loadLauncherConfig({ QUOTE_API_PORT: '3101' }, { installationSecret: secret });
    expect(moved.apps.dispatcher.quoteApiUrl).toBe(moved.apps.quote.publicUrl);
    expect(moved.apps.embed.quoteApiUrl).toBe(moved.apps.quote.publicUrl);
    expect(moved.apps.quote.publicUrl).toBe('http://localhost:3101');
  });

  it('keeps what is set explicitly, and writes nothing back to the environment it was given', () => {
    const env = Object.freeze({
      SIMULATED_PROCESSOR_WEBHOOK_URL: 'http://intake.test/processor/events',
      SIMULATED_PROCESSOR_WEBHOOK_SECRET: 'whsec_explicit_0123456789abcdef0123456789',
      DEMO_URL: 'http://demo.test:4300/',
      REDIS_URL: 'redis://127.0.0.1:6379',
      DATA_DIR: '/tmp/launcher-data',
    });
    const before = { ...process.env };
    const config = loadLauncherConfig(env, { installationSecret: () => 'never' });
    expect(config.apps.quote.payments).toMatchObject({
      simulatedWebhookUrl: 'http://intake.test/processor/events',
      simulatedWebhookSecrets: ['whsec_explicit_0123456789abcdef0123456789'],
    });
    expect(config.demo.url).toBe('http://demo.test:4300');
    expect(config.redisIgnored).toBe(true);
    expect(config.apps.embed.dataDir).toBe('/tmp/launcher-data');
    expect(process.env).toEqual(before);
  });

  it('stops on a bad variable with one line naming it', () => {
    expect(() => loadLauncherConfig({ DEMO_PORT: 'soon' }, { installationSecret: secret })).toThrow(ConfigError);
    expect(() => loadLauncherConfig({ DEMO_PORT: 'soon' }, { installationSecret: secret })).toThrow(
      /^Invalid configuration: DEMO_PORT: [^\n]+$/,
    );
    expect(() => loadLauncherConfig({ QUOTE_API_PORT: '-1' }, { installationSecret: secret })).toThrow(
      /QUOTE_API_PORT/,
    );
  });
});
