import express, { type Express } from 'express';
import type { PrismaClient } from '@expedition/db';
import { answerBeforeExpress, errorHandler, healthRoutes, httpLogger, notFound, requestId } from '@expedition/http-kit';
import { observe, type Observability } from '@expedition/observability';
import type { Clock, Logger } from '@expedition/platform';
import { createMoneyPath, type MoneyPath } from '@expedition/fulfillment';
import { createIntakeBeforeExpress } from './intake/intake-before-express';
import { createIntake, processorEventsRouter } from './intake/processor-events.router';
import type { ProcessorEventSource } from './processor';

export interface DispatcherDeps {
  prisma: PrismaClient;
  ready: () => Promise<void>;
  logger: Logger;
  clock: Clock;
  /** Verifies and parses processor events, and refunds what cannot become a policy (simulated or Stripe adapter). */
  processor: ProcessorEventSource;
  /** Built from the deps when absent; compose passes the one its refund worker also uses. */
  moneyPath?: MoneyPath;
  newPolicyNumber?: (now: Date) => string;
  newWebhookEventId?: () => string;
  /** Metrics and tracing of this process (main.ts / the launcher); absent: none, at no cost. */
  observability?: Observability;
  /** false: every intake request goes through Express (the tests that compare both paths). Default true. */
  intakeBeforeExpress?: boolean;
}

/**
 * The dispatcher's HTTP face: processor-event intake and health. No side effects: delivery workers are separate
 * start/stop objects (see createDeliveryWorkers), started by main.ts or the launcher.
 */
export function createApp(deps: DispatcherDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);

  const { fulfillment } =
    deps.moneyPath ??
    createMoneyPath({
      prisma: deps.prisma,
      clock: deps.clock,
      logger: deps.logger,
      processor: deps.processor,
      newPolicyNumber: deps.newPolicyNumber,
      newWebhookEventId: deps.newWebhookEventId,
    });

  for (const handler of observe(deps.observability, APP_NAME)) app.use(handler);
  app.use(requestId());
  app.use(httpLogger(deps.logger));
  app.use(healthRoutes({ ready: deps.ready }));
  app.get('/', (_req, res) => {
    res.json({ service: 'webhook-dispatcher', intake: '/processor/events' });
  });
  const intake = createIntake({ processor: deps.processor, fulfillment, metrics: deps.observability?.metrics });
  // Mounted before any JSON parser (there is none in this app), so the intake sees the raw bytes.
  app.use(processorEventsRouter(intake));
  app.use(notFound());
  const handleError = errorHandler(deps.logger);
  app.use(handleError);

  // Most processor events are answered before Express (intake/intake-before-express.ts), except when requests are
  // traced: their span is opened by Express middleware (observe), so every request then goes through Express.
  if (deps.intakeBeforeExpress !== false && !deps.observability?.tracing?.enabled) {
    answerBeforeExpress(app, (express) =>
      createIntakeBeforeExpress({
        intake,
        logger: deps.logger,
        metrics: deps.observability?.metrics,
        app: APP_NAME,
        expressApp: app,
        errorHandler: handleError,
        express,
      }),
    );
  }
  return app;
}

const APP_NAME = 'webhook-dispatcher';
