import type { Express } from 'express';
import type { Database } from '@expedition/db';
import type { Logger } from '@expedition/http-kit';
import { systemClock, type Clock } from '@expedition/quoting';
import { createApp } from './app';
import type { DispatcherConfig } from './config';
import { createDeliveryWorkers, type DeliveryWorkers } from './delivery/delivery-worker';
import type { FetchLike } from './delivery/webhook-sender';
import { createProcessorEventSource, type ProcessorEventSource } from './processor';

export interface DispatcherRuntime {
  config: DispatcherConfig;
  db: Database;
  logger: Logger;
  clock?: Clock;
  /** Defaults to the adapter named by PAYMENTS_PROVIDER; the launcher may pass the processor it already built. */
  processor?: ProcessorEventSource;
  fetch?: FetchLike;
}

export interface ComposedDispatcher {
  /** Intake + health; listen on config.port. */
  app: Express;
  /** WEBHOOK_WORKERS delivery workers; NOT started: call start() after listening and await stop() on shutdown. */
  workers: DeliveryWorkers;
}

/** Wires config and shared resources into the app and its delivery workers. Used by main.ts and the launcher. */
export function composeWebhookDispatcher(runtime: DispatcherRuntime): ComposedDispatcher {
  const { config, db, logger } = runtime;
  const clock = runtime.clock ?? systemClock;
  const processor = runtime.processor ?? createProcessorEventSource(config.payments, clock);
  const app = createApp({ prisma: db.prisma, ready: () => db.ping(), logger, clock, processor });
  const workers = createDeliveryWorkers(config.delivery.workers, {
    prisma: db.prisma,
    logger: logger.child({ component: 'webhook-delivery' }),
    clock,
    fetch: runtime.fetch,
    ...config.delivery,
  });
  return { app, workers };
}
