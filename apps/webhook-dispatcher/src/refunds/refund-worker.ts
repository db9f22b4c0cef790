import type { Refunds } from '@expedition/fulfillment';
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
