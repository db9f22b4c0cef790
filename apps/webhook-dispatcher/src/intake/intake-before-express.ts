import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ErrorRequestHandler, Express, Request, Response } from 'express';
import { accessLog, assignRequestId, sendJson, type RequestEntry } from '@expedition/http-kit';
import { observeRequestDuration, type Metrics } from '@expedition/observability';
import type { Logger } from '@expedition/platform';
import {
  PROCESSOR_EVENT_BODY_LIMIT_BYTES,
  PROCESSOR_EVENT_PATHS,
  type Intake,
  type IntakeAnswer,
} from './processor-events.router';

export interface IntakeBeforeExpressDeps {
  intake: Intake;
  logger: Logger;
  /** The request duration, as requestMetrics() counts it under the route's template. */
  metrics?: Pick<Metrics, 'httpRequestDuration'>;
  /** The app name of the request metrics (what `observe()` was given). */
  app: string;
  /** The Express app: its request and response prototypes, for an error answered by its error handler. */
  expressApp: Express;
  /** The app's error handler (the last layer of the Express app). */
  errorHandler: ErrorRequestHandler;
  /** Where every other request goes, untouched: Express. */
  express: RequestEntry;
}

/**
 * The processor's events, answered before Express sees them. The intake is the money path's busiest route, and
 * Express's per-request work (the request's prototypes, the router's layers, the body parser, `res.json`) cost each
 * event about as much CPU as checking its signature and parsing it (tools/bench/README.md, the intake row).
 *
 * It takes a request only when its headers say the Express route would read its body as sent, and hands every other
 * request to `express` before reading a byte:
 * - `POST` of exactly one of the intake's paths (no query string; any other spelling goes to Express, which still
 *   serves it);
 * - a JSON Content-Type (without a well-formed one the raw parser leaves the body unread) and a Content-Length within
 *   the body limit (over it, Express answers 413 without reading);
 * - no Transfer-Encoding and no Content-Encoding other than `identity` (Express inflates a compressed body).
 * From there it does what the Express chain does, in the same order: request id, access log line, request metrics,
 * the body, the signature and the event (intake.parse), fulfillment (intake.record), and the same JSON answer. An
 * error (a bad signature's 400, a failure's 500) is answered by the app's own error handler, on the request made an
 * Express request as app.handle makes it. The answers are the same bytes as Express's
 * (test/intake-before-express.api.spec.ts sends each request to both paths).
 */
export function createIntakeBeforeExpress(deps: IntakeBeforeExpressDeps): RequestEntry {
  const logAccess = accessLog(deps.logger);
  const { metrics, intake, expressApp } = deps;

  function answerError(err: unknown, req: IncomingMessage, res: ServerResponse): void {
    // What app.handle does before its router (express/lib/application.js), so the error handler finds an Express
    // request and response.
    const request = Object.setPrototypeOf(req, expressApp.request) as Request;
    const response = Object.setPrototypeOf(res, expressApp.response) as Response;
    request.res = response;
    response.req = request;
    response.locals ??= Object.create(null) as Record<string, unknown>;
    deps.errorHandler(err, request, response, () => undefined);
  }

  function answer(req: IncomingMessage, res: ServerResponse, body: Buffer): void {
    const signature = req.headers['stripe-signature'];
    let event;
    try {
      event = intake.parse(body, typeof signature === 'string' ? signature : undefined);
    } catch (err) {
      return answerError(err, req, res);
    }
    intake
      .record(event)
      .then(
        (answer) => sendJson(res, ANSWERS['duplicate' in answer ? 'duplicate' : 'received']),
        (err: unknown) => answerError(err, req, res),
      )
      .catch((err: unknown) => cut(err, res));
  }

  /**
   * Nothing above throws once the request is ours (the error handler answers every error); were it to, the request
   * may be half answered, so it is cut rather than answered twice, and never left as an uncaught exception.
   */
  function cut(err: unknown, res: ServerResponse): void {
    deps.logger.error({ err }, 'processor event intake failed');
    res.destroy();
  }

  return (req, res, done) => {
    if (!takes(req)) return deps.express(req, res, done);
    if (metrics) observeRequestDuration(metrics, { app: deps.app, method: 'POST', route: ROUTE }, res);
    assignRequestId(req, res);
    logAccess(req, res);
    const chunks: Buffer[] = [];
    let received = 0;
    req.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      received += chunk.length;
    });
    req.once('end', () => {
      // Node's parser ends a request only once Content-Length bytes have arrived.
      try {
        answer(req, res, chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, received));
      } catch (err) {
        cut(err, res);
      }
    });
    // A client that goes away mid-body gets no answer; nothing was written.
    req.once('error', () => res.destroy());
  };
}

const ANSWERS = {
  received: Buffer.from(JSON.stringify({ received: true } satisfies IntakeAnswer)),
  duplicate: Buffer.from(JSON.stringify({ received: true, duplicate: true } satisfies IntakeAnswer)),
};

const PATHS = new Set(PROCESSOR_EVENT_PATHS);
/**
 * The Content-Types taken here: what processors send, and a strict subset of what the raw parser reads (type-is: any
 * well-formed media type). Any other value, well-formed or not, goes to Express, which decides.
 */
const JSON_CONTENT_TYPE = /^application\/json(?:; ?charset=utf-8)?$/i;
/** The route template requestMetrics() labels the Express route with (its paths joined by `|`). */
const ROUTE = PROCESSOR_EVENT_PATHS.join('|');

/** Whether this path takes the request (see above): decided on its request line and headers alone. */
function takes(req: IncomingMessage): boolean {
  const { headers } = req;
  if (req.method !== 'POST' || !PATHS.has(req.url ?? '')) return false;
  if (!JSON_CONTENT_TYPE.test(headers['content-type'] ?? '') || headers['transfer-encoding'] !== undefined)
    return false;
  const encoding = headers['content-encoding'];
  if (encoding !== undefined && encoding.toLowerCase() !== 'identity') return false;
  const declared = headers['content-length'];
  return declared !== undefined && /^\d+$/.test(declared) && Number(declared) <= PROCESSOR_EVENT_BODY_LIMIT_BYTES;
}
