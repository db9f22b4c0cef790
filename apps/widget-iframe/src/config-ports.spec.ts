import { configRefusal } from '@expedition/platform/testing';
import { loadConfig } from './config';

/** Ports and URLs follow PORT_BASE unless set one by one (libs/platform service-ports.ts, README "Configuration"). */
describe('widget-iframe config: PORT_BASE, *_PORT, *_URL', () => {
  it('PORT_BASE moves its port and every URL it reads: its own, embed-api, the portal, quote-api', () => {
    expect(loadConfig({ PORT_BASE: '5000' })).toMatchObject({
      port: 5003,
      publicUrl: 'http://localhost:5003',
      embedUrl: 'http://localhost:5002',
      embedOrigin: 'http://localhost:5002',
      portalUrl: 'http://localhost:5004',
      testDashboardOrigins: ['http://localhost:5004'],
      quoteApiUrl: 'http://localhost:5001',
    });
  });

  it('an explicit *_PORT wins (its own and another app’s), and the URL follows it', () => {
    expect(loadConfig({ PORT_BASE: '5000', WIDGET_PORT: '6003', EMBED_API_PORT: '6002' })).toMatchObject({
      port: 6003,
      publicUrl: 'http://localhost:6003',
      embedUrl: 'http://localhost:6002',
      portalUrl: 'http://localhost:5004',
    });
  });

  it('an explicit *_URL wins; the ports still follow PORT_BASE', () => {
    const config = loadConfig({
      PORT_BASE: '5000',
      WIDGET_URL: 'https://widget.example.com/',
      EMBED_URL: 'https://embed.example.com',
      PORTAL_URL: 'https://portal.example.com',
      QUOTE_API_URL: 'https://quotes.example.com',
    });
    expect(config).toMatchObject({
      port: 5003,
      publicUrl: 'https://widget.example.com',
      embedOrigin: 'https://embed.example.com',
      testDashboardOrigins: ['https://portal.example.com'],
      quoteApiUrl: 'https://quotes.example.com',
    });
  });

  it.each(['many', '64336'])('a bad PORT_BASE (%s) is a one-line ConfigError', (value) => {
    expect(configRefusal(loadConfig, { PORT_BASE: value })).toMatch(/^Invalid configuration: PORT_BASE: /);
  });
});
