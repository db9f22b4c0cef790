import type Redis from 'ioredis';
import {
  clientBucket,
  createRateLimiter,
  type Logger,
  type RateLimiter,
  type RefundableRateLimiter,
} from '@expedition/platform';
import { PortalError } from '../http/errors';

/**
 * The portal's budgets, each a fixed window (rate-limiter-flexible; shared by replicas through Redis when REDIS_URL
 * is set). "Account" is the normalized e-mail address, known or not (the answer must not tell them apart); "client"
 * is the caller's IPv4 address or IPv6 /64 (`clientBucket`). The `login…` budgets count failures only: a log-in that
 * succeeds gives its points back. docs/portal.md states these numbers.
 */
export const PORTAL_THROTTLE_LIMITS = {
  /** Failed log-ins (and wrong current passwords) of one account from one client. */
  loginFailuresPerAccountAndClient: { points: 10, durationSec: 15 * 60 },
  /** Failed log-ins of one account from every client together: past it the account is locked for an hour. */
  loginFailuresPerAccount: { points: 100, durationSec: 60 * 60 },
  /** Failed log-ins from one client across accounts (password spraying). */
  loginFailuresPerClient: { points: 50, durationSec: 15 * 60 },
  /** One-time sign-in links mailed to a locked account. */
  signInLinkPerAccount: { points: 1, durationSec: 60 * 60 },
  resetPerAccount: { points: 5, durationSec: 60 * 60 },
  resetPerClient: { points: 20, durationSec: 60 * 60 },
  /** sign-up, invitation acceptance, reset confirmation, e-mail verification, sign-in links */
  tokenPerClient: { points: 30, durationSec: 60 * 60 },
  /** verification mail resends, invitations sent, by one user */
  mailPerUser: { points: 10, durationSec: 60 * 60 },
  /** invitations mailed for one operator, by all its owners together */
  invitesPerOperatorHour: { points: 20, durationSec: 60 * 60 },
  invitesPerOperatorDay: { points: 50, durationSec: 24 * 60 * 60 },
  /** writes (POST, PUT, PATCH, DELETE) under /operator and /team, per operator */
  writesPerOperator: { points: 60, durationSec: 60 },
  /** test webhook events, per operator */
  testEventsPerOperator: { points: 5, durationSec: 60 },
} as const;

export type ThrottleName = keyof typeof PORTAL_THROTTLE_LIMITS;
export type PortalThrottles = Record<ThrottleName, RefundableRateLimiter>;

export function createPortalThrottles(
  options: { redis?: Redis; logger?: Logger; namespace?: string } = {},
): PortalThrottles {
  const namespace = options.namespace ?? 'portal';
  const entries = Object.entries(PORTAL_THROTTLE_LIMITS).map(([name, limit]) => [
    name,
    createRateLimiter({ ...limit, keyPrefix: `${namespace}:${name}`, redis: options.redis, logger: options.logger }),
  ]);
  return Object.fromEntries(entries) as PortalThrottles;
}

/** The per-client id of a request's IP: the address, or its /64 for IPv6. */
export const clientOf = (ip: string | undefined): string => clientBucket(ip);

/** What a refused budget check reports: which budgets said no, and the longest wait. */
export interface ThrottleRefusal {
  refused: RateLimiter[];
  retryAfterSec: number;
}

/** Consumes one point of every budget given (all are consumed); null when all allowed. */
export async function consumeAll(checks: [RateLimiter, string][]): Promise<ThrottleRefusal | null> {
  const verdicts = await Promise.all(checks.map(([limiter, id]) => limiter.consume(id)));
  const refused = checks.filter((_, i) => !verdicts[i]!.allowed).map(([limiter]) => limiter);
  if (refused.length === 0) return null;
  const retryAfterSec = Math.max(...verdicts.filter((v) => !v.allowed).map((v) => v.retryAfterSec));
  return { refused, retryAfterSec };
}

/** Consumes one point of every budget given; the first refusal throws 429 with Retry-After (all are consumed). */
export async function throttle(checks: [RateLimiter, string][]): Promise<void> {
  const refusal = await consumeAll(checks);
  if (refusal) throw PortalError.rateLimited(refusal.retryAfterSec);
}

/** Gives back the points of an attempt that succeeded (failure-only budgets). */
export async function refundAll(checks: [RefundableRateLimiter, string][]): Promise<void> {
  await Promise.all(checks.map(([limiter, id]) => limiter.refund(id)));
}
