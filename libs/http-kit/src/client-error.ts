import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from '@expedition/platform';
import { EVERY_ANSWER_HEADERS } from './security-headers';

/** Node's HTTP parser refuses a request before Express sees it; these are the answers it would give, in our shape. */
const ANSWERS: Record<string, { status: number; message: string }> = {
  HPE_HEADER_OVERFLOW: { status: 431, message: 'Request headers are too large: 16 KiB at most, request line included' },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, message: 'The request took too long to arrive' },
};
const MALFORMED = { status: 400, message: 'Malformed HTTP request' };

interface ParserError extends Error {
  code?: string;
}

/**
 * The server's `clientError` listener: what Node's parser refuses (headers over 16 KiB → 431, a request too slow to
 * arrive → 408, anything malformed → 400) is answered with our error body `{ error, code, requestId }` and an
 * X-Request-Id header, as every other error is, instead of Node's bare status line. There is no Express request, so
 * the response is written by hand with a fresh request id (the caller's X-Request-Id was never parsed), and one line
 * is logged. The connection is closed afterwards, as Node does.
 */
export function answerClientError(logger?: Pick<Logger, 'info'>): (err: ParserError, socket: Duplex) => void {
  return (err, socket) => {
    // A reset connection, or one whose response has begun: nothing can be written any more (Node's own rule).
    const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (err.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    const { status, message } = ANSWERS[err.code ?? ''] ?? MALFORMED;
    const requestId = randomUUID();
    // No route has run, so the path (and its error shape) is unknown: the body is both our `{ error, code, requestId }`
    // and the ACP routes' `{ type, code, message }` (clients ignore fields they do not read, docs/contract.md).
    const body = JSON.stringify({
      error: message,
      code: 'invalid_request',
      requestId,
      type: 'invalid_request',
      message,
    });
    const remote = (socket as Duplex & { remoteAddress?: string }).remoteAddress;
    logger?.info(
      { reqId: requestId, status, parserError: err.code, remoteAddress: remote },
      'request refused by the HTTP parser',
    );
    socket.end(
      [
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
        'Content-Type: application/json; charset=utf-8',
        `Content-Length: ${Buffer.byteLength(body)}`,
        `X-Request-Id: ${requestId}`,
        ...Object.entries(EVERY_ANSWER_HEADERS).map(([name, value]) => `${name}: ${value}`),
        'Cache-Control: no-store',
        'Connection: close',
        '',
        body,
      ].join('\r\n'),
    );
  };
}
