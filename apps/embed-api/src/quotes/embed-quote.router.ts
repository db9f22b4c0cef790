import type { IRouter, RequestHandler } from 'express';
import {
  EMBED_INVALID_FIELDS_ERROR,
  EMBED_QUOTE_CREATION_FAILED,
  EmbedQuoteRequestSchema,
} from '@expedition/contracts';
import { getEmbedContext } from '@expedition/auth-publishable-key';
import { isPricingError } from '@expedition/domain-pricing';
import { createFailureLog, type FailureLog } from '@expedition/http-kit';
import type { Logger } from '@expedition/platform';
import { isQuotingError } from '@expedition/quoting';
import { jsonBodyOr400, sendEmbedError } from '../http/embed-responses';
import { EMBED_QUOTE_PATH } from '../limits';
import { EmbedInputError } from './embed-quote.input';
import type { EmbedQuoteService } from './embed-quote.service';

/**
 * POST /api/embed/quote (docs/contract.md "POST /api/embed/quote"). The gate runs first; the body is parsed only
 * after it. A sandbox value with a test key is the quoting lib's `sandbox_refusal`, answered by the app's mapping
 * (http/embed-domain-errors.ts).
 */
export function addEmbedQuoteRoute(
  app: IRouter,
  deps: { gate: RequestHandler; quotes: EmbedQuoteService; logger: Logger },
): void {
  const logFailure = createFailureLog(deps.logger);
  app.post(EMBED_QUOTE_PATH, deps.gate, jsonBodyOr400(), async (req, res) => {
    const context = getEmbedContext(req);
    const parsed = EmbedQuoteRequestSchema.safeParse(req.body);
    if (!parsed.success) return sendEmbedError(res, EMBED_INVALID_FIELDS_ERROR);
    try {
      const result = await deps.quotes.create(parsed.data, {
        operatorId: context.operatorId,
        mode: context.mode,
        acceptLanguage: req.get('accept-language'),
      });
      req.log?.info(
        { keyId: context.keyId, quoteId: result.quoteId, eligible: result.instantQuoteEligible },
        'embed quote created',
      );
      res.json(result);
    } catch (err) {
      if (isQuotingError(err)) throw err;
      sendEmbedError(res, creationFailure(err, logFailure, context.keyId));
    }
  });
}

/**
 * Every other downstream failure is the spec's 400 `{ error: <reason> }`: the domain's own message for input it refuses
 * (unknown destination, past start date, wrong number of ages…), else the generic message; internal messages
 * (database errors) are logged, a database outage's at most once per 10 s (createFailureLog), never returned.
 */
function creationFailure(err: unknown, logFailure: FailureLog, keyId: string): string {
  if (isPricingError(err) || err instanceof EmbedInputError) return err.message;
  logFailure(err, { keyId }, 'embed quote could not be created');
  return EMBED_QUOTE_CREATION_FAILED;
}
