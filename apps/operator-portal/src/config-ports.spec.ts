import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { configRefusal } from '@expedition/platform/testing';
import { loadConfig } from './config';

/** Ports and URLs follow PORT_BASE unless set one by one (libs/platform service-ports.ts, README "Configuration"). */
describe('operator-portal config: PORT_BASE, *_PORT, *_URL', () => {
  const DATA_DIR = mkdtempSync(path.join(os.tmpdir(), 'portal-config-ports-spec-'));

  it('PORT_BASE moves its port and every URL it shows: its own, quote-api, embed-api, the widget', () => {
    expect(loadConfig({ DATA_DIR, PORT_BASE: '5000' })).toMatchObject({
      port: 5004,
      urls: {
        portal: 'http://localhost:5004',
        quoteApi: 'http://localhost:5001',
        embed: 'http://localhost:5002',
        widget: 'http://localhost:5003',
      },
    });
  });

  it('an explicit *_PORT wins (its own and another app’s), and the URL follows it', () => {
    expect(loadConfig({ DATA_DIR, PORT_BASE: '5000', PORTAL_PORT: '6004', WIDGET_PORT: '6003' })).toMatchObject({
      port: 6004,
      urls: { portal: 'http://localhost:6004', widget: 'http://localhost:6003', embed: 'http://localhost:5002' },
    });
  });

  it('an explicit *_URL wins; the ports still follow PORT_BASE', () => {
    const config = loadConfig({
      DATA_DIR,
      PORT_BASE: '5000',
      PORTAL_URL: 'https://portal.example.com/',
      EMBED_URL: 'https://embed.example.com',
    });
    expect(config).toMatchObject({
      port: 5004,
      urls: {
        portal: 'https://portal.example.com',
        embed: 'https://embed.example.com',
        quoteApi: 'http://localhost:5001',
      },
    });
  });

  it.each(['many', '64336'])('a bad PORT_BASE (%s) is a one-line ConfigError', (value) => {
    expect(configRefusal(loadConfig, { DATA_DIR, PORT_BASE: value })).toMatch(/^Invalid configuration: PORT_BASE: /);
  });
});
