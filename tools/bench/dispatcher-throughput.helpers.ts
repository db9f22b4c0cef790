import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import type { PrismaClient } from '@expedition/db';
import type { QuoteService } from '@expedition/quoting';

/** The dispatcher benchmark's loopback receiver, its HTTP client, fabricated payment events and small statistics. */

export interface Receiver {
  url: string;
  arrivals: Map<string, number>;
  waitFor(count: number): Promise<void>;
  reset(): void;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const arrivals = new Map<string, number>();
  let waiters: { count: number; resolve: () => void }[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = performance.now();
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { quoteId?: string; eventId?: string };
      const key = body.quoteId ?? body.eventId ?? String(arrivals.size);
      if (!arrivals.has(key)) arrivals.set(key, at);
      res.statusCode = 200;
      res.end('ok');
      waiters = waiters.filter((w) => (arrivals.size >= w.count ? (w.resolve(), false) : true));
    });
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    arrivals,
    waitFor: (count) =>
      arrivals.size >= count ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ count, resolve })),
    reset: () => arrivals.clear(),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// The load and the baseline POST as the dispatcher does (node:http, keep-alive), not with fetch: fetch costs several
// times the CPU per request in this process, which would slow the baseline and flatter the ratio.

/** Runs `task` over `items` with at most `concurrency` in flight. */
export async function pool<T>(
  items: readonly T[],
  concurrency: number,
  task: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await task(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, lane));
}

/** Puts the outbox back as the intake left it (every row pending, never attempted), for the next drain round. */
export async function resetOutbox(prisma: PrismaClient): Promise<void> {
  await prisma.$executeRaw`DELETE FROM webhook_attempts`;
  await prisma.$executeRaw`
    UPDATE webhook_events
    SET status = 'pending', attempts = 0, locked_until = NULL, next_attempt_at = ${new Date()}::timestamp(3),
        delivered_at = NULL, last_error = NULL`;
}

/**
 * Deletes every outbox row but the `keep` newest (the measured intake rounds'), so the warm-up's rows are not drained, then
 * vacuums the table: the workers' claim would otherwise step over the deleted rows' index entries until autovacuum
 * came, in the middle of a later phase.
 */
export async function keepNewestOutboxRows(prisma: PrismaClient, keep: number): Promise<number> {
  await prisma.$executeRaw`
    DELETE FROM webhook_events
    WHERE id NOT IN (SELECT id FROM webhook_events ORDER BY created_at DESC, id DESC LIMIT ${keep})`;
  await prisma.$executeRawUnsafe('VACUUM (ANALYZE) webhook_events');
  return prisma.webhookEvent.count();
}

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

export function paymentEvent(quoteId: string, planId: string, operatorId: string, amount: number, i: number) {
  const created = Math.floor(Date.now() / 1000);
  return {
    id: `evt_bench_${i}_${quoteId}`,
    object: 'event',
    type: 'payment_intent.succeeded',
    api_version: null,
    created,
    livemode: false,
    data: {
      object: {
        id: `pi_bench_${i}_${quoteId}`,
        object: 'payment_intent',
        amount,
        currency: 'usd',
        status: 'succeeded',
        livemode: false,
        metadata: { quoteId, planId, operatorId, channel: 'embed' },
        last_payment_error: null,
        created,
      },
    },
  };
}

/**
 * A quote of `operatorId` and its pending payment, written as the embed checkout writes them (the benchmark's trip:
 * Antarctica, two travelers, 14 days, 60 days ahead), ready for a processor event to pay it. `paymentId` names the
 * processor's payment from the quote's id.
 */
export async function quoteAwaitingPayment(
  prisma: PrismaClient,
  quotes: Pick<QuoteService, 'create'>,
  options: { operatorId: string; paymentId: (quoteId: string) => string; email?: string },
): Promise<{ quoteId: string; planId: string; premiumCents: number; paymentId: string }> {
  const { quote, estimates } = await quotes.create({
    source: 'embed',
    operatorId: options.operatorId,
    destination: 'Antarctica',
    startDate: new Date(Date.now() + 60 * 86_400_000).toISOString().slice(0, 10),
    durationDays: 14,
    tripCostCents: 2_400_000,
    travelers: 2,
    travelerAges: [45, 52],
    residence: 'GB',
    ...(options.email ? { email: options.email } : {}),
  });
  const { planId, premiumCents } = estimates[0]!;
  const paymentId = options.paymentId(quote.id);
  await prisma.payment.create({
    data: {
      quoteId: quote.id,
      planId,
      operatorId: options.operatorId,
      mode: 'test',
      channel: 'embed',
      processor: 'simulated',
      processorPaymentId: paymentId,
      amountCents: premiumCents,
      currency: 'USD',
      status: 'pending',
    },
  });
  return { quoteId: quote.id, planId, premiumCents, paymentId };
}

/** A request prepared for RawPoster: its bytes on the wire. */
export type WireRequest = Buffer;

/**
 * A load generator that costs little beside what it measures: JSON POSTs built into their wire bytes before the clock
 * starts (`wire`), sent over keep-alive connections, one request at a time per connection (an idle one is reused, else
 * one is opened), each answer read as far as its status line and `Content-Length` (the apps always send one).
 * `node:http`'s client cost the intake benchmark about 0.8 ms of CPU per request on the machine both share, as much as
 * PostgreSQL's share of an event.
 */
export function rawPoster(url: string) {
  const { hostname, port, pathname } = new URL(url);
  const idle: Socket[] = [];
  const open = new Set<Socket>();

  function wire(body: string, headers: Record<string, string>): WireRequest {
    const head = Object.entries({ ...headers, 'Content-Type': 'application/json' })
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('');
    const bytes = Buffer.byteLength(body);
    return Buffer.from(
      `POST ${pathname} HTTP/1.1\r\nHost: ${hostname}:${port}\r\n${head}Content-Length: ${bytes}\r\n\r\n${body}`,
    );
  }

  async function connection(): Promise<Socket> {
    const reused = idle.pop();
    if (reused) return reused;
    const socket = connect({ host: hostname, port: Number(port) });
    socket.setNoDelay(true);
    open.add(socket);
    socket.once('close', () => open.delete(socket));
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    return socket;
  }

  /** Sends one request and resolves with the answer's status once the whole answer has been read. */
  async function send(request: WireRequest): Promise<number> {
    const socket = await connection();
    return new Promise<number>((resolve, reject) => {
      let buffered: Buffer = Buffer.alloc(0);
      const fail = (err: Error) => {
        socket.off('data', onData);
        socket.destroy();
        reject(err);
      };
      const onData = (chunk: Buffer) => {
        buffered = buffered.length ? Buffer.concat([buffered, chunk]) : chunk;
        const headEnd = buffered.indexOf('\r\n\r\n');
        if (headEnd < 0) return;
        const head = buffered.subarray(0, headEnd).toString('latin1');
        const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? NaN);
        if (Number.isNaN(length)) return fail(new Error(`answer without Content-Length: ${head.slice(0, 200)}`));
        if (buffered.length < headEnd + 4 + length) return;
        socket.off('data', onData);
        socket.off('error', fail);
        idle.push(socket);
        resolve(Number(head.slice(9, 12)));
      };
      socket.on('data', onData);
      socket.once('error', fail);
      socket.write(request);
    });
  }

  /** Sends every request over `lanes` connections, each lane one request after another; the statuses in order. */
  async function sendAll(requests: readonly WireRequest[], lanes: number): Promise<number[]> {
    const statuses = new Array<number>(requests.length);
    let next = 0;
    const lane = async () => {
      while (next < requests.length) {
        const i = next++;
        statuses[i] = await send(requests[i]!);
      }
    };
    await Promise.all(Array.from({ length: Math.min(lanes, requests.length) }, lane));
    return statuses;
  }

  function close(): void {
    for (const socket of open) socket.destroy();
  }

  return { wire, send, sendAll, close };
}
