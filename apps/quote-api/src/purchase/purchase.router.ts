import { Router } from 'express';
import { AppError } from '@expedition/http-kit';
import type { PurchaseService } from './purchase.service';

export function purchaseRouter(deps: { purchases: PurchaseService }): Router {
  const router = Router();
  router.post('/purchase', async (req, res) => {
    const idempotencyKey = req.get('idempotency-key');
    if (idempotencyKey !== undefined && (idempotencyKey.length === 0 || idempotencyKey.length > 255)) {
      throw AppError.badRequest('Idempotency-Key must be 1 to 255 characters', [{ path: 'Idempotency-Key', message: 'invalid length' }]);
    }
    const outcome = await deps.purchases.purchase(req.body, req.get('authorization'), idempotencyKey);
    res.status(outcome.status).set(outcome.headers).json(outcome.body);
  });
  return router;
}
