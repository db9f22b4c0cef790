import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifySignature } from '@expedition/webhook-signature';

/**
 * What a Service / load balancer does in front of the dispatcher replicas' processor intake: round robin, and a
 * backend that refuses the connection (killed) is skipped for the next one. A backend that dies mid-request is a 502
 * to the caller, which the processor retries (Stripe does the same; the intake is idempotent on the event id).
 */
export interface LoadBalancer {
  url: string;
  /** Requests answered 502 because the chosen backend died mid-request. */
  readonly failedRequests: number;
  close(): Promise<void>;
}

export async function startLoadBalancer(options: { port: number; backends: () => string[] }): Promise<LoadBalancer> {
  let next = 0;
  let failed = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const backends = options.backends();
      const start = next++;
      const tryBackend = (i: number) => {
        if (i >= backends.length) {
          failed++;
          res.writeHead(502).end('no backend');
          return;
        }
        const target = new URL(req.url ?? '/', backends[(start + i) % backends.length]);
        const headers = { ...req.headers, host: target.host, 'content-length': String(body.length) };
        const upstream = http.request(target, { method: req.method, headers }, (up) => {
          res.writeHead(up.statusCode ?? 502, up.headers);
          up.pipe(res);
        });
        upstream.on('error', (err: NodeJS.ErrnoException) => {
          // Refused: the replica is down, try the next one. Anything else: the request may have been processed.
          if (err.code === 'ECONNREFUSED') return tryBackend(i + 1);
          failed++;
          if (!res.headersSent) res.writeHead(502).end('backend failed');
          else res.destroy();
        });
        upstream.end(body);
      };
      tryBackend(0);
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get failedRequests() {
      return failed;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface Delivery {
  eventId: string;
  type: string;
  policyNumber: string | undefined;
  quoteId: string | undefined;
  receivedAt: number;
}

/** The operator's webhook endpoint: verifies `X-SVC-Signature` over the raw body and records every delivery. */
export interface WebhookReceiver {
  url: string;
  deliveries: Delivery[];
  /** Deliveries refused because the signature did not verify (must stay 0). */
  readonly badSignatures: number;
  setSecret(secret: string): void;
  /** Delay before answering 200, so a replica killed mid-burst is likely to die with deliveries in flight. */
  setDelayMs(ms: number): void;
  close(): Promise<void>;
}

export async function startWebhookReceiver(options: { port: number }): Promise<WebhookReceiver> {
  const deliveries: Delivery[] = [];
  let secret = '';
  let delayMs = 0;
  let bad = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks);
      const verdict = verifySignature({
        rawBody,
        header: req.headers['x-svc-signature'] as string | undefined,
        secrets: [secret],
      });
      if (!verdict.ok) {
        bad++;
        res.writeHead(400).end(verdict.reason);
        return;
      }
      const payload = JSON.parse(rawBody.toString('utf8')) as Record<string, unknown>;
      const answer = () => {
        deliveries.push({
          eventId: String(payload['eventId']),
          type: String(payload['type']),
          policyNumber: payload['policyNumber'] as string | undefined,
          quoteId: payload['quoteId'] as string | undefined,
          receivedAt: Date.now(),
        });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');
      };
      if (delayMs > 0) setTimeout(answer, delayMs);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/policy-issued`,
    deliveries,
    get badSignatures() {
      return bad;
    },
    setSecret: (s) => (secret = s),
    setDelayMs: (ms) => (delayMs = ms),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
