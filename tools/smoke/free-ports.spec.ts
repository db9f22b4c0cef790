import { execFileSync } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';

const { freePorts } = require('./free-ports.cjs') as { freePorts(n: number): Promise<number[]> };

const listen = (port: number) =>
  new Promise<net.Server>((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject).listen(port, () => resolve(server));
  });
const close = (server: net.Server) => new Promise<void>((resolve) => server.close(() => resolve()));

describe('tools/smoke/free-ports.cjs (the smoke test of npm start picks its ports with it)', () => {
  it('gives distinct ports that can be bound at once, never one another process holds', async () => {
    const held = await listen(0);
    const heldPort = (held.address() as net.AddressInfo).port;
    try {
      const ports = await freePorts(20);
      expect(new Set(ports).size).toBe(20);
      expect(ports).not.toContain(heldPort);
      const servers = await Promise.all(ports.map(listen));
      await Promise.all(servers.map(close));
    } finally {
      await close(held);
    }
  });

  it('prints them space-separated for `read -r` in the script, and refuses a bad count', () => {
    const script = path.join(__dirname, 'free-ports.cjs');
    const out = execFileSync(process.execPath, [script, '6'], { encoding: 'utf8' });
    expect(out).toMatch(/^\d+( \d+){5}\n$/);
    expect(() => execFileSync(process.execPath, [script, 'six'], { stdio: 'pipe' })).toThrow(/usage/);
  });
});
