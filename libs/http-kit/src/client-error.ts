import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from '@expedition/platform';

/** Node's HTTP parser refuses a request before Express sees it; these are the answers it would give, in our shape. */
const ANSWERS: Record<string, { status: number; message: string }> = {
  HPE_HEADER_OVERFLOW: { status: 431, message: 'Request headers are too large: 16 KiB at most, request line included' },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, message: 'The request took too long to arrive' },
};
const MALFORMED = { status: 400, message: 'Malformed HTTP request' };

interface ParserError extends Error {
  code?: string;
  /** The bytes Node had read when it refused the request (the request line among them). */
  rawPacket?: Buffer;
}

/**
 * An app whose routes answer errors in another shape (the ACP routes' `{ type, code, message }`, JSON-RPC at /mcp)
 * sets `app.locals.clientErrorBody` to this: given the refused request's path (null when unreadable), the body to
 * send, or undefined for ours.
 */
export type ClientErrorBody = (path: string | null, status: number, message: string, requestId: string) => unknown;

/** The path of the request line (`POST /acp/v1/x?y HTTP/1.1` → `/acp/v1/x`), from the bytes the parser saw. */
export function requestPathOf(raw: Buffer | undefined): string | null {
  if (!raw) return null;
  const line = raw.subarray(0, Math.min(raw.length, 8192)).toString('latin1').split('\r\n', 1)[0] ?? '';
  const target = /^[A-Z]+ (\S+) HTTP\/\d/.exec(line)?.[1];
  return target?.startsWith('/') ? target.split('?', 1)[0]! : null;
}

/**
 * The server's `clientError` listener: what Node's parser refuses (headers over 16 KiB → 431, a request too slow to
 * arrive → 408, anything malformed → 400) is answered with our error body `{ error, code, requestId }` and an
 * X-Request-Id header, as every other error is, instead of Node's bare status line. There is no Express request, so
 * the response is written by hand with a fresh request id (the caller's X-Request-Id was never parsed), and one line
 * is logged. The connection is closed afterwards, as Node does.
 */
export function answerClientError(
  logger?: Pick<Logger, 'info'>,
  bodyFor?: ClientErrorBody,
): (err: ParserError, socket: Duplex) => void {
  return (err, socket) => {
    // A reset connection, or one whose response has begun: nothing can be written any more (Node's own rule).
    const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (err.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    const { status, message } = ANSWERS[err.code ?? ''] ?? MALFORMED;
    const requestId = randomUUID();
    const own = bodyFor?.(requestPathOf(err.rawPacket), status, message, requestId);
    const body = JSON.stringify(own ?? { error: message, code: 'invalid_request', requestId });
    const remote = (socket as Duplex & { remoteAddress?: string }).remoteAddress;
    logger?.info({ reqId: requestId, status, parserError: err.code, remoteAddress: remote }, 'request refused by the HTTP parser');
    socket.end(
      [
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
        'Content-Type: application/json; charset=utf-8',
        `Content-Length: ${Buffer.byteLength(body)}`,
        `X-Request-Id: ${requestId}`,
        'X-Content-Type-Options: nosniff',
        'Cache-Control: no-store',
        'Connection: close',
        '',
        body,
      ].join('\r\n'),
    );
  };
}
