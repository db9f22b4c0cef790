import { Router } from 'express';
import { CoverageGapRequestSchema } from '@expedition/contracts';
import { parseOrThrow } from '@expedition/http-kit';
import { coverageGap } from './coverage-gap.service';

export function coverageGapRouter(): Router {
  const router = Router();
  router.post('/coverage-gap', (req, res) => {
    res.json(coverageGap(parseOrThrow(CoverageGapRequestSchema, req.body)));
  });
  return router;
}
