import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import './logger'; // declares IncomingMessage.id
import { setEveryAnswerHeaders } from './security-headers';

const SAFE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Reuses a caller's X-Request-Id when it is safe to log, else mints one; echoes it on the response with the headers
 * every answer carries (security-headers.ts). */
export function requestId(): RequestHandler {
  return (req, res, next) => {
    assignRequestId(req, res);
    next();
  };
}

/**
 * requestId()'s work, for an app that runs it inside a middleware of its own (one Express layer instead of two), and
 * for the answers given before Express. Every app starts every answer here, so the headers every answer carries
 * (security-headers.ts) are set here too: no app can forget them, on any route or status.
 */
export function assignRequestId(req: IncomingMessage, res: ServerResponse): void {
  setEveryAnswerHeaders(res);
  const incoming = req.headers['x-request-id'];
  const id = typeof incoming === 'string' && SAFE_ID.test(incoming) ? incoming : randomUUID();
  req.id = id;
  res.setHeader('X-Request-Id', id);
}
