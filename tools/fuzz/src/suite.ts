import type { Express } from 'express';
import pino from 'pino';
import { listen, type RunningServer } from '@expedition/http-kit';
import type { Database } from '@expedition/db';
import { fuzzRoute } from './engine';
import { printReport, summarizeViolations } from './report';
import type { RouteSpec, RouteStats } from './route-spec';
import { FUZZ_RUNS } from './settings';
import { installWriteLog } from './write-log';

/** Silent, or errors on stderr with FUZZ_DEBUG=1 (to see the cause of a 5xx the fuzz found). */
export const fuzzLogger = () => pino({ level: process.env['FUZZ_DEBUG'] ? 'error' : 'silent' });

/** Ports of this project: 16650–16699 (one per suite). */
export const FUZZ_PORTS = {
  quoteApi: 16650,
  embedApi: 16651,
  dispatcher: 16652,
  widget: 16653,
  portal: 16654,
  portalOperator: 16655,
} as const;

/**
 * What a JSON body parser answers before any route code, on every route behind it: 400 `invalid_json`, 413 over the
 * body limit, 415 for a charset it cannot decode (e.g. `application/json; charset=latin1`). The quoting API documents
 * 400 and 413; the portal's OpenAPI document lists none of them on body-less routes (reported as a documentation gap).
 */
export const BODY_PARSER_STATUSES = [400, 413, 415];

/** Every table a public route writes; a refused request must leave all of their counts unchanged. */
export const WRITTEN_TABLES = [
  'quotes',
  'quote_estimates',
  'quote_options',
  'checkout_sessions',
  'payment_challenges',
  'idempotency_records',
  'payments',
  'payment_claims',
  'processor_events',
  'purchases',
  'policies',
  'commissions',
  'webhook_events',
  'audit_entries',
  'operators',
  'operator_users',
  'operator_sessions',
  'user_tokens',
  'publishable_keys',
  'secret_keys',
  'allowed_origins',
] as const;

export interface FuzzApp {
  db: Database;
  app: Express;
  port: number;
  /** Route table; built after the app listens (specs may need seeded ids). */
  routes(): RouteSpec[] | Promise<RouteSpec[]>;
  close(): Promise<void>;
}

/**
 * One jest suite per app: the app listens on its fuzz port, one `it` per route runs FUZZ_RUNS inputs and fails with
 * every distinct violation and its input; the counts are printed per route and in total.
 */
export function fuzzSuite(
  name: string,
  start: () => Promise<FuzzApp>,
  knownFailures: Record<string, string> = {},
): void {
  describe(`fuzz: ${name}`, () => {
    let fuzzApp: FuzzApp;
    let server: RunningServer;
    const stats: RouteStats[] = [];
    let routes: RouteSpec[] = [];

    beforeAll(async () => {
      fuzzApp = await start();
      await installWriteLog(fuzzApp.db, WRITTEN_TABLES);
      server = await listen(fuzzApp.app, { port: fuzzApp.port, host: '127.0.0.1' });
      routes = await fuzzApp.routes();
    });
    afterAll(async () => {
      printReport(name, stats);
      await server?.close(100);
      await fuzzApp?.close();
    });

    it(`every route gets ${FUZZ_RUNS} inputs: only documented statuses, no 5xx, no stack trace, nothing written when refused`, async () => {
      expect(routes.length).toBeGreaterThan(0);
      const problems: string[] = [];
      for (const route of routes) {
        const result = await fuzzRoute({ baseUrl: server.url.replace('0.0.0.0', '127.0.0.1'), db: fuzzApp.db }, route);
        stats.push(result);
        // A route with no input that reached it tests nothing.
        if (result.inputs < FUZZ_RUNS * 0.9)
          problems.push(`${route.name}: only ${result.inputs} of ${FUZZ_RUNS} inputs were sent`);
        if (knownFailures[route.name]) continue;
        problems.push(...summarizeViolations(result.violations));
      }
      if (problems.length) throw new Error(`${problems.length} distinct problem(s):\n${problems.join('\n')}`);
    });
  });
}
