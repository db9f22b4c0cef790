import { Router } from 'express';
import { createApiQuote, type ApiQuoteDeps } from './create-api-quote';

export function quoteRouter(deps: ApiQuoteDeps): Router {
  const router = Router();
  router.post('/quotes', async (req, res) => {
    res.json(await createApiQuote(deps, req.body, { acceptLanguage: req.get('accept-language') }));
  });
  return router;
}
