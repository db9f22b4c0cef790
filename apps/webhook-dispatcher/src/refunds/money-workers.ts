import type { PaymentReconciler, Refunds } from '@expedition/fulfillment';
import { createPollingLoop, type Logger, type PollingLoop } from '@expedition/platform';

const SWEEP_BATCH = 20;

/**
 * Retries refunds that could not be made when they were decided (processor outage, a crash right after the commit).
 * Any number of replicas may run it: each refund is idempotent at the processor (`refund_<paymentId>`).
 */
export function createRefundWorker(
  refunds: Pick<Refunds, 'sweep'>,
  settings: { pollIntervalMs: number; logger: Logger },
): PollingLoop {
  return createPollingLoop(async () => ({ backlog: (await refunds.sweep(SWEEP_BATCH)) >= SWEEP_BATCH }), {
    pollIntervalMs: settings.pollIntervalMs,
    onError: (err) => settings.logger.error({ err }, 'refund sweep failed'),
  });
}

/**
 * Accounts for every charge without the processor's events (docs/decisions.md, "One charge per quote through any
 * crash"): at start and then every `intervalMs`, the reconciler resolves unfinished payment attempts and re-checks
 * payments that never ended. Any number of replicas may run it: each quote is resolved under its payment claim.
 */
export function createReconcileWorker(
  reconciler: Pick<PaymentReconciler, 'runOnce'>,
  settings: { intervalMs: number; logger: Logger },
): PollingLoop {
  return createPollingLoop(
    async () => {
      const report = await reconciler.runOnce(SWEEP_BATCH);
      const { paid, inFlight, noCharge } = report.attempts;
      if (paid + inFlight + noCharge + report.payments.charged > 0) {
        settings.logger.info({ ...report.attempts, ...report.payments }, 'reconciled unfinished payments');
      }
      return { backlog: paid + inFlight + noCharge + report.attempts.skipped >= SWEEP_BATCH };
    },
    {
      pollIntervalMs: settings.intervalMs,
      onError: (err) => settings.logger.error({ err }, 'payment reconciliation failed'),
    },
  );
}

/**
 * The simulated processor's re-sends of the events its first tries could not deliver (libs/payments, "The store
 * port"), run where the events are received. Any number of replicas may run it: each re-send is claimed.
 */
export function createEventResendWorker(
  processor: { resendDueEvents(limit?: number): Promise<number> },
  settings: { intervalMs: number; logger: Logger },
): PollingLoop {
  return createPollingLoop(async () => ({ backlog: (await processor.resendDueEvents(SWEEP_BATCH)) >= SWEEP_BATCH }), {
    pollIntervalMs: settings.intervalMs,
    onError: (err) => settings.logger.error({ err }, 'simulated processor: re-sending events failed'),
  });
}
