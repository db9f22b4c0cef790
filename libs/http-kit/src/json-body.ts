import express, { type RequestHandler } from 'express';
import { AppError } from './app-error';

/** The one charset a JSON body may declare (none is fine too: JSON is UTF-8 by RFC 8259). */
const CHARSET = /;\s*charset\s*=\s*"?([^";\s]*)/i;

export const UNSUPPORTED_CHARSET_MESSAGE =
  'Request bodies are JSON in UTF-8: send Content-Type: application/json (charset utf-8 or none)';

/**
 * express.json behind one rule of our own: a body declaring any charset but UTF-8 is refused with 415 before it is
 * read. body-parser alone answers 415 only for names not starting `utf-`, and decodes UTF-7, UTF-16 and UTF-32 (a
 * UTF-7 body reads differently to us than to anything in front of us). Errors go to the app's error handler
 * (toAppError): 400 invalid_json, 413 payload_too_large, 415 invalid_request.
 */
export function jsonBody(options: { limit: number | string; strict?: boolean }): RequestHandler {
  // strict (the default): only an object or array is JSON here; a bare `"x"` or `42` is invalid_json.
  const parse = express.json({ limit: options.limit, strict: options.strict ?? true });
  return (req, res, next) => {
    if (!isUtf8JsonRequest(req.headers['content-type'])) return next(unsupportedCharset());
    parse(req, res, next);
  };
}

/** True unless the Content-Type names a charset other than UTF-8 (no charset: JSON is UTF-8, RFC 8259). */
export function isUtf8JsonRequest(contentType: string | undefined): boolean {
  const charset = CHARSET.exec(contentType ?? '')?.[1]?.toLowerCase();
  return charset === undefined || charset === 'utf-8';
}

export function unsupportedCharset(): AppError {
  return new AppError(415, 'invalid_request', UNSUPPORTED_CHARSET_MESSAGE);
}
