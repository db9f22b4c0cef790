import { Router } from 'express';
import { PurchaseRequestSchema } from '@expedition/contracts';
import { AppError, parseOrThrow } from '@expedition/http-kit';
import { PROBLEM_CONTENT_TYPE, formatWwwAuthenticate, problemDetails } from '@expedition/payments';
import type { IdempotencyRepository, StoredResponse } from './idempotency.repository';
import { paymentProblemOf, paymentReceiptOf, type PurchaseResult, type PurchaseService } from './purchase.service';

/** POST /api/v1/purchase: idempotency at the edge, the purchase itself in the service, HTTP rendering here. */
export function purchaseRouter(deps: { purchases: PurchaseService; idempotency: IdempotencyRepository }): Router {
  const router = Router();
  router.post('/purchase', async (req, res) => {
    const idempotencyKey = req.get('idempotency-key');
    if (idempotencyKey !== undefined && (idempotencyKey.length === 0 || idempotencyKey.length > 255)) {
      throw AppError.badRequest('Idempotency-Key must be 1 to 255 characters', [
        { path: 'Idempotency-Key', message: 'invalid length' },
      ]);
    }
    const body = parseOrThrow(PurchaseRequestSchema, req.body);
    const authorization = req.get('authorization');
    const requestHash = deps.idempotency.requestHash({ quoteId: body.quoteId, planId: body.planId, authorization });
    if (idempotencyKey) {
      const stored = await deps.idempotency.find(idempotencyKey);
      if (stored) {
        if (stored.requestHash !== requestHash) {
          throw new AppError(
            422,
            'invalid_request',
            'Idempotency-Key was used with a different request (body or credential)',
          );
        }
        return void res.status(stored.response.status).set(stored.response.headers).json(stored.response.body);
      }
    }
    const result = await deps.purchases.purchase(body, authorization);
    const response = render(result);
    // Only a receipt is worth replaying; a 402 or 409 must be re-evaluated on the next try.
    if (idempotencyKey && result.kind === 'receipt') await deps.idempotency.save(idempotencyKey, requestHash, response);
    res.status(response.status).set(response.headers).json(response.body);
  });
  return router;
}

function render(result: PurchaseResult): StoredResponse {
  switch (result.kind) {
    case 'receipt':
      return {
        status: 200,
        headers: {
          'Payment-Receipt': paymentReceiptOf(result),
          // A receipt carrying the policy's access token (a bearer secret) is stored by no cache at all.
          'Cache-Control': result.receipt.accessToken ? 'private, no-store' : 'private',
        },
        body: result.receipt,
      };
    case 'payment_required':
      return {
        status: 402,
        headers: {
          'WWW-Authenticate': formatWwwAuthenticate(result.challenge),
          'Cache-Control': 'no-store',
          'Content-Type': PROBLEM_CONTENT_TYPE,
        },
        body: paymentProblemOf(result),
      };
    case 'method_unsupported': {
      const problem = problemDetails('method-unsupported', { detail: result.detail });
      return {
        status: problem.status,
        headers: { 'Cache-Control': 'no-store', 'Content-Type': PROBLEM_CONTENT_TYPE },
        body: problem,
      };
    }
    case 'in_progress':
      return {
        status: 409,
        headers: { 'Retry-After': String(result.retryAfterSec), 'Cache-Control': 'no-store' },
        body: {
          error:
            'A payment for this quote is in progress; retry after Retry-After seconds (nothing was charged by this request)',
          code: 'payment_in_progress',
        },
      };
    case 'processor_unavailable':
      return {
        status: 503,
        headers: { 'Retry-After': String(result.retryAfterSec), 'Cache-Control': 'no-store' },
        body: { error: 'The payment processor is unavailable; retry shortly', code: 'internal_error' },
      };
    case 'refunded':
      return {
        status: 409,
        headers: { 'Cache-Control': 'no-store' },
        body: { error: result.detail, code: 'payment_refunded' },
      };
  }
}
