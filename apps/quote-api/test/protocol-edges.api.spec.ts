import { connect } from 'node:net';
import request from 'supertest';
import { AcpErrorSchema } from '@expedition/contracts';
import { listen, type RunningServer } from '@expedition/http-kit';
import { antarcticaQuote, createHarness, type Harness } from './harness';

/**
 * Issue 20 §15: what is refused before a route runs still answers in the documented error shape with a request id —
 * Node's own 431 for request headers over 16 KiB (the real app listening on a port, a raw socket) and 415 for a body
 * in any charset but UTF-8. Nothing is written either way.
 */
let h: Harness;
let running: RunningServer;
const logged: Record<string, unknown>[] = [];
beforeAll(async () => {
  h = await createHarness();
  running = await listen(h.app, {
    port: 0,
    host: '127.0.0.1',
    logger: { info: (fields: Record<string, unknown>) => void logged.push(fields) },
  });
});
afterAll(async () => {
  await running?.close(0);
  await h?.close();
});

function rawExchange(bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(running.port, '127.0.0.1', () => socket.write(bytes));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}

describe('quote-api, listening: requests the HTTP parser refuses', () => {
  it('answers 17 KB of request headers with 431, our JSON error body and X-Request-Id, and logs one line', async () => {
    const body = JSON.stringify(antarcticaQuote);
    const answer = await rawExchange(
      `POST /api/v1/quotes HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n` +
        `X-Padding: ${'x'.repeat(17 * 1024)}\r\n\r\n${body}`,
    );

    const [head = '', json = ''] = answer.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
    const id = /\r\nX-Request-Id: ([0-9a-f-]{36})\r\n/.exec(head)?.[1];
    expect(id).toBeDefined();
    expect(JSON.parse(json)).toEqual({
      error: expect.any(String),
      code: 'invalid_request',
      requestId: id,
      type: 'invalid_request',
      message: expect.any(String),
    });
    expect(logged).toContainEqual(expect.objectContaining({ reqId: id, status: 431 }));
    expect(await h.db.prisma.quote.count()).toBe(0);
  });
});

describe('quote-api, listening: a 431 on an ACP route', () => {
  it('reads as an ACP error too ({ type, code, message }): no route ran, so the body carries both shapes', async () => {
    const answer = await rawExchange(
      `POST /acp/v1/checkout_sessions HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 2\r\n` +
        `X-Padding: ${'x'.repeat(17 * 1024)}\r\n\r\n{}`,
    );
    const [head = '', json = ''] = answer.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 431 /);
    expect(AcpErrorSchema.safeParse(JSON.parse(json)).success).toBe(true);
  });
});

describe('quote-api: bodies in a charset other than UTF-8', () => {
  it.each(['utf-16', 'utf-7', 'iso-8859-1'])(
    'answers charset=%s with 415 in the documented shape and stores nothing',
    async (charset) => {
      const res = await request(h.app)
        .post('/api/v1/quotes')
        .set('Content-Type', `application/json; charset=${charset}`)
        .send(JSON.stringify(antarcticaQuote));
      expect(res.status).toBe(415);
      expect(res.body).toEqual({
        error: expect.stringMatching(/UTF-8/),
        code: 'invalid_request',
        requestId: res.headers['x-request-id'],
      });
      expect(await h.db.prisma.quote.count()).toBe(0);
    },
  );
});
