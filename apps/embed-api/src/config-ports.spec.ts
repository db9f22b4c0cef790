import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { configRefusal } from '@expedition/platform/testing';
import { loadConfig } from './config';

/** Ports and URLs follow PORT_BASE unless set one by one (libs/platform service-ports.ts, README "Configuration"). */
describe('embed-api config: PORT_BASE, *_PORT, *_URL', () => {
  const DATA_DIR = mkdtempSync(path.join(os.tmpdir(), 'embed-api-config-ports-spec-'));

  it('PORT_BASE moves its port and every URL it reads: its own, quote-api, the widget and portal origins', () => {
    const config = loadConfig({ DATA_DIR, PORT_BASE: '5000' });
    expect(config).toMatchObject({
      port: 5002,
      publicUrl: 'http://localhost:5002',
      quoteApiUrl: 'http://localhost:5001',
      firstPartyOrigins: ['http://localhost:5003'],
      testDashboardOrigins: ['http://localhost:5004'],
    });
    expect(config.payments.simulatedWebhookUrl).toBe('http://localhost:5005/processor/events');
  });

  it('an explicit *_PORT wins (its own and another app’s), and the URL follows it', () => {
    const config = loadConfig({ DATA_DIR, PORT_BASE: '5000', EMBED_API_PORT: '6002', WIDGET_PORT: '6003' });
    expect(config).toMatchObject({
      port: 6002,
      publicUrl: 'http://localhost:6002',
      firstPartyOrigins: ['http://localhost:6003'],
      testDashboardOrigins: ['http://localhost:5004'],
    });
  });

  it('an explicit *_URL wins; the ports still follow PORT_BASE', () => {
    const config = loadConfig({
      DATA_DIR,
      PORT_BASE: '5000',
      EMBED_URL: 'https://embed.example.com/',
      QUOTE_API_URL: 'https://quotes.example.com',
      PORTAL_URL: 'https://portal.example.com/app',
    });
    expect(config).toMatchObject({
      port: 5002,
      publicUrl: 'https://embed.example.com',
      quoteApiUrl: 'https://quotes.example.com',
      firstPartyOrigins: ['http://localhost:5003'],
      testDashboardOrigins: ['https://portal.example.com'],
    });
  });

  it.each(['many', '64336'])('a bad PORT_BASE (%s) is a one-line ConfigError', (value) => {
    expect(configRefusal(loadConfig, { DATA_DIR, PORT_BASE: value })).toMatch(/^Invalid configuration: PORT_BASE: /);
  });
});
