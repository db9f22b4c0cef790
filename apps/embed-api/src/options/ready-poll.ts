import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseQuery, type ParsedUrlQuery } from 'node:querystring';
import type { EmbedGateSteps } from '@expedition/auth-publishable-key';
import { observeRequestDuration, type Metrics } from '@expedition/observability';
import type { Logger } from '@expedition/platform';
import { sendJson, type RequestEntry } from '@expedition/http-kit';
import { embedResponseStart } from '../http/embed-prelude';
import { EMBED_OPTIONS_PATH } from '../limits';
import { readQuoteId } from './embed-options.router';
import type { ReadyOptionsCache } from './ready-options-cache';

export interface ReadyPollDeps {
  /** The options route's gate, as steps (the same resolver, limiter, origins and onAdmitted as the Express gate). */
  gate: EmbedGateSteps;
  /** The options route's cache of ready payloads. */
  cache: ReadyOptionsCache;
  logger: Logger;
  /** Counted as the Express path counts: the gate decision and the request duration under the route's template. */
  metrics?: Metrics;
  /** The app name of the request metrics (what `observe()` was given). */
  app: string;
  /** Where every other request goes, untouched: Express. */
  express: RequestEntry;
}

/**
 * The widget's poll of a ready quote, answered before Express sees the request. It is the busiest request of the
 * platform (every open widget polls until its quote is ready, and polls again when reopened) and its answer is bytes
 * already cached, so Express's per-request work (giving the request and response its prototypes, the router's layers)
 * was most of its cost (tools/bench/README.md, the embed rows).
 *
 * It takes a request only when all of these hold, and hands everything else to `express` untouched:
 * - `GET` of exactly `/api/embed/options?…` (the path as the widget sends it; any other spelling goes to Express, which
 *   still serves it);
 * - the gate's key and Origin checks pass (`admissible`: no effect a client can observe, so handing over after them
 *   changes nothing);
 * - `quoteId` is well-formed, its ready payload is cached, and the key's operator is the quote's.
 * The key and Origin are checked before the cache is read, for every such GET: another operator's ready quote, an
 * unknown id and a malformed one then take the same steps here, and Express answers all three with the same database
 * lookup and 403, so they cannot be told apart by timing either.
 * From there it does what the prelude, the gate and the route do, in the same order: request id, access log line,
 * no-store, the CORS headers, the rate limit (its 429 is the gate's), then the cached bytes. The answers are the same
 * bytes as Express's (test/ready-poll*.api.spec.ts compare both paths request by request).
 */
export function createReadyPoll(deps: ReadyPollDeps): RequestEntry {
  const startResponse = embedResponseStart(deps.logger);
  const { metrics } = deps;

  async function answerOwnReadyQuote(req: IncomingMessage, res: ServerResponse, query: ParsedUrlQuery) {
    const admissible = await deps.gate.admissible(req, () => query['pk']);
    if (!admissible) return false;
    const quoteId = readQuoteId(query['quoteId']);
    const ready = quoteId !== 'missing' && quoteId !== 'malformed' ? deps.cache.get(quoteId) : undefined;
    if (!ready || ready.operatorId !== admissible.key.operatorId) return false;

    if (metrics) observeRequestDuration(metrics, { app: deps.app, method: 'GET', route: EMBED_OPTIONS_PATH }, res);
    startResponse(req, res, true);
    const admitted = await deps.gate.admit(res, admissible);
    metrics?.gateDecision(admitted ? 'admitted' : '429');
    if (admitted) sendJson(res, ready.body);
    return true;
  }

  return (req, res, done) => {
    const query = readyPollQuery(req);
    if (!query) return deps.express(req, res, done);
    answerOwnReadyQuote(req, res, query).then(
      (answered) => {
        if (!answered) deps.express(req, res, done);
      },
      (err: unknown) => {
        // Nothing above throws (the gate steps catch store and limiter failures); were it to, the request may be half
        // answered, so it is cut rather than answered twice, and never left as an unhandled rejection.
        deps.logger.error({ err }, 'ready poll failed');
        res.destroy();
      },
    );
  };
}

const QUERY_START = `${EMBED_OPTIONS_PATH}?`;

/**
 * Characters with which Express (parseurl) stops splitting the URL at its first `?` and parses it another way; such a
 * URL goes to Express, so the query read here is always the one Express would read.
 */
const NOT_SPLIT_AT_QUESTION_MARK = /[\t\n\f\r #\u00a0\ufeff]/;

/** The query of a `GET /api/embed/options?…` as Express parses it (`query parser: simple`), or null for any other. */
function readyPollQuery(req: IncomingMessage): ParsedUrlQuery | null {
  const url = req.url;
  if (req.method !== 'GET' || !url?.startsWith(QUERY_START) || NOT_SPLIT_AT_QUESTION_MARK.test(url)) return null;
  return parseQuery(url.slice(QUERY_START.length));
}
