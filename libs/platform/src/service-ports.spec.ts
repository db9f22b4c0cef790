import { z } from 'zod';
import { ConfigError, envVar, parseConfig } from './env';
import { MAX_PORT_BASE, resolvePort, resolveUrl, SERVICES } from './service-ports';

/** A config that reads every service's port and URL, as the launcher's apps do between them. */
const schema = z.object({
  PORT_BASE: envVar.portBase(),
  QUOTE_API_PORT: envVar.servicePort(),
  QUOTE_API_URL: envVar.url(),
  EMBED_API_PORT: envVar.servicePort(),
  EMBED_URL: envVar.url(),
  WIDGET_PORT: envVar.servicePort(),
  WIDGET_URL: envVar.url(),
  PORTAL_PORT: envVar.servicePort(),
  PORTAL_URL: envVar.url(),
  DISPATCHER_PORT: envVar.servicePort(),
  DEMO_PORT: envVar.servicePort(),
  DEMO_URL: envVar.url(),
});
const services = Object.keys(SERVICES) as (keyof typeof SERVICES)[];
const endpoints = (env: Record<string, string>) => {
  const parsed = parseConfig(schema, env);
  return Object.fromEntries(services.map((s) => [s, `${resolvePort(s, parsed)} ${resolveUrl(s, parsed)}`]));
};

describe('service ports and URLs (PORT_BASE)', () => {
  it("keeps today's defaults: 3001…3005 and the demo site on 4200, each URL on localhost", () => {
    expect(endpoints({})).toEqual({
      quoteApi: '3001 http://localhost:3001',
      embedApi: '3002 http://localhost:3002',
      widget: '3003 http://localhost:3003',
      portal: '3004 http://localhost:3004',
      dispatcher: '3005 http://localhost:3005',
      demo: '4200 http://localhost:4200',
    });
  });

  it('PORT_BASE moves every port and every URL', () => {
    expect(endpoints({ PORT_BASE: '5000' })).toEqual({
      quoteApi: '5001 http://localhost:5001',
      embedApi: '5002 http://localhost:5002',
      widget: '5003 http://localhost:5003',
      portal: '5004 http://localhost:5004',
      dispatcher: '5005 http://localhost:5005',
      demo: '6200 http://localhost:6200',
    });
  });

  it("a service's own *_PORT wins over PORT_BASE, and its URL follows it", () => {
    const moved = endpoints({ PORT_BASE: '5000', WIDGET_PORT: '7003', DEMO_PORT: '0' });
    expect(moved['widget']).toBe('7003 http://localhost:7003');
    expect(moved['demo']).toBe('0 http://localhost:0');
    expect(moved['portal']).toBe('5004 http://localhost:5004');
  });

  it("a service's own *_URL wins (trailing slashes dropped); its port still follows PORT_BASE", () => {
    const moved = endpoints({ PORT_BASE: '5000', QUOTE_API_URL: 'https://quotes.example.com/', QUOTE_API_PORT: '' });
    expect(moved['quoteApi']).toBe('5001 https://quotes.example.com');
  });

  it.each([['soon'], ['3000.5'], ['-1'], [String(MAX_PORT_BASE + 1)], ['65535']])(
    'a bad PORT_BASE (%s) is a one-line ConfigError naming it',
    (value) => {
      let error: unknown;
      try {
        endpoints({ PORT_BASE: value });
      } catch (err) {
        error = err;
      }
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toMatch(/^Invalid configuration: PORT_BASE: [^\n]+$/);
    },
  );

  it('the highest PORT_BASE puts the demo site on 65535', () => {
    expect(MAX_PORT_BASE).toBe(64335);
    expect(endpoints({ PORT_BASE: String(MAX_PORT_BASE) })['demo']).toBe('65535 http://localhost:65535');
  });

  it('a config must read the variables of the service it resolves (checked by the compiler)', () => {
    const partial = parseConfig(z.object({ PORT_BASE: envVar.portBase(), WIDGET_PORT: envVar.servicePort() }), {});
    expect(resolvePort('widget', partial)).toBe(3003);
    // @ts-expect-error -- WIDGET_URL is not read: the widget's URL cannot be resolved from this config
    expect(resolveUrl('widget', partial)).toBe('http://localhost:3003');
    // @ts-expect-error -- PORTAL_PORT is not read
    expect(resolvePort('portal', partial)).toBe(3004);
  });
});
