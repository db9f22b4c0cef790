import { ConfigError } from '@expedition/platform';
import { loadAdminConfig } from '../config';

/** `demo:ensure` points the demo operator at the launcher's demo site, wherever PORT_BASE put it. */
describe('admin config: the demo site', () => {
  it("defaults to the launcher's demo site on 4200 and its receiver", () => {
    expect(loadAdminConfig({})).toMatchObject({
      demoOrigin: 'http://localhost:4200',
      demoWebhookUrl: 'http://localhost:4200/webhooks/expedition',
    });
  });

  it('follows PORT_BASE (+1200), then DEMO_PORT, then DEMO_URL; DEMO_WEBHOOK_URL overrides the receiver', () => {
    expect(loadAdminConfig({ PORT_BASE: '5000' }).demoOrigin).toBe('http://localhost:6200');
    expect(loadAdminConfig({ PORT_BASE: '5000', DEMO_PORT: '7200' }).demoOrigin).toBe('http://localhost:7200');
    expect(loadAdminConfig({ PORT_BASE: '5000', DEMO_PORT: '7200', DEMO_URL: 'https://demo.example/' })).toMatchObject({
      demoOrigin: 'https://demo.example',
      demoWebhookUrl: 'https://demo.example/webhooks/expedition',
    });
    expect(loadAdminConfig({ DEMO_WEBHOOK_URL: 'https://hooks.example/in' }).demoWebhookUrl).toBe(
      'https://hooks.example/in',
    );
  });

  it('a bad PORT_BASE is a one-line ConfigError naming it', () => {
    expect(() => loadAdminConfig({ PORT_BASE: '64336' })).toThrow(ConfigError);
    expect(() => loadAdminConfig({ PORT_BASE: 'x' })).toThrow(/^Invalid configuration: PORT_BASE: [^\n]+$/);
  });
});
