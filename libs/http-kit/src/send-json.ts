import type { ServerResponse } from 'node:http';

const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/**
 * A JSON body kept as UTF-8 bytes, written with its length: the same status, headers and body as Express's
 * `res.json()` (and `res.type('application/json').send(string)`) produce, without encoding it again on every request
 * or send()'s steps that cannot apply (no ETag, no Last-Modified, so never a 304). HEAD gets the headers only (Node).
 * For the routes answered before Express (the embed poll of a ready quote, the processor-event intake).
 */
export function sendJson(res: ServerResponse, body: Buffer): void {
  res.setHeader('Content-Type', JSON_CONTENT_TYPE);
  res.setHeader('Content-Length', body.length);
  res.end(body);
}
