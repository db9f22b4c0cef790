import type Redis from 'ioredis';
import { createRateLimiter, type Logger, type RateLimiter } from '@expedition/platform';
import { PortalError } from '../http/errors';

/**
 * Brute-force budgets, each a fixed window (rate-limiter-flexible; shared by replicas through Redis when REDIS_URL is
 * set). Per account = per normalized e-mail address, known or not (the answer must not tell them apart).
 */
export const PORTAL_THROTTLE_LIMITS = {
  loginPerAccount: { points: 10, durationSec: 15 * 60 },
  loginPerIp: { points: 50, durationSec: 15 * 60 },
  resetPerAccount: { points: 5, durationSec: 60 * 60 },
  resetPerIp: { points: 20, durationSec: 60 * 60 },
  /** sign-up, invitation acceptance, reset confirmation, e-mail verification */
  tokenPerIp: { points: 30, durationSec: 60 * 60 },
  /** verification mail resends, invitations sent */
  mailPerUser: { points: 10, durationSec: 60 * 60 },
} as const;

export type ThrottleName = keyof typeof PORTAL_THROTTLE_LIMITS;
export type PortalThrottles = Record<ThrottleName, RateLimiter>;

export function createPortalThrottles(options: { redis?: Redis; logger?: Logger; namespace?: string } = {}): PortalThrottles {
  const namespace = options.namespace ?? 'portal';
  const entries = Object.entries(PORTAL_THROTTLE_LIMITS).map(([name, limit]) => [
    name,
    createRateLimiter({ ...limit, keyPrefix: `${namespace}:${name}`, redis: options.redis, logger: options.logger }),
  ]);
  return Object.fromEntries(entries) as PortalThrottles;
}

/** Consumes one point of every budget given; the first refusal throws 429 with Retry-After (all are consumed). */
export async function throttle(checks: [RateLimiter, string][]): Promise<void> {
  const verdicts = await Promise.all(checks.map(([limiter, id]) => limiter.consume(id)));
  const refused = verdicts.filter((v) => !v.allowed);
  if (refused.length > 0) throw PortalError.rateLimited(Math.max(...refused.map((v) => v.retryAfterSec)));
}
