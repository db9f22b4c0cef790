import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  headers: IncomingMessage['headers'];
  body: Buffer;
  eventId: string | undefined;
  /** Other requests for the same eventId in flight when this one arrived. */
  concurrentSameEvent: number;
}

export type ReceiverReply = number | 'hang' | { status: number; delayMs: number };

export interface Receiver {
  url: string;
  requests: ReceivedRequest[];
  /** Decides each reply from the request number (1-based). */
  setReply(reply: (n: number, req: ReceivedRequest) => ReceiverReply): void;
  /** Resolves when the n-th request has arrived. */
  arrived(n: number): Promise<void>;
  close(): Promise<void>;
}

export async function startReceiver(
  reply: (n: number, req: ReceivedRequest) => ReceiverReply = () => 200,
  port = 0,
): Promise<Receiver> {
  let decide = reply;
  const requests: ReceivedRequest[] = [];
  const inFlight = new Map<string, number>();
  const waiters: { n: number; resolve: () => void }[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      let eventId: string | undefined;
      try {
        eventId = (JSON.parse(body.toString('utf8')) as { eventId?: string }).eventId;
      } catch {
        eventId = undefined;
      }
      const key = eventId ?? '';
      const concurrent = inFlight.get(key) ?? 0;
      inFlight.set(key, concurrent + 1);
      const received: ReceivedRequest = { headers: req.headers, body, eventId, concurrentSameEvent: concurrent };
      requests.push(received);
      for (const w of waiters.filter((w) => requests.length >= w.n)) w.resolve();
      const answer = decide(requests.length, received);
      const finish = (status: number) => {
        inFlight.set(key, (inFlight.get(key) ?? 1) - 1);
        res.statusCode = status;
        res.end(status < 300 ? 'ok' : 'nope');
      };
      if (answer === 'hang') {
        req.socket.on('close', () => inFlight.set(key, (inFlight.get(key) ?? 1) - 1));
        return;
      }
      if (typeof answer === 'number') return finish(answer);
      setTimeout(() => finish(answer.status), answer.delayMs);
    });
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', resolve));
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${bound}/hooks`,
    requests,
    setReply(next) {
      decide = next;
    },
    arrived(n) {
      if (requests.length >= n) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ n, resolve }));
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A loopback URL nobody listens on (connection refused). */
export async function deadUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/hooks`;
}
