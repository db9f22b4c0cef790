import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { configRefusal } from '@expedition/platform/testing';
import { loadConfig } from './config';

/** Ports and URLs follow PORT_BASE unless set one by one (libs/platform service-ports.ts, README "Configuration"). */
describe('quote-api config: PORT_BASE, *_PORT, *_URL', () => {
  const DATA_DIR = mkdtempSync(path.join(os.tmpdir(), 'quote-api-config-ports-spec-'));

  it('PORT_BASE moves its port, its public URL and the dispatcher intake it reports payments to', () => {
    const config = loadConfig({ DATA_DIR, PORT_BASE: '5000' });
    expect(config.port).toBe(5001);
    expect(config.publicUrl).toBe('http://localhost:5001');
    expect(config.payments.simulatedWebhookUrl).toBe('http://localhost:5005/processor/events');
  });

  it('an explicit QUOTE_API_PORT wins, and the URL follows it', () => {
    const config = loadConfig({ DATA_DIR, PORT_BASE: '5000', QUOTE_API_PORT: '6001', DISPATCHER_PORT: '6005' });
    expect(config).toMatchObject({ port: 6001, publicUrl: 'http://localhost:6001' });
    expect(config.payments.simulatedWebhookUrl).toBe('http://localhost:6005/processor/events');
  });

  it('an explicit QUOTE_API_URL wins; the port still follows PORT_BASE', () => {
    const config = loadConfig({ DATA_DIR, PORT_BASE: '5000', QUOTE_API_URL: 'https://quotes.example.com/' });
    expect(config).toMatchObject({ port: 5001, publicUrl: 'https://quotes.example.com' });
  });

  it.each(['many', '64336'])('a bad PORT_BASE (%s) is a one-line ConfigError', (value) => {
    expect(configRefusal(loadConfig, { DATA_DIR, PORT_BASE: value })).toMatch(/^Invalid configuration: PORT_BASE: /);
  });
});
