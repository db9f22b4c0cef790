import type Redis from 'ioredis';
import type { Database } from '@expedition/db';
import { createPolicyTokens } from '@expedition/fulfillment';
import type { Observability } from '@expedition/observability';
import { createPaymentProcessor, simulatedBooks, type PaymentProcessor } from '@expedition/payments';
import { createRateLimiter, systemClock, type Clock, type Logger } from '@expedition/platform';
import { DEV_MPP_SECRET, type QuoteApiConfig } from './config';
import type { QuoteApiDeps } from './quote-api.services';

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

/**
 * Config and shared resources as quote-api's deps: the HTTP app (compose.ts) and the stdio MCP server (mcp.stdio.ts)
 * are wired alike, so a challenge issued by one verifies in the other.
 */
export function quoteApiDeps(runtime: QuoteApiRuntime): QuoteApiDeps {
  const { config, db, logger } = runtime;
  const clock = runtime.clock ?? systemClock;
  const processor =
    runtime.processor ?? createPaymentProcessor(config.payments, { clock, simulatedStore: simulatedBooks(db) });
  return {
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
  };
}
