import { createServer, type AddressInfo, type Server } from 'node:net';

/** Every port this process has handed out: a suite that asks twice never gets one port for two servers. */
const handedOut = new Set<number>();

/**
 * `n` different TCP ports that nothing listens on, chosen by the OS: one server per port listens on port 0 (every
 * address) until all `n` are picked, so they differ, then all close and the caller binds them. A port this process
 * handed out before is skipped. Two test runs on one machine therefore never share a port, except in the moment
 * between this closing a port and the caller binding it.
 */
export async function freePorts(n: number): Promise<number[]> {
  const held: Server[] = [];
  const ports: number[] = [];
  try {
    while (ports.length < n) {
      const server = createServer();
      held.push(server);
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen({ port: 0 }, () => resolve());
      });
      const { port } = server.address() as AddressInfo;
      if (!handedOut.has(port)) ports.push(port);
    }
  } finally {
    await Promise.all(held.map((s) => new Promise((resolve) => s.close(resolve))));
  }
  for (const p of ports) handedOut.add(p);
  return ports;
}

/** One port as {@link freePorts} picks it. */
export async function freePort(): Promise<number> {
  const [port] = await freePorts(1);
  return port!;
}
