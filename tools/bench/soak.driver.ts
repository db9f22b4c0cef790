/**
 * The soak's load: open-loop streams at fixed rates (requests are sent on schedule whether or not earlier ones have
 * answered, up to a cap in flight), over node:http keep-alive clients, counting every answer that is not 2xx.
 */
import { Agent, request } from 'node:http';

const agent = new Agent({ keepAlive: true, maxSockets: 64 });

/** Sends one request and reads the whole answer; resolves to its status and body. */
export function send(
  method: 'GET' | 'POST',
  url: string,
  options: { body?: string; headers?: Record<string, string>; timeoutMs?: number } = {},
): Promise<{ status: number; body: string }> {
  const { body, headers = {}, timeoutMs = 10_000 } = options;
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method,
        agent,
        timeout: timeoutMs,
        headers: body === undefined ? headers : { 'Content-Type': 'application/json', ...headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end(body);
  });
}

export async function getJson<T>(url: string): Promise<T> {
  const res = await send('GET', url, { timeoutMs: 120_000 });
  if (res.status !== 200) throw new Error(`GET ${url}: ${res.status} ${res.body.slice(0, 200)}`);
  return JSON.parse(res.body) as T;
}

export function closeClients(): void {
  agent.destroy();
}

export interface Stream {
  name: string;
  /** Requests per second. */
  rate: number;
  /** Sends request number `seq`; resolves to the HTTP status of its answer. */
  fire(seq: number): Promise<number>;
}

export interface StreamStats {
  sent: number;
  ok: number;
  /** Answers that are not 2xx, and errors (socket, timeout, a failed preparation). */
  failed: number;
  /** Not sent: the stream already had `maxInFlight` requests waiting for an answer. */
  skipped: number;
  /** Failures by status or error message. */
  why: Record<string, number>;
}

export interface RunningStreams {
  stats: Record<string, StreamStats>;
  /** Stops sending and waits (at most `graceMs`) for the requests in flight. */
  stop(graceMs?: number): Promise<void>;
}

/**
 * A few requests of each stream, one at a time and not counted, before the clock starts: the first request down each
 * path compiles it (JIT, lazily built schemas), and under a busy machine that can outlast a client's timeout.
 */
export async function warmUp(streams: readonly Stream[], count = 3): Promise<void> {
  for (const s of streams) for (let i = 0; i < count; i++) await s.fire(i).catch(() => undefined);
}

export function startStreams(streams: readonly Stream[], maxInFlight = 64): RunningStreams {
  const startedAt = performance.now();
  const stats: Record<string, StreamStats> = {};
  const inFlight = new Map<string, Set<Promise<void>>>();
  for (const s of streams) {
    stats[s.name] = { sent: 0, ok: 0, failed: 0, skipped: 0, why: {} };
    inFlight.set(s.name, new Set());
  }
  const fail = (st: StreamStats, why: string) => {
    st.failed++;
    st.why[why] = (st.why[why] ?? 0) + 1;
  };
  const tick = () => {
    const elapsedSec = (performance.now() - startedAt) / 1000;
    for (const s of streams) {
      const st = stats[s.name]!;
      const pending = inFlight.get(s.name)!;
      for (let due = Math.floor(elapsedSec * s.rate) - st.sent - st.skipped; due > 0; due--) {
        if (pending.size >= maxInFlight) {
          st.skipped++;
          continue;
        }
        const seq = st.sent++;
        const done: Promise<void> = s
          .fire(seq)
          .then(
            (status) => (status >= 200 && status < 300 ? void st.ok++ : fail(st, String(status))),
            (err: Error) => fail(st, err.message.split('\n')[0]!.slice(0, 80)),
          )
          .finally(() => pending.delete(done));
        pending.add(done);
      }
    }
  };
  const timer = setInterval(tick, 10);
  return {
    stats,
    async stop(graceMs = 15_000) {
      clearInterval(timer);
      const all = [...inFlight.values()].flatMap((set) => [...set]);
      await Promise.race([Promise.all(all), new Promise((resolve) => setTimeout(resolve, graceMs).unref())]);
    },
  };
}

/** A client address per request, among `count` (quote-api limits each client; an Ingress passes its address on). */
export function clientAddress(seq: number, count: number): string {
  const n = seq % count;
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
}
