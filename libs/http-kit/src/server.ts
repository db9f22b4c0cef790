import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import type { Logger } from '@expedition/platform';
import { answerClientError } from './client-error';

export interface RunningServer {
  server: Server;
  url: string;
  port: number;
  /** Stops accepting connections, lets in-flight requests finish (up to `graceMs`), then closes idle sockets. */
  close(graceMs?: number): Promise<void>;
}

/**
 * Serves `app` on a port. Requests Node's parser refuses before Express (headers over 16 KiB: 431; malformed: 400)
 * are answered in our error shape with a request id (client-error.ts) and logged on `logger`.
 */
export async function listen(
  app: Express,
  options: { port: number; host?: string; logger?: Pick<Logger, 'info'> },
): Promise<RunningServer> {
  const server = createServer(app);
  server.on('clientError', answerClientError(options.logger));
  // Keep-alive must outlive a typical load balancer's idle timeout (60 s) to avoid resets on reused sockets.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '0.0.0.0', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host && options.host !== '0.0.0.0' ? options.host : 'localhost';
  return {
    server,
    port,
    url: `http://${host}:${port}`,
    close: (graceMs = 10_000) =>
      new Promise<void>((resolve) => {
        const force = setTimeout(() => server.closeAllConnections(), graceMs);
        force.unref();
        server.close(() => {
          clearTimeout(force);
          resolve();
        });
        server.closeIdleConnections();
      }),
  };
}

/**
 * Runs `shutdown` once on SIGTERM/SIGINT, then exits. A second signal exits at once. `shutdown` should close servers
 * first (drain requests), then background workers, then the database.
 */
export function onShutdownSignal(logger: Logger, shutdown: () => Promise<void>): void {
  let stopping = false;
  const handler = (signal: NodeJS.Signals) => {
    if (stopping) {
      logger.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    stopping = true;
    logger.info({ signal }, 'shutting down');
    shutdown()
      .then(() => {
        logger.info('shutdown complete');
        process.exit(0);
      })
      .catch((err) => {
        logger.error({ err }, 'shutdown failed');
        process.exit(1);
      });
  };
  process.once('SIGTERM', handler);
  process.once('SIGINT', handler);
}
