import type { IncomingMessage, ServerResponse } from 'node:http';
import express from 'express';
import request from 'supertest';
import pino from 'pino';
import { AppError, assignRequestId, errorHandler, notFound, requestId } from './index';

const silent = pino({ level: 'silent' });

function app() {
  const a = express();
  a.use(requestId());
  a.get('/json', (_req, res) => void res.json({ ok: true }));
  a.get('/text', (_req, res) => void res.type('text/plain').send('# llms'));
  a.get('/denied', () => {
    throw new AppError(401, 'unauthorized', 'No key');
  });
  a.use(notFound());
  a.use(errorHandler(silent));
  return a;
}

describe('the headers of every answer (security-headers.ts)', () => {
  it.each(['/json', '/text', '/denied', '/no-such-route'])(
    'GET %s carries X-Content-Type-Options: nosniff',
    async (path) => {
      const res = await request(app()).get(path);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    },
  );

  it('an answer written before Express (assignRequestId alone) carries it too', async () => {
    const res = await request((req: IncomingMessage, res: ServerResponse) => {
      assignRequestId(req, res);
      res.end('{}');
    }).get('/');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });
});
