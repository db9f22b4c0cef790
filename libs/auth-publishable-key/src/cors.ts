import type { ServerResponse } from 'node:http';
import type { Response } from 'express';
import { PUBLISHABLE_KEY_HEADER } from '@expedition/contracts/rules';

export const CORS_ALLOW_METHODS = 'GET, POST, OPTIONS';
export const CORS_ALLOW_HEADERS = `Content-Type, ${PUBLISHABLE_KEY_HEADER}`;
export const PREFLIGHT_MAX_AGE_SEC = 86400;
export const CORS_EXPOSE_HEADERS = 'Retry-After';

/**
 * The spec's CORS headers for one matched origin. Never `*`, never Access-Control-Allow-Credentials: the key is the
 * credential and cookies are ignored.
 */
export function setCorsHeaders(res: Response, origin: string): void {
  varyOnOrigin(res);
  setAllowHeaders(res, origin);
}

/** setCorsHeaders without the Vary step, for a response Express has not seen (see EmbedGateSteps.admit). */
export function setAllowHeaders(res: ServerResponse, origin: string): void {
  res.setHeader('Access-Control-Allow-Origin', origin);
  res.setHeader('Access-Control-Allow-Methods', CORS_ALLOW_METHODS);
  res.setHeader('Access-Control-Allow-Headers', CORS_ALLOW_HEADERS);
  // Additive: lets the widget's iframe read how long to wait after a 429 (browsers hide other headers cross-origin).
  res.setHeader('Access-Control-Expose-Headers', CORS_EXPOSE_HEADERS);
}

/** Removes every Access-Control-* header (e.g. set by the gate or an app-wide middleware); keeps `Vary: Origin`. */
export function stripCorsHeaders(res: Response): void {
  for (const name of res.getHeaderNames()) {
    if (name.toLowerCase().startsWith('access-control-')) res.removeHeader(name);
  }
  varyOnOrigin(res);
}

/**
 * `res.vary('Origin')` without re-parsing the header on the gate's hot path: the gate and setCorsHeaders both ask
 * for it on every admitted request, and the first call usually finds no Vary at all.
 */
export function varyOnOrigin(res: Response): void {
  const current = res.getHeader('Vary');
  if (current === undefined) res.setHeader('Vary', 'Origin');
  else if (current !== 'Origin') res.vary('Origin');
}

const PLAIN_TEXT = 'text/plain; charset=utf-8';

/** Bare-string bodies of the gate's 401/403/429. */
export function sendPlain(res: Response, status: number, body: string): void {
  res.status(status).type(PLAIN_TEXT).send(body);
}

/**
 * sendPlain's status, headers and body on a response Express has not seen (a GET answered before Express: its 429).
 * Express's send() adds nothing else here: the embed apps turn ETags off, and no 4xx is ever a 304.
 */
export function writePlain(res: ServerResponse, status: number, body: string): void {
  res.statusCode = status;
  res.setHeader('Content-Type', PLAIN_TEXT);
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.end(body);
}

/**
 * 403 `Forbidden` without any CORS header, so the browser cannot read it. Routes use it for the options
 * existence-oracle case after the gate has already set CORS headers.
 */
export function sendBareForbidden(res: Response): void {
  stripCorsHeaders(res);
  sendPlain(res, 403, 'Forbidden');
}

export function sendBareUnauthorized(res: Response): void {
  stripCorsHeaders(res);
  sendPlain(res, 401, 'Unauthorized');
}
