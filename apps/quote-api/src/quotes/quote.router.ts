import { Router } from 'express';
import type { ApiQuoteService } from './api-quote.service';

export function quoteRouter(deps: { quotes: ApiQuoteService }): Router {
  const router = Router();
  router.post('/quotes', async (req, res) => {
    res.json(await deps.quotes.create(req.body, { acceptLanguage: req.get('accept-language') }));
  });
  return router;
}
