import type { Express } from 'express';
import type Redis from 'ioredis';
import type { Database } from '@expedition/db';
import { createRateLimiter, systemClock, type Clock, type Logger } from '@expedition/platform';
import { createPolicyTokens } from '@expedition/fulfillment';
import { createPaymentProcessor, type PaymentProcessor } from '@expedition/payments';
import type { Observability } from '@expedition/observability';
import { createApp } from './app';
import { DEV_MPP_SECRET, type QuoteApiConfig } from './config';

export interface QuoteApiRuntime {
  config: QuoteApiConfig;
  db: Database;
  logger: Logger;
  /** When set, rate limits are shared by every replica. */
  redis?: Redis;
  clock?: Clock;
  /** Defaults to the processor the config names (simulated in embedded mode). */
  processor?: PaymentProcessor;
  /** Metrics and tracing of this process (main.ts / the launcher); absent: none. */
  observability?: Observability;
}

/** Wires config and shared resources into the app. Used by main.ts and by the all-in-one launcher. */
export function composeQuoteApi(runtime: QuoteApiRuntime): Express {
  const { config, db, logger } = runtime;
  // database_up at scrape time (once per registry: the launcher composes every app on one).
  runtime.observability?.metrics?.watchDatabase(() => db.ping());
  const clock = runtime.clock ?? systemClock;
  const processor = runtime.processor ?? createPaymentProcessor(config.payments, { clock });
  return createApp({
    prisma: db.prisma,
    ready: () => db.ping(),
    logger,
    clock,
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
    mode: config.mode,
    observability: runtime.observability,
    policyTokens: createPolicyTokens(config.policyTokens),
    payments: {
      processor,
      mpp: {
        secrets: [
          config.mpp.secret ?? DEV_MPP_SECRET,
          ...(config.mpp.previousSecret ? [config.mpp.previousSecret] : []),
        ],
        realm: new URL(config.publicUrl).host,
        networkId: config.mpp.networkId,
        paymentMethodTypes: ['card'],
        challengeTtlMs: config.mpp.challengeTtlMs,
      },
      stripePublishableKeys: {
        test: config.payments.stripe?.testPublishableKey,
        live: config.payments.stripe?.livePublishableKey,
      },
    },
  });
}
