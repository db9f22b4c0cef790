import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { configRefusal } from '@expedition/platform/testing';
import { loadConfig } from './config';

/** Ports and URLs follow PORT_BASE unless set one by one (libs/platform service-ports.ts, README "Configuration"). */
describe('webhook-dispatcher config: PORT_BASE, *_PORT, *_URL', () => {
  const DATA_DIR = mkdtempSync(path.join(os.tmpdir(), 'dispatcher-config-ports-'));

  it("PORT_BASE moves its port, its own intake (the simulated processor's target) and quote-api's URL", () => {
    const config = loadConfig({ DATA_DIR, PORT_BASE: '5000' });
    expect(config.port).toBe(5005);
    expect(config.quoteApiUrl).toBe('http://localhost:5001');
    expect(config.payments.simulatedWebhookUrl).toBe('http://localhost:5005/processor/events');
  });

  it('an explicit *_PORT wins, and the URLs follow it', () => {
    const config = loadConfig({ DATA_DIR, PORT_BASE: '5000', DISPATCHER_PORT: '6005', QUOTE_API_PORT: '6001' });
    expect(config.port).toBe(6005);
    expect(config.quoteApiUrl).toBe('http://localhost:6001');
    expect(config.payments.simulatedWebhookUrl).toBe('http://localhost:6005/processor/events');
  });

  it('an explicit *_URL wins; the ports still follow PORT_BASE', () => {
    const config = loadConfig({
      DATA_DIR,
      PORT_BASE: '5000',
      QUOTE_API_URL: 'https://quotes.example.com/',
      SIMULATED_PROCESSOR_WEBHOOK_URL: 'http://intake.test/processor/events',
    });
    expect(config.port).toBe(5005);
    expect(config.quoteApiUrl).toBe('https://quotes.example.com');
    expect(config.payments.simulatedWebhookUrl).toBe('http://intake.test/processor/events');
  });

  it.each(['many', '64336'])('a bad PORT_BASE (%s) is a one-line ConfigError', (value) => {
    expect(configRefusal(loadConfig, { DATA_DIR, PORT_BASE: value })).toMatch(/^Invalid configuration: PORT_BASE: /);
  });
});
