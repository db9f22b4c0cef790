import { createServer, type Server } from 'node:net';
import { freePorts, withoutEndpoints } from '@expedition/platform/testing';
import { launch, type Launched } from './launcher-harness';

/**
 * The launcher harness never hands the shell's ports and addresses to the apps it starts, and takes the ports the OS
 * picks, so two runs on one machine do not collide (README, "Tests").
 */
describe('the e2e launcher harness', () => {
  it('drops PORT_BASE, every *_PORT and every *_URL from the environment it passes on, and keeps the rest', () => {
    const env = withoutEndpoints({
      PORT_BASE: '5000',
      QUOTE_API_URL: 'http://localhost:5001',
      QUOTE_API_PORT: '5001',
      DEMO_URL: 'http://elsewhere.test',
      DATABASE_URL: 'postgresql://prod.invalid/db',
      REDIS_URL: 'redis://prod.invalid',
      PATH: '/usr/bin',
      CHROMIUM_PATH: '/usr/bin/chromium',
      URL_PREFIX: 'kept: the name does not end in _URL',
    });
    expect(env).toEqual({
      PATH: '/usr/bin',
      CHROMIUM_PATH: '/usr/bin/chromium',
      URL_PREFIX: 'kept: the name does not end in _URL',
    });
  });

  it('starts a second platform while the first runs: every port the OS picked differs, and both answer', async () => {
    const first = await launch();
    try {
      const second = await launch();
      try {
        const portsOf = (platform: Launched) => Object.values(platform.urls).map((u) => new URL(u).port);
        const all = [...portsOf(first), ...portsOf(second)];
        expect(new Set(all).size).toBe(12);
        for (const u of [...Object.values(first.urls), ...Object.values(second.urls)])
          expect((await fetch(`${u}/healthz`)).status).toBe(200);
        expect(first.dataDir).not.toBe(second.dataDir);
      } finally {
        await second.stop();
      }
    } finally {
      await first.stop();
    }
  }, 240_000);
});

describe('freePorts', () => {
  it('hands out different ports that nothing listens on, and never one it handed out before', async () => {
    const first = await freePorts(5);
    const again = await freePorts(5);
    expect(new Set([...first, ...again]).size).toBe(10);
    const servers: Server[] = [];
    try {
      for (const port of [...first, ...again]) {
        const server = createServer();
        servers.push(server);
        await new Promise<void>((resolve, reject) => {
          server.once('error', reject);
          server.listen({ port }, resolve);
        });
      }
    } finally {
      await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
    }
  });
});
