import express, { type RequestHandler, type Response } from 'express';
import { EMBED_INVALID_FIELDS_ERROR, findUnstorableJson } from '@expedition/contracts';
import { isUtf8JsonRequest } from '@expedition/http-kit';
import { EMBED_MAX_BODY_BYTES } from '../limits';

/** 400 bodies of the embed routes are `{ "error": "…" }`; the gate has already set the CORS headers. */
export function sendEmbedError(res: Response, message: string): void {
  res.status(400).json({ error: message });
}

const parseJson = express.json({ limit: EMBED_MAX_BODY_BYTES, strict: true, type: () => true });

/**
 * JSON body parsing mounted BEHIND the gate, so an unparseable, non-object or oversized body is answered with the
 * route's own 400 `{ "error": "Missing or invalid required fields" }` and the CORS headers the gate set, never with a
 * bare error before the key and origin were checked. Any content type is read as JSON (the spec says all bodies are
 * JSON); a missing body leaves `req.body` undefined, which the schema then rejects. A body holding a string PostgreSQL
 * cannot store (NUL, an unpaired surrogate) or nested deeper than JSON_MAX_DEPTH is that same 400: refused whole,
 * before the route can write any of it.
 */
export function jsonBodyOr400(): RequestHandler {
  return (req, res, next) => {
    // UTF-8 only, as every JSON body of the platform (docs/contract.md): a UTF-16 or UTF-7 body would be decoded into
    // other text than a UTF-8 reader of the same bytes sees. Here that is the route's own 400, like any unreadable body.
    if (!isUtf8JsonRequest(req.headers['content-type'])) return sendEmbedError(res, EMBED_INVALID_FIELDS_ERROR);
    parseJson(req, res, (err?: unknown) => {
      if (err) return sendEmbedError(res, EMBED_INVALID_FIELDS_ERROR);
      const unstorable = findUnstorableJson(req.body);
      if (unstorable) {
        req.log?.info({ path: unstorable.path, reason: unstorable.message }, 'embed body refused');
        return sendEmbedError(res, EMBED_INVALID_FIELDS_ERROR);
      }
      next();
    });
  };
}
