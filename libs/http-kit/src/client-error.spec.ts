import { connect } from 'node:net';
import express from 'express';
import request from 'supertest';
import { errorHandler } from './error-handler';
import { jsonBody } from './json-body';
import { requestId } from './request-id';
import { listen, type RunningServer } from './server';

/** Sends raw bytes and reads everything until the server closes the connection. */
function rawExchange(port: number, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(bytes));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}

function parseRaw(answer: string) {
  const [head = '', body = ''] = answer.split('\r\n\r\n');
  const [statusLine = '', ...headerLines] = head.split('\r\n');
  const headers = Object.fromEntries(
    headerLines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
  );
  return { statusLine, headers, body: JSON.parse(body) as Record<string, unknown> };
}

const logged: unknown[] = [];
const logger = { info: (fields: unknown) => void logged.push(fields) };
const silent = { error: () => undefined } as never;

let running: RunningServer;
beforeAll(async () => {
  const app = express();
  app.use(requestId());
  app.post('/echo', jsonBody({ limit: 1024 }), (req, res) => res.json(req.body));
  app.get('/ok', (_req, res) => res.json({ ok: true }));
  app.use(errorHandler(silent));
  running = await listen(app, { port: 0, host: '127.0.0.1', logger });
});
afterAll(() => running.close(0));
beforeEach(() => (logged.length = 0));

describe("requests refused by Node's HTTP parser (clientError)", () => {
  it('answers 17 KB of headers with 431 in our error shape, a fresh X-Request-Id, and one log line', async () => {
    const answer = await rawExchange(
      running.port,
      `GET /ok HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(17 * 1024)}\r\n\r\n`,
    );

    const { statusLine, headers, body } = parseRaw(answer);
    expect(statusLine).toBe('HTTP/1.1 431 Request Header Fields Too Large');
    expect(headers['content-type']).toBe('application/json; charset=utf-8');
    expect(headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(headers['connection']).toBe('close');
    expect(body).toEqual({
      error: expect.stringMatching(/16 KiB/),
      code: 'invalid_request',
      requestId: headers['x-request-id'],
      type: 'invalid_request',
      message: body.error,
    });
    expect(logged).toEqual([
      expect.objectContaining({ reqId: headers['x-request-id'], status: 431, parserError: 'HPE_HEADER_OVERFLOW' }),
    ]);
  });

  it('answers a malformed request with 400 in our error shape', async () => {
    const { statusLine, headers, body } = parseRaw(
      await rawExchange(running.port, 'GET /ok HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n'),
    );
    expect(statusLine).toBe('HTTP/1.1 400 Bad Request');
    expect(body).toEqual({
      error: 'Malformed HTTP request',
      code: 'invalid_request',
      requestId: headers['x-request-id'],
      type: 'invalid_request',
      message: 'Malformed HTTP request',
    });
  });

  it('still serves headers just under the limit', async () => {
    const res = await request(running.server)
      .get('/ok')
      .set('X-Big', 'a'.repeat(15 * 1024));
    expect(res.status).toBe(200);
  });
});

describe('jsonBody: UTF-8 only', () => {
  it.each(['latin1', 'utf-16', 'UTF-7', 'utf-32', 'utf8'])(
    'answers charset=%s with 415 in our error shape, before reading the body',
    async (charset) => {
      const res = await request(running.server)
        .post('/echo')
        .set('Content-Type', `application/json; charset=${charset}`)
        .send('{"a":1}');
      expect(res.status).toBe(415);
      expect(res.body).toEqual({
        error: expect.stringMatching(/UTF-8/),
        code: 'invalid_request',
        requestId: res.headers['x-request-id'],
      });
    },
  );

  it('reads UTF-8 JSON with or without the charset', async () => {
    for (const type of ['application/json', 'application/json; charset=utf-8', 'application/json; charset="UTF-8"']) {
      const res = await request(running.server).post('/echo').set('Content-Type', type).send('{"a":"é"}');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ a: 'é' });
    }
  });
});
