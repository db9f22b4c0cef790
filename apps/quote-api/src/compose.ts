import type { Express } from 'express';
import { createApp } from './app';
import { quoteApiDeps, type QuoteApiRuntime } from './quote-api.runtime';

/** Wires config and shared resources into the app. Used by main.ts and by the all-in-one launcher. */
export function composeQuoteApi(runtime: QuoteApiRuntime): Express {
  // database_up at scrape time (once per registry: the launcher composes every app on one).
  runtime.observability?.metrics?.watchDatabase(() => runtime.db.ping());
  return createApp(quoteApiDeps(runtime));
}
