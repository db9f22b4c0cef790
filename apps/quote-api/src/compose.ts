import type { Express } from 'express';
import type Redis from 'ioredis';
import { createRateLimiter } from '@expedition/auth-publishable-key';
import type { Database } from '@expedition/db';
import type { Logger } from '@expedition/http-kit';
import { systemClock, type Clock } from '@expedition/quoting';
import { createApp } from './app';
import type { QuoteApiConfig } from './config';

export interface QuoteApiRuntime {
  config: QuoteApiConfig;
  db: Database;
  logger: Logger;
  /** When set, rate limits are shared by every replica. */
  redis?: Redis;
  clock?: Clock;
}

/** Wires config and shared resources into the app. Used by main.ts and by the all-in-one launcher. */
export function composeQuoteApi(runtime: QuoteApiRuntime): Express {
  const { config, db, logger } = runtime;
  return createApp({
    prisma: db.prisma,
    ready: () => db.ping(),
    logger,
    clock: runtime.clock ?? systemClock,
    publicUrl: config.publicUrl,
    rateLimiter: createRateLimiter({
      redis: runtime.redis,
      points: config.rateLimitPerMinute,
      durationSec: 60,
      keyPrefix: 'quote-api-rl',
      logger,
    }),
    rateLimitPerMinute: config.rateLimitPerMinute,
    trustProxy: config.trustProxy,
  });
}
