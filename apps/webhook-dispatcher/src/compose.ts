import type { Express } from 'express';
import type { Database } from '@expedition/db';
import { systemClock, type Clock, type Logger } from '@expedition/platform';
import type { Observability } from '@expedition/observability';
import { createApp } from './app';
import type { DispatcherConfig } from './config';
import {
  createMoneyPath,
  createPolicyTokens,
  type PaymentReconciler,
  type PolicyTokens,
} from '@expedition/fulfillment';
import { createDeliveryWorkers, type DeliveryWorkers } from './delivery/delivery-worker';
import { sampleBacklog } from './delivery/outbox-metrics';
import { createEventResendWorker, createReconcileWorker, createRefundWorker } from './refunds/money-workers';
import type { FetchLike } from './delivery/webhook-sender';
import { createProcessorEventSource, type ProcessorEventSource } from './processor';
import { DEFAULT_RECONCILE_INTERVAL_MS } from '@expedition/payments';
import { createSecretBox, resolveWebhookSecretKeys, type Keyring, type SecretBox } from '@expedition/operators';
import { mailDomainOf, mailerFromConfig, type Mailer } from '@expedition/mail';
import { createPolicyMailWorker, type PolicyDocuments, type PolicyMailWorker } from './policy-mail/policy-mail-worker';
import { policyDocumentsFor } from './policy-mail/policy-documents';
import { createAcpOrderWorker, type AcpOrderWorker } from './acp-orders/acp-order-worker';

export interface DispatcherRuntime {
  config: DispatcherConfig;
  db: Database;
  logger: Logger;
  clock?: Clock;
  /** Defaults to the adapter named by PAYMENTS_PROVIDER; the launcher may pass the processor it already built. */
  processor?: ProcessorEventSource;
  fetch?: FetchLike;
  /** Defaults to WEBHOOK_SECRET_KEYS, or DATA_DIR/webhook-secret-keys in embedded mode (resolveWebhookSecretKeys). */
  webhookSecretKeys?: Keyring;
  /** Metrics (request histograms, deliveries, payments, outbox gauges) and tracing; absent: none. */
  observability?: Observability;
  /** Defaults to SMTP_URL, else the outbox under DATA_DIR (libs/mail); tests pass their own. */
  mailer?: Mailer;
  /** What policy mails are made of; defaults to libs/policy-documents. */
  documents?: PolicyDocuments;
}

export interface ComposedDispatcher {
  /** Intake + health; listen on config.port. */
  app: Express;
  /** WEBHOOK_WORKERS delivery workers and the refund worker; NOT started: call start() after listening and await
   * stop() on shutdown. */
  workers: DeliveryWorkers;
  /** The policyholder mail workers (MAIL_WORKERS), started and stopped with `workers`. */
  mailWorkers: readonly PolicyMailWorker[];
  /** The ACP order event worker (one when WEBHOOK_WORKERS > 0, else none), started and stopped with `workers`. */
  acpOrderWorker: AcpOrderWorker | null;
  /** The payment reconciler its worker runs on a schedule; `npm run admin -- payments:reconcile` runs it once. */
  reconciler: PaymentReconciler;
}

/** Wires config and shared resources into the app and its delivery workers. Used by main.ts and the launcher. */
export function composeWebhookDispatcher(runtime: DispatcherRuntime): ComposedDispatcher {
  const { config, db, logger } = runtime;
  const clock = runtime.clock ?? systemClock;
  const processor = runtime.processor ?? createProcessorEventSource(config.payments, db, clock);
  const { observability } = runtime;
  const moneyPath = createMoneyPath({
    prisma: db.prisma,
    clock,
    logger,
    processor,
    quoteApiUrl: config.quoteApiUrl,
    onReconciled: (result, mode) => observability?.metrics?.reconciliation(result, mode),
  });
  // Every policy access token this replica hands out (webhook documentUrl, the confirmation e-mail's links).
  const policyTokens = createPolicyTokens(config.policyTokens);
  const app = createApp({
    prisma: db.prisma,
    ready: () => db.ping(),
    logger,
    clock,
    processor,
    moneyPath,
    observability,
  });
  observability?.metrics?.sampleBacklog(
    () => sampleBacklog(db.prisma, () => clock.now()),
    (err) => logger.warn({ err }, 'metrics: backlog sample failed'),
  );
  observability?.metrics?.watchDatabase(() => db.ping());
  const refundWorker = createRefundWorker(moneyPath.refunds, {
    pollIntervalMs: config.delivery.pollIntervalMs * 5,
    logger: logger.child({ component: 'refunds' }),
  });
  const reconcileWorker = createReconcileWorker(moneyPath.reconciler, {
    intervalMs: config.payments.reconcileIntervalMs ?? DEFAULT_RECONCILE_INTERVAL_MS,
    logger: logger.child({ component: 'reconciler' }),
  });
  // The simulated processor (not Stripe, which re-sends on its own) re-sends what it could not deliver at once.
  const resendWorker =
    'resendDueEvents' in processor && typeof processor.resendDueEvents === 'function'
      ? createEventResendWorker(processor as { resendDueEvents(limit?: number): Promise<number> }, {
          intervalMs: 10_000,
          logger: logger.child({ component: 'simulated-processor' }),
        })
      : null;
  const delivery = createDeliveryWorkers(config.delivery.workers, {
    prisma: db.prisma,
    logger: logger.child({ component: 'webhook-delivery' }),
    clock,
    fetch: runtime.fetch,
    secretBox: webhookSecretBox(runtime),
    // PostgreSQL: a new outbox row wakes the workers (LISTEN/NOTIFY); PGlite has none and they poll.
    notifications: db.notifications,
    metrics: observability?.metrics,
    policyTokens,
    ...config.delivery,
  });
  const mailWorkers = createMailWorkers(runtime, clock, policyTokens);
  // Agent platforms' order events (docs/acp.md): the delivery settings of policy.issued, its own retry schedule.
  const acpOrderWorker =
    config.delivery.workers > 0
      ? createAcpOrderWorker({
          prisma: db.prisma,
          logger: logger.child({ component: 'acp-order-events' }),
          clock,
          fetch: runtime.fetch,
          secretBox: webhookSecretBox(runtime),
          metrics: observability?.metrics,
          policyTokens,
          allowPrivateNetworks: config.delivery.allowPrivateNetworks,
          timeoutMs: config.delivery.timeoutMs,
          leaseMs: config.delivery.leaseMs,
          batchSize: config.delivery.batchSize,
          pollIntervalMs: config.delivery.pollIntervalMs,
        })
      : null;
  const workers: DeliveryWorkers = {
    workers: delivery.workers,
    start: () => {
      delivery.start();
      refundWorker.start();
      reconcileWorker.start();
      resendWorker?.start();
      acpOrderWorker?.start();
      mailWorkers.forEach((w) => w.start());
    },
    stop: async () => {
      await Promise.all([
        delivery.stop(),
        refundWorker.stop(),
        reconcileWorker.stop(),
        resendWorker?.stop(),
        acpOrderWorker?.stop(),
        ...mailWorkers.map((w) => w.stop()),
      ]);
    },
  };
  return { app, workers, mailWorkers, acpOrderWorker, reconciler: moneyPath.reconciler };
}

/** MAIL_WORKERS policyholder mail workers; none when the replica sends no mail. */
function createMailWorkers(runtime: DispatcherRuntime, clock: Clock, policyTokens: PolicyTokens): PolicyMailWorker[] {
  const { config, db, logger } = runtime;
  if (config.mail.workers === 0) return [];
  const mailer =
    runtime.mailer ??
    mailerFromConfig({
      smtpUrl: config.mail.smtpUrl,
      from: config.mail.from,
      dataDir: config.dataDir,
      production: config.production,
      clock,
      logger,
    })?.mailer;
  // loadConfig refuses production without SMTP_URL when this replica sends mail, so one of the two exists.
  if (!mailer) throw new Error('no mailer: set SMTP_URL');
  const documents = runtime.documents ?? policyDocumentsFor(db.prisma, config.quoteApiUrl, policyTokens);
  return Array.from({ length: config.mail.workers }, (_, i) =>
    createPolicyMailWorker({
      prisma: db.prisma,
      logger: logger.child({ component: 'policy-mail', worker: i + 1 }),
      clock,
      mailer,
      documents,
      quoteApiUrl: config.quoteApiUrl,
      policyTokens,
      mailDomain: mailDomainOf(config.mail.from),
      metrics: runtime.observability?.metrics,
      ...config.mail,
    }),
  );
}

/**
 * Opens operators' sealed webhook secrets for the delivery workers: the keyring from WEBHOOK_SECRET_KEYS, or in
 * embedded mode DATA_DIR/webhook-secret-keys (created on first start). An intake-only replica (WEBHOOK_WORKERS=0)
 * signs nothing and needs no keyring.
 */
function webhookSecretBox(runtime: DispatcherRuntime): Pick<SecretBox, 'open'> {
  const { config } = runtime;
  if (config.delivery.workers === 0 && !runtime.webhookSecretKeys) {
    return {
      open: () => {
        throw new Error('this replica has no delivery workers and no webhook secret keyring');
      },
    };
  }
  const keyring =
    runtime.webhookSecretKeys ??
    resolveWebhookSecretKeys({
      configured: config.webhookSecretKeys,
      embedded: !config.databaseUrl,
      dataDir: config.dataDir,
    });
  return createSecretBox(keyring);
}
