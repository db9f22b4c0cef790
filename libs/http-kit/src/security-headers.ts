import type { ServerResponse } from 'node:http';

/**
 * The headers every answer of every app carries, whatever its status or type (JSON, HTML, PDF, text, a 404, a 401).
 * `nosniff`: a browser takes the declared Content-Type at its word, so a JSON body or a PDF is never run as a script
 * or rendered as HTML. docs/security.md, "Headers of every answer".
 */
export const EVERY_ANSWER_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'X-Content-Type-Options': 'nosniff',
});

const ENTRIES = Object.entries(EVERY_ANSWER_HEADERS);

/** Sets EVERY_ANSWER_HEADERS on `res`. Called by assignRequestId, the first step of every app on every request. */
export function setEveryAnswerHeaders(res: ServerResponse): void {
  for (const [name, value] of ENTRIES) res.setHeader(name, value);
}
