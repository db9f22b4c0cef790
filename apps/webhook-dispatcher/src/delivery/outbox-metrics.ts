import type { PrismaClient } from '@expedition/db';
import type { BacklogSample } from '@expedition/observability';

/** A succeeded payment has this long to become a policy or a refund before `payments_succeeded_without_policy` counts it. */
export const PAYMENT_WITHOUT_POLICY_GRACE_MS = 10 * 60_000;
/** Only payments updated within this window are examined, so the sample's cost stays flat as payments accumulate. */
const PAYMENT_WITHOUT_POLICY_LOOKBACK_MS = 7 * 24 * 60 * 60_000;

interface BacklogRow {
  webhook_depth: number;
  webhook_oldest: Date | null;
  mail_depth: number;
  mail_oldest: Date | null;
  without_policy: number;
  refunds_pending: number;
  refunds_failed: number;
}

/**
 * The money path's backlog for the scrape-time gauges, in one statement: pending outbox rows (webhooks and
 * policyholder mails) and the age of the oldest of each (the `(status, next_attempt_at)` indexes); succeeded payments
 * of the last 7 days that are older than 10 minutes and have neither a policy nor a refund decided (fulfillment
 * records a policy or a refund in the transaction that records the payment, so anything here is money kept without
 * cover); refunds pending and failed (the `refund_status` index). Every replica reports the same numbers, so
 * dashboards take `max`.
 */
export async function sampleBacklog(prisma: PrismaClient, now: () => Date): Promise<BacklogSample> {
  const at = now();
  const graceEnd = new Date(at.getTime() - PAYMENT_WITHOUT_POLICY_GRACE_MS);
  const lookbackStart = new Date(at.getTime() - PAYMENT_WITHOUT_POLICY_LOOKBACK_MS);
  const [row] = await prisma.$queryRaw<BacklogRow[]>`
    SELECT
      (SELECT count(*)::int FROM webhook_events WHERE status = 'pending') AS webhook_depth,
      (SELECT min(created_at) FROM webhook_events WHERE status = 'pending') AS webhook_oldest,
      (SELECT count(*)::int FROM policy_mails WHERE status = 'pending') AS mail_depth,
      (SELECT min(created_at) FROM policy_mails WHERE status = 'pending') AS mail_oldest,
      (SELECT count(*)::int FROM payments p
        WHERE p.status = 'succeeded' AND p.refund_status IS NULL
          AND p.updated_at < ${graceEnd}::timestamp(3) AND p.updated_at >= ${lookbackStart}::timestamp(3)
          AND NOT EXISTS (
            SELECT 1 FROM purchases pu JOIN policies po ON po.purchase_id = pu.id
            WHERE pu.processor_payment_id = p.processor_payment_id)) AS without_policy,
      (SELECT count(*)::int FROM payments WHERE refund_status = 'pending') AS refunds_pending,
      (SELECT count(*)::int FROM payments WHERE refund_status = 'failed') AS refunds_failed`;
  const ageSec = (oldest: Date | null | undefined) =>
    oldest ? Math.max(0, (at.getTime() - new Date(oldest).getTime()) / 1000) : 0;
  return {
    webhooks: { depth: Number(row?.webhook_depth ?? 0), oldestPendingAgeSec: ageSec(row?.webhook_oldest) },
    mails: { depth: Number(row?.mail_depth ?? 0), oldestPendingAgeSec: ageSec(row?.mail_oldest) },
    paymentsWithoutPolicy: Number(row?.without_policy ?? 0),
    refunds: { pending: Number(row?.refunds_pending ?? 0), failed: Number(row?.refunds_failed ?? 0) },
  };
}
