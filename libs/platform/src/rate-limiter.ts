import type { Redis } from 'ioredis';
import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  RLWrapperTimeouts,
} from 'rate-limiter-flexible';
import type { Logger } from './logger';

export interface RateLimitResult {
  allowed: boolean;
  /** Whole seconds until the current window resets, rounded up, at least 1. */
  retryAfterSec: number;
  /** Requests left in the current window. */
  remaining: number;
}

export interface RateLimiter {
  consume(id: string): Promise<RateLimitResult>;
}

/** A limiter that can give a point back: consume before the attempt, refund when it succeeded (count failures only). */
export interface RefundableRateLimiter extends RateLimiter {
  refund(id: string): Promise<void>;
}

export interface RateLimiterOptions {
  /** Shared counters across replicas. Without it, counters live in this process only (embedded mode). */
  redis?: Redis;
  points?: number;
  durationSec?: number;
  /** Namespace of the counters (in Redis: the key prefix). Give each limit its own. */
  keyPrefix?: string;
  /**
   * A Redis call slower than this is abandoned and counted in memory instead (default 2 s). A Redis that is down or
   * reconnecting is refused at once (`rejectIfRedisNotReady`); this bound is only for one that hangs. Kept well above
   * the event-loop delays of a loaded replica: a call abandoned while Redis still counts it admits the request twice
   * over, and the shared budget is then exceeded.
   */
  redisTimeoutMs?: number;
  logger?: Pick<Logger, 'warn'>;
  /** Minimum gap between two "Redis unavailable" warnings. */
  warnEveryMs?: number;
}

/**
 * Fixed window per id (the embed budget of spec §8, quote-api's per-IP limit): the window starts at the id's first
 * request and resets lazily, the next request after the reset starts a fresh count. rate-limiter-flexible implements
 * exactly that in Redis (SET NX EX + INCRBY in one Lua script) and in memory.
 *
 * Redis trouble (not connected, erroring, or slower than `redisTimeoutMs`) degrades to an in-memory limiter with the
 * same budget, via rate-limiter-flexible's insuranceLimiter, with a throttled warning. During an outage the budget is
 * therefore enforced per replica (up to replicas x points per window) instead of failing every request.
 */
export function createRateLimiter(options: RateLimiterOptions = {}): RefundableRateLimiter {
  const points = options.points ?? 60;
  const duration = options.durationSec ?? 60;
  const keyPrefix = options.keyPrefix ?? 'rl';
  if (!Number.isInteger(points) || points < 1) throw new Error('points must be a positive integer');
  if (!Number.isInteger(duration) || duration < 1) throw new Error('durationSec must be a positive integer');

  const limiter = options.redis
    ? createRedisLimiter(options.redis, { points, duration, keyPrefix }, options)
    : new RateLimiterMemory({ points, duration, keyPrefix });

  return {
    consume: (id) => consumeOne(limiter, id),
    refund: async (id) => {
      await limiter.reward(id, 1);
    },
  };
}

function consumeOne(limiter: RateLimiterAbstract, id: string): Promise<RateLimitResult> {
  // One promise reaction with handlers made once, not per call: this runs on every gated request.
  return limiter.consume(id).then(admitted, refusedOrError);
}

function admitted(res: RateLimiterRes): RateLimitResult {
  return { allowed: true, retryAfterSec: toRetryAfterSec(res.msBeforeNext), remaining: res.remainingPoints };
}

/** Over the limit is a rejection with a RateLimiterRes; anything else is a real error for the caller. */
function refusedOrError(rejection: unknown): RateLimitResult {
  if (!(rejection instanceof RateLimiterRes)) throw rejection;
  return { allowed: false, retryAfterSec: toRetryAfterSec(rejection.msBeforeNext), remaining: 0 };
}

export function toRetryAfterSec(msBeforeNext: number): number {
  if (!Number.isFinite(msBeforeNext)) return 1;
  return Math.max(1, Math.ceil(msBeforeNext / 1000));
}

interface LimitShape {
  points: number;
  duration: number;
  keyPrefix: string;
}

const REDIS_TIMEOUT_MS = 2_000;

function createRedisLimiter(redis: Redis, shape: LimitShape, options: RateLimiterOptions): RateLimiterAbstract {
  const insuranceLimiter = new WarningMemoryLimiter(shape, throttledWarning(options));
  const redisLimiter = new RateLimiterRedis({
    ...shape,
    storeClient: redis,
    useRedisPackage: false,
    // ioredis would otherwise queue commands while reconnecting and hold every request hostage.
    rejectIfRedisNotReady: true,
    insuranceLimiter,
  });
  return new RLWrapperTimeouts({
    limiter: redisLimiter,
    timeoutMs: options.redisTimeoutMs ?? REDIS_TIMEOUT_MS,
    insuranceLimiter,
  });
}

function throttledWarning(options: RateLimiterOptions): () => void {
  const everyMs = options.warnEveryMs ?? 60_000;
  let lastWarnAt = Number.NEGATIVE_INFINITY;
  return () => {
    const now = Date.now();
    if (now - lastWarnAt < everyMs) return;
    lastWarnAt = now;
    options.logger?.warn(
      { keyPrefix: options.keyPrefix },
      'rate limiter: Redis unavailable, counting in process memory (limit now enforced per replica)',
    );
  };
}

/** The insurance limiter, instrumented so a Redis outage is visible in the logs. */
class WarningMemoryLimiter extends RateLimiterMemory {
  constructor(
    shape: LimitShape,
    private readonly onUse: () => void,
  ) {
    super(shape);
  }

  override consume(...args: Parameters<RateLimiterMemory['consume']>): Promise<RateLimiterRes> {
    this.onUse();
    return super.consume(...args);
  }
}
