import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import { gzipSync } from 'node:zlib';
import express from 'express';
import pino from 'pino';
import { syncCatalog, type Database } from '@expedition/db';
import { createTestDatabase } from '@expedition/db/testing';
import { catalogSnapshot } from '@expedition/domain-pricing';
import { createMoneyPath } from '@expedition/fulfillment';
import { listen, type RunningServer } from '@expedition/http-kit';
import { createMetrics, type Metrics } from '@expedition/observability';
import { rawExchange, type RawRequest } from '@expedition/platform/testing';
import { createApp } from '../src/app';
import { createOperator, createQuote, countMoneyPath } from './fixtures';
import { testClock, type TestClock } from './harness';
import { intentEvent, refundRecordingProcessor, registerAsOurs, signEvent } from './processor-events';

/*
 * Processor events are answered before Express (src/intake/intake-before-express.ts). This file sends each request,
 * byte for byte, to two apps over one database: the app as built (`fast`) and the same app with every request through
 * Express. Both must answer the same bytes, write the same log lines and count the same metrics, and the requests the
 * fast path must leave to Express must reach Express (Express's entry is spied on, so a comparison cannot pass by never
 * taking the fast path).
 */

const expressEntry = jest.spyOn(express.application as unknown as { handle: () => void }, 'handle');

interface Side {
  server: RunningServer;
  logs: Record<string, unknown>[];
  metrics: Metrics;
}

let db: Database;
let clock: TestClock;
let fast: Side;
let viaExpress: Side;

async function side(beforeExpress: boolean): Promise<Side> {
  const logs: Record<string, unknown>[] = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => logs.push(JSON.parse(line)) });
  const metrics = createMetrics({ service: 'webhook-dispatcher', defaultMetrics: false });
  const processor = refundRecordingProcessor(clock);
  // A processor adapter that fails unexpectedly, and a fulfillment that fails (the database gone): both are 500s.
  const parse = processor.parseWebhookEvent.bind(processor);
  processor.parseWebhookEvent = (body, signature) => {
    if (body.includes('evt_parse_fails')) throw new Error('adapter bug');
    return parse(body, signature);
  };
  const money = createMoneyPath({ prisma: db.prisma, clock, logger, processor });
  const fulfillment = {
    ...money.fulfillment,
    recordProcessorEvent: (event: Parameters<typeof money.fulfillment.recordProcessorEvent>[0]) =>
      event.id.includes('evt_record_fails')
        ? Promise.reject(new Error('database went away'))
        : money.fulfillment.recordProcessorEvent(event),
  };
  const app = createApp({
    prisma: db.prisma,
    ready: async () => undefined,
    logger,
    clock,
    processor,
    moneyPath: { ...money, fulfillment },
    observability: { metrics },
    intakeBeforeExpress: beforeExpress,
  });
  return { server: await listen(app, { port: 0, host: '127.0.0.1' }), logs, metrics };
}

beforeAll(async () => {
  db = await createTestDatabase();
  await syncCatalog(db.prisma, catalogSnapshot());
  clock = testClock();
  fast = await side(true);
  viaExpress = await side(false);
});

afterAll(async () => {
  await Promise.all([fast?.server.close(0), viaExpress?.server.close(0)]);
  await db?.close();
  expressEntry.mockRestore();
});

/** A succeeded event for a new quote of a new operator, registered with the processor as a payment of ours. */
async function paidEvent(eventId?: string) {
  const operator = await createOperator(db.prisma);
  const q = await createQuote(db.prisma, clock, operator.id);
  const metadata = { quoteId: q.quote.id, planId: q.planId, operatorId: operator.id, channel: 'embed' };
  const event = intentEvent({ amountCents: q.premiumCents, metadata, eventId }, clock.nowSec());
  await registerAsOurs(db.prisma, event);
  return signEvent(event, clock.nowSec());
}

const post = (path: string, headers: string[], body: string | Buffer): RawRequest => ({
  head: [`POST ${path} HTTP/1.1`, ...headers, `Content-Length: ${Buffer.byteLength(body)}`].join('\r\n'),
  body,
});

const signed = (path: string, event: { body: string; header: string }, extra: string[] = []) =>
  post(path, ['Content-Type: application/json', `Stripe-Signature: ${event.header}`, ...extra], event.body);

const MINTED_ID = /^X-Request-Id: ([0-9a-f-]{36})\r$/m;

/** The answer with its minted request id (repeated by an error body) replaced. */
function comparable(out: string): string {
  const minted = MINTED_ID.exec(out)?.[1];
  return minted ? out.split(minted).join('<minted>') : out;
}

/** A log line without what differs between two runs of one request. */
function comparableLog(line: Record<string, unknown>) {
  const { time: _t, ms: _ms, pid: _p, hostname: _h, reqId, err, ...rest } = line;
  return {
    ...rest,
    ...(reqId ? { reqId: '<minted>' } : {}),
    ...(err ? { err: (err as { message?: string }).message } : {}),
  };
}

async function send(s: Side, request: RawRequest) {
  const logsBefore = s.logs.length;
  const entered = expressEntry.mock.calls.length;
  const raw = await rawExchange(s.server.port, [request]);
  // The access line is written on `finish`, which may follow the last byte read by a tick.
  await new Promise((resolve) => setImmediate(resolve));
  return {
    response: comparable(raw),
    // Fulfillment's own lines name the event and the payment, which differ between the two sides' events.
    logs: s.logs
      .slice(logsBefore)
      .filter((line) => line['msg'] === 'request completed' || line['msg'] === 'request failed')
      .map(comparableLog),
    reachedExpress: expressEntry.mock.calls.length > entered,
  };
}

/** Each side's request (built per side when it carries a new sale), the status both answer, and the path taken. */
type Case = [
  name: string,
  request: () => Promise<RawRequest>,
  expected: { status: number; fast: boolean; body?: string },
];

const sameForBoth = (build: () => Promise<RawRequest>) => {
  let made: Promise<RawRequest> | undefined;
  return () => (made ??= build());
};

const CASES: Case[] = [
  [
    'a succeeded payment',
    async () => signed('/processor/events', await paidEvent()),
    { status: 200, fast: true, body: '{"received":true}' },
  ],
  [
    'the aliases',
    async () => signed('/stripe/webhook', await paidEvent()),
    { status: 200, fast: true, body: '{"received":true}' },
  ],
  [
    'Content-Encoding: identity',
    async () => signed('/webhooks/processor', await paidEvent(), ['Content-Encoding: identity']),
    { status: 200, fast: true },
  ],
  [
    'a request id sent by the caller',
    async () => signed('/processor/events', await paidEvent(), ['X-Request-Id: req-from-the-processor']),
    { status: 200, fast: true },
  ],
  [
    'a signature made with another secret',
    sameForBoth(async () => {
      const event = await paidEvent();
      return signed('/processor/events', { ...event, header: event.header.replace(/v1=[0-9a-f]{4}/, 'v1=0000') });
    }),
    { status: 400, fast: true },
  ],
  [
    'no Stripe-Signature',
    sameForBoth(async () => post('/processor/events', ['Content-Type: application/json'], (await paidEvent()).body)),
    { status: 400, fast: true },
  ],
  [
    'an empty body',
    sameForBoth(async () => post('/processor/events', ['Content-Type: application/json'], '')),
    { status: 400, fast: true },
  ],
  [
    'the processor adapter throws',
    sameForBoth(async () => signed('/processor/events', await paidEvent('evt_parse_fails'))),
    { status: 500, fast: true },
  ],
  [
    'fulfillment fails',
    async () => signed('/processor/events', await paidEvent(`evt_record_fails_${randomBytes(4).toString('hex')}`)),
    { status: 500, fast: true },
  ],
  // Left to Express:
  [
    'no Content-Type (Express leaves the body unread)',
    sameForBoth(async () => {
      const event = await paidEvent();
      return post('/processor/events', [`Stripe-Signature: ${event.header}`], event.body);
    }),
    { status: 400, fast: false },
  ],
  [
    'Content-Type: application/json;charset=UTF-8',
    async () => {
      const event = await paidEvent();
      const headers = ['Content-Type: application/json;charset=UTF-8', `Stripe-Signature: ${event.header}`];
      return post('/processor/events', headers, event.body);
    },
    { status: 200, fast: true },
  ],
  [
    'a Content-Type that is not a media type (Express leaves the body unread)',
    sameForBoth(async () => {
      const event = await paidEvent();
      return post('/processor/events', ['Content-Type: garbage', `Stripe-Signature: ${event.header}`], event.body);
    }),
    { status: 400, fast: false },
  ],
  [
    'Content-Type: text/plain (Express reads any media type)',
    async () => {
      const event = await paidEvent();
      return post('/processor/events', ['Content-Type: text/plain', `Stripe-Signature: ${event.header}`], event.body);
    },
    { status: 200, fast: false },
  ],
  [
    'a gzip body (Express inflates it)',
    async () => {
      const event = await paidEvent();
      const headers = ['Content-Type: application/json', `Stripe-Signature: ${event.header}`, 'Content-Encoding: gzip'];
      return post('/processor/events', headers, gzipSync(event.body));
    },
    { status: 200, fast: false },
  ],
  [
    'a chunked body',
    async () => {
      const event = await paidEvent();
      const size = Buffer.byteLength(event.body).toString(16);
      return {
        head: [
          'POST /processor/events HTTP/1.1',
          'Content-Type: application/json',
          `Stripe-Signature: ${event.header}`,
          'Transfer-Encoding: chunked',
        ].join('\r\n'),
        body: `${size}\r\n${event.body}\r\n0\r\n\r\n`,
      };
    },
    { status: 200, fast: false },
  ],
  [
    'a query string',
    async () => signed('/processor/events?source=stripe', await paidEvent()),
    { status: 200, fast: false },
  ],
  [
    'another spelling of the path',
    async () => signed('/Processor/Events', await paidEvent()),
    { status: 200, fast: false },
  ],
  ['GET', sameForBoth(async () => ({ head: 'GET /processor/events HTTP/1.1' })), { status: 404, fast: false }],
];

describe('processor events answered before Express: the same answers as through Express', () => {
  it.each(CASES)('%s', async (_name, request, expected) => {
    const a = await send(fast, await request());
    const b = await send(viaExpress, await request());
    expect(a.response).toBe(b.response);
    expect(a.logs).toEqual(b.logs);
    expect(a.logs).toHaveLength(expected.status >= 500 ? 2 : 1);
    expect(Number(/^HTTP\/1\.1 (\d{3})/.exec(a.response)?.[1])).toBe(expected.status);
    if (expected.body) expect(a.response.endsWith(`\r\n\r\n${expected.body}`)).toBe(true);
    expect({ fastPath: !a.reachedExpress }).toEqual({ fastPath: expected.fast });
    expect(b.reachedExpress).toBe(true);
  });

  it('counts the same request metrics, under the route template Express labels', async () => {
    const counts = async (s: Side) =>
      (await s.metrics.registry.metrics())
        .split('\n')
        .filter((l) => l.startsWith('http_request_duration_seconds_count'))
        .sort();
    const lines = await counts(fast);
    expect(lines).toEqual(await counts(viaExpress));
    expect(lines.join('\n')).toContain('route="/processor/events|/stripe/webhook|/webhooks/processor",status="200"');
  });

  it('leaves a body over the 1 MB limit to Express, which answers 413 without recording it', async () => {
    const event = await paidEvent();
    const oversize = `${event.body}${' '.repeat(1024 * 1024)}`;
    const answers = [];
    for (const s of [fast, viaExpress]) {
      const entered = expressEntry.mock.calls.length;
      const res = await fetch(`${s.server.url}/processor/events`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'Stripe-Signature': event.header },
        body: oversize,
      });
      const body = (await res.json()) as { requestId?: string };
      answers.push({ status: res.status, body: { ...body, requestId: typeof body.requestId } });
      expect(expressEntry.mock.calls.length).toBe(entered + 1);
    }
    expect(answers[0]).toEqual(answers[1]);
    expect(answers[0]?.status).toBe(413);
  });

  it('answers a duplicate event as Express does, and writes it once', async () => {
    const event = await paidEvent();
    const first = await send(fast, signed('/processor/events', event));
    const before = await countMoneyPath(db.prisma);
    const again = await send(fast, signed('/processor/events', event));
    const viaExpressToo = await send(viaExpress, signed('/processor/events', event));

    expect(first.response).toMatch(/\r\n\r\n\{"received":true\}$/);
    expect(again.response).toMatch(/\r\n\r\n\{"received":true,"duplicate":true\}$/);
    expect(again.response).toBe(viaExpressToo.response);
    expect(again.reachedExpress).toBe(false);
    expect(await countMoneyPath(db.prisma)).toEqual(before);
  });

  it('writes nothing for a client that goes away mid-body, and answers the next request', async () => {
    const before = await countMoneyPath(db.prisma);
    const event = await paidEvent();
    const socket = connect(fast.server.port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    const head = signed('/processor/events', event).head.replace(/Content-Length: \d+/, 'Content-Length: 100000');
    await new Promise((resolve) => socket.write(`${head}\r\nHost: 127.0.0.1\r\n\r\n${event.body}`, resolve));
    socket.destroy();

    const next = await send(fast, signed('/processor/events', await paidEvent()));
    expect(next.response).toMatch(/^HTTP\/1\.1 200/);
    const after = await countMoneyPath(db.prisma);
    // The next request's sale, and nothing of the cut one.
    expect(after.policies).toBe(before.policies + 1);
    expect(await db.prisma.processorEvent.count({ where: { processorEventId: JSON.parse(event.body).id } })).toBe(0);
  });
});
