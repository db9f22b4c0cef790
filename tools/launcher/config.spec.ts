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

/** One setting moves every app and every link between them (libs/platform service-ports.ts, README "Configuration"). */
describe('loadLauncherConfig: PORT_BASE, *_PORT, *_URL', () => {
  const endpoints = (env: Record<string, string>) => {
    const { apps, demo } = loadLauncherConfig(env, { installationSecret: secret });
    return {
      ports: [apps.quote.port, apps.embed.port, apps.widget.port, apps.portal.port, apps.dispatcher.port, demo.port],
      quote: [apps.quote.publicUrl, apps.embed.quoteApiUrl, apps.widget.quoteApiUrl, apps.portal.urls.quoteApi],
      embed: [apps.embed.publicUrl, apps.widget.embedUrl, apps.portal.urls.embed],
      widget: [apps.widget.publicUrl, apps.embed.firstPartyOrigins[0], apps.portal.urls.widget],
      portal: [apps.portal.urls.portal, apps.widget.portalUrl, apps.embed.testDashboardOrigins[0]],
      dispatcher: [apps.quote, apps.embed, apps.dispatcher].map((app) => app.payments.simulatedWebhookUrl),
      certificates: apps.dispatcher.quoteApiUrl,
      demo: demo.url,
    };
  };
  const at = (port: number, times: number) => Array(times).fill(`http://localhost:${port}`);
  /** Every port and URL when all follow `base`: each app at base + its offset, the demo site at base + 1200. */
  const following = (base: number) => ({
    ports: [1, 2, 3, 4, 5, 1200].map((offset) => base + offset),
    quote: at(base + 1, 4),
    embed: at(base + 2, 3),
    widget: at(base + 3, 3),
    portal: at(base + 4, 3),
    dispatcher: Array(3).fill(`http://localhost:${base + 5}/processor/events`),
    certificates: `http://localhost:${base + 1}`,
    demo: `http://localhost:${base + 1200}`,
  });

  it("keeps today's defaults without PORT_BASE: 3001–3005 and the demo site on 4200", () => {
    expect(endpoints({})).toEqual(following(3000));
    expect(following(3000).ports).toEqual([3001, 3002, 3003, 3004, 3005, 4200]);
  });

  it('PORT_BASE moves every port and every URL, the links between the apps included', () => {
    expect(endpoints({ PORT_BASE: '5000' })).toEqual(following(5000));
  });

  it('an explicit *_PORT wins over PORT_BASE, and every URL of that app follows it', () => {
    const moved = endpoints({ PORT_BASE: '5000', WIDGET_PORT: '7003', DISPATCHER_PORT: '7005', DEMO_PORT: '7200' });
    expect(moved.ports).toEqual([5001, 5002, 7003, 5004, 7005, 7200]);
    expect(moved.widget).toEqual(at(7003, 3));
    expect(moved.dispatcher).toEqual(Array(3).fill('http://localhost:7005/processor/events'));
    expect(moved.demo).toBe('http://localhost:7200');
    expect(moved.portal).toEqual(at(5004, 3));
  });

  it('an explicit *_URL wins everywhere it is read; the ports still follow PORT_BASE', () => {
    const moved = endpoints({
      PORT_BASE: '5000',
      QUOTE_API_URL: 'https://quotes.example.com/',
      PORTAL_URL: 'https://portal.example.com',
      DEMO_URL: 'https://demo.example.com',
    });
    expect(moved.ports).toEqual([5001, 5002, 5003, 5004, 5005, 6200]);
    expect(moved.quote).toEqual(Array(4).fill('https://quotes.example.com'));
    expect(moved.certificates).toBe('https://quotes.example.com');
    expect(moved.portal).toEqual(Array(3).fill('https://portal.example.com'));
    expect(moved.demo).toBe('https://demo.example.com');
    expect(moved.embed).toEqual(at(5002, 3));
  });

  it.each(['many', '5000.5', '64336', '65000'])('a bad PORT_BASE (%s) is a one-line ConfigError naming it', (value) => {
    expect(() => loadLauncherConfig({ PORT_BASE: value }, { installationSecret: secret })).toThrow(
      /^Invalid configuration: PORT_BASE: [^\n]+$/,
    );
  });
});
