import type { Express } from 'express';
import type { CachedKeyResolver } from '@expedition/auth-publishable-key';
import type { Database } from '@expedition/db';
import { createKeyResolver } from '@expedition/operators';
import { systemClock, type Clock, type Logger } from '@expedition/platform';
import type { Observability } from '@expedition/observability';
import { createApp } from './app';
import type { WidgetIframeConfig } from './config';
import { loadPinnedReleases, type PinnedReleases } from './loader-channels';

export interface WidgetIframeRuntime {
  config: WidgetIframeConfig;
  db: Database;
  logger: Logger;
  clock?: Clock;
  /**
   * The key cache to share. The all-in-one launcher passes embed-api's, so one process has one cache (and one
   * revocation bound); alone, the widget server builds its own over the same database.
   */
  keys?: CachedKeyResolver;
  /** Metrics and tracing of this process (main.ts / the launcher); absent: none. */
  observability?: Observability;
}

export interface WidgetIframe {
  app: Express;
  keys: CachedKeyResolver;
  /** What the pinned channel serves (and refused, logged at start). */
  releases: PinnedReleases;
}

/** Wires config and shared resources into the app: verifies the pinned loaders once. Used by main.ts and the launcher. */
export function composeWidgetIframe(runtime: WidgetIframeRuntime): WidgetIframe {
  const { config, db, logger } = runtime;
  // database_up at scrape time (once per registry: the launcher composes every app on one).
  runtime.observability?.metrics?.watchDatabase(() => db.ping());
  const keys =
    runtime.keys ?? createKeyResolver(db.prisma, { ttlMs: config.keyCacheTtlMs, clock: runtime.clock ?? systemClock });
  const releases = loadPinnedReleases(config.releasesDir, logger);
  const app = createApp({
    ready: () => db.ping(),
    logger,
    resolveKey: keys.resolve,
    embedUrl: config.embedUrl,
    embedOrigin: config.embedOrigin,
    testDashboardOrigins: config.testDashboardOrigins,
    payments: config.payments,
    loaderDir: config.loaderDir,
    frameDir: config.frameDir,
    releases,
    trustProxy: config.trustProxy,
    observability: runtime.observability,
  });
  return { app, keys, releases };
}
