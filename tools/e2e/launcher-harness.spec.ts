import { createServer, type Server } from 'node:net';
import { launch, withoutEndpoints } from './launcher-harness';

/** The launcher harness never hands the shell's ports and addresses to the apps it starts (README, "Tests"). */
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

  it('refuses to start when one of its ports is taken, naming the port, instead of talking to whatever holds it', async () => {
    const holder: Server = createServer();
    await new Promise<void>((resolve) => holder.listen({ port: 16903 }, resolve));
    try {
      await expect(launch(16900, { demoPort: 16910 })).rejects.toThrow(/port 16903 already in use/);
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });
});
