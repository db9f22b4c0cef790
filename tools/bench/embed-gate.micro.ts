/**
 * Micro-benchmark (in process, no sockets), for profiling the embed gate: the gate's own cost per admitted request,
 * as the time of `createEmbedGate(...)(req, res, next)` on a real Express request and response, minus the same loop
 * without the gate. Cached key, in-memory limiter (the embedded-mode gate of the `embed_gate` row). Alternating rounds,
 * medians: on a shared machine only the difference of the two is worth reading.
 *
 *   TSX_TSCONFIG_PATH=tools/tsconfig.json node [--cpu-prof] --import tsx tools/bench/embed-gate.micro.ts
 *   (BENCH_REQUESTS per round, default 20000; BENCH_ROUNDS, default 21)
 */
import http from 'node:http';
import { Socket } from 'node:net';
import express, { type RequestHandler } from 'express';
import { createCachedKeyResolver, createEmbedGate, mintPublishableKey } from '@expedition/auth-publishable-key';
import { createRateLimiter } from '@expedition/platform';
import { median } from './load';

const ORIGIN = 'https://tours.example';
const key = mintPublishableKey('test');
const resolver = createCachedKeyResolver({
  loadKey: async () => ({
    keyId: 'key_1',
    operatorId: 'op_1',
    mode: 'test',
    revokedAt: null,
    expiresAt: null,
    operator: { status: 'active', embeddingEnabled: true },
    allowedOrigins: [ORIGIN],
  }),
});
const gate = createEmbedGate({
  resolveKey: resolver.resolve,
  rateLimiter: createRateLimiter({ points: 1_000_000_000, durationSec: 60 }),
  firstPartyOrigins: ['http://localhost:3003'],
  testDashboardOrigins: ['http://localhost:3004'],
  allowQueryKey: () => true,
});

const app = express();
const socket = new Socket();

/** What Express's own init step makes of an incoming request: the app's request and response prototypes. */
function exchange(): { req: express.Request; res: express.Response } {
  const req = new http.IncomingMessage(socket);
  req.method = 'GET';
  req.url = '/api/embed/options?quoteId=q';
  req.headers = { host: 'embed.example', origin: ORIGIN, 'x-svc-publishable-key': key };
  const res = new http.ServerResponse(req);
  Object.setPrototypeOf(req, app.request);
  Object.setPrototypeOf(res, app.response);
  Object.assign(req, { res, app });
  Object.assign(res, { req, app, locals: Object.create(null) });
  return { req: req as express.Request, res: res as unknown as express.Response };
}

const passThrough: RequestHandler = (_req, _res, next) => next();

/** Mean µs per request of `handler` over `n` requests, one at a time (each waits for its `next`). */
async function round(handler: RequestHandler, n: number): Promise<number> {
  const started = process.hrtime.bigint();
  for (let i = 0; i < n; i++) {
    const { req, res } = exchange();
    await new Promise<void>((admitted) => void handler(req, res, () => admitted()));
  }
  return Number(process.hrtime.bigint() - started) / n / 1000;
}

async function main(): Promise<void> {
  const n = Number(process.env.BENCH_REQUESTS ?? 20_000);
  const rounds = Number(process.env.BENCH_ROUNDS ?? 21);
  const gated: number[] = [];
  const bare: number[] = [];
  for (let i = 0; i < rounds; i++) {
    gated.push(await round(gate, n));
    bare.push(await round(passThrough, n));
  }
  const [g, b] = [median(gated), median(bare)];
  console.log(
    `embed gate, own cost per admitted request: ${(g - b).toFixed(2)} µs ` +
      `(with the gate ${g.toFixed(2)} µs, without ${b.toFixed(2)} µs; medians of ${rounds} rounds of ${n})`,
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
