import type { Express } from 'express';
import type Redis from 'ioredis';
import type { CachedKeyResolver } from '@expedition/auth-publishable-key';
import type { Database } from '@expedition/db';
import { createPolicyTokens } from '@expedition/fulfillment';
import { createKeyResolver, createKeyUsageRecorder, type KeyUsageRecorder } from '@expedition/operators';
import { createPaymentProcessor, simulatedBooks, type PaymentProcessor } from '@expedition/payments';
import { createRateLimiter, systemClock, type Clock, type Logger } from '@expedition/platform';
import type { Observability } from '@expedition/observability';
import { createOptionsWorker, type OptionsWorker } from '@expedition/quoting';
import { createApp } from './app';
import type { EmbedApiConfig } from './config';
import { EMBED_RATE_LIMIT } from './limits';

export interface EmbedApiRuntime {
  config: EmbedApiConfig;
  db: Database;
  logger: Logger;
  /** When set, the per-key budget is shared by every replica. */
  redis?: Redis;
  clock?: Clock;
  /**
   * Defaults to the processor the config names. The all-in-one launcher passes the ONE simulated processor (or one
   * built on the shared simulated store) so intents are visible to every app of the process.
   */
  processor?: PaymentProcessor;
  /** Metrics and tracing of this process (main.ts / the launcher); absent: none. */
  observability?: Observability;
}

export interface EmbedApi {
  app: Express;
  /** Not started: the composition root calls `start()` after listening and awaits `stop()` on shutdown. */
  optionsWorker: OptionsWorker;
  /** The key cache (e.g. `invalidate(key)` after an in-process revocation). */
  keys: CachedKeyResolver;
  /** Writes `publishable_keys.last_used_at` at most once a minute per key; `flush()` on shutdown. */
  keyUsage: KeyUsageRecorder;
}

/** Wires config and shared resources into the app and its options worker. Used by main.ts and the launcher. */
export function composeEmbedApi(runtime: EmbedApiRuntime): EmbedApi {
  const { config, db, logger } = runtime;
  // database_up at scrape time (once per registry: the launcher composes every app on one).
  runtime.observability?.metrics?.watchDatabase(() => db.ping());
  const clock = runtime.clock ?? systemClock;
  const optionsWorker = createOptionsWorker({
    prisma: db.prisma,
    clock,
    logger: logger.child({ component: 'options-worker' }),
    pollIntervalMs: config.optionsPollMs,
    // PostgreSQL: a pending quote from any replica wakes the worker (LISTEN/NOTIFY); PGlite polls.
    notifications: db.notifications,
    onReady: runtime.observability?.metrics?.optionsReady,
  });
  const processor =
    runtime.processor ?? createPaymentProcessor(config.payments, { clock, simulatedStore: simulatedBooks(db) });
  const keys = createKeyResolver(db.prisma, { ttlMs: config.keyCacheTtlMs, clock });
  const keyUsage = createKeyUsageRecorder(db.prisma, { clock, logger });
  const app = createApp({
    prisma: db.prisma,
    ready: () => db.ping(),
    logger,
    clock,
    resolveKey: keys.resolve,
    rateLimiter: createRateLimiter({ redis: runtime.redis, ...EMBED_RATE_LIMIT, logger }),
    firstPartyOrigins: config.firstPartyOrigins,
    testDashboardOrigins: config.testDashboardOrigins,
    trustProxy: config.trustProxy,
    quoteApiUrl: config.quoteApiUrl,
    policyTokens: createPolicyTokens(config.policyTokens),
    onKeyUsed: (key) => keyUsage.touch(key.keyId),
    observability: runtime.observability,
    // Makes the demo feel instant; correctness never depends on it (the worker also polls).
    onQuoteCreated: () => optionsWorker.kick(),
    payments: {
      processor,
      stripePublishableKeys: {
        test: config.payments.stripe?.testPublishableKey,
        live: config.payments.stripe?.livePublishableKey,
      },
    },
  });
  return { app, optionsWorker, keys, keyUsage };
}
