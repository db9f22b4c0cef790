import type { RequestHandler } from 'express';
import { clientBucket, type RateLimiter } from '@expedition/platform';
import { AppError } from './app-error';

/**
 * Per-client limit for public APIs. The client is the caller's IP as Express sees it (configure `trust proxy`
 * behind a load balancer), an IPv6 caller its /64 (`clientBucket`). Adds `RateLimit-Limit` / `RateLimit-Remaining`;
 * 429 carries `Retry-After`.
 */
export function clientRateLimit(limiter: RateLimiter, limit: number): RequestHandler {
  return async (req, res, next) => {
    try {
      const verdict = await limiter.consume(clientBucket(req.ip));
      res.setHeader('RateLimit-Limit', String(limit));
      res.setHeader('RateLimit-Remaining', String(Math.max(0, verdict.remaining)));
      if (verdict.allowed) return next();
      res.setHeader('Retry-After', String(verdict.retryAfterSec));
      next(new AppError(429, 'rate_limited', `Too many requests; retry in ${verdict.retryAfterSec} s`));
    } catch (err) {
      next(err);
    }
  };
}
