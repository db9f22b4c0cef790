import type { Logger } from 'pino';
import type { PrismaClient } from '@expedition/db';
import { PaymentProcessorError, type PaymentProcessor } from '@expedition/payments';
import type { Clock } from '@expedition/platform';

export interface RefundsDeps {
  prisma: PrismaClient;
  clock: Clock;
  logger: Logger;
  /** The adapter that took the money; refunds go back the same way. */
  processor: Pick<PaymentProcessor, 'refundPayment'>;
  /** After this many failed calls a refund is `failed` and needs a person (default 8). */
  maxAttempts?: number;
  /** The sweep leaves a refund alone this long after its last try (default 30 s). */
  retryAfterMs?: number;
}

export type RefundResult = 'succeeded' | 'pending' | 'failed' | 'not_pending';

/**
 * Gives back money that will not become a policy. Idempotent end to end: the processor call carries
 * `refund_<paymentId>`, so two executors, or a retry after a crash, make one refund.
 */
export function createRefunds(deps: RefundsDeps) {
  const maxAttempts = deps.maxAttempts ?? 8;
  const retryAfterMs = deps.retryAfterMs ?? 30_000;

  async function refund(paymentRowId: string): Promise<RefundResult> {
    const payment = await deps.prisma.payment.findUnique({ where: { id: paymentRowId } });
    if (!payment || payment.refundStatus !== 'pending') return 'not_pending';
    await deps.prisma.payment.update({ where: { id: payment.id }, data: { refundAttempts: { increment: 1 } } });
    const fields = {
      paymentId: payment.processorPaymentId,
      quoteId: payment.quoteId,
      amountCents: payment.amountCents,
      reason: payment.refundReason,
    };
    try {
      const result = await deps.processor.refundPayment({
        paymentId: payment.processorPaymentId,
        mode: payment.mode,
        reason: 'duplicate',
        idempotencyKey: `refund_${payment.processorPaymentId}`,
        metadata: { quoteId: payment.quoteId, reason: (payment.refundReason ?? '').slice(0, 200) },
      });
      const done = result.status === 'succeeded';
      await deps.prisma.payment.update({
        where: { id: payment.id },
        data: {
          processorRefundId: result.refundId,
          refundStatus: result.status === 'failed' ? 'failed' : done ? 'succeeded' : 'pending',
          refundedAt: done ? deps.clock.now() : null,
          refundError: result.status === 'failed' ? 'the processor reported the refund as failed' : null,
        },
      });
      deps.logger.info({ ...fields, refundId: result.refundId, status: result.status }, 'payment refunded');
      return result.status;
    } catch (err) {
      // An outage is retried by the sweep; a refusal (nothing to refund, unknown payment) needs a person.
      const retryable = err instanceof PaymentProcessorError ? err.code === 'processor_unavailable' : true;
      const giveUp = !retryable || payment.refundAttempts + 1 >= maxAttempts;
      const message = err instanceof Error ? err.message : String(err);
      await deps.prisma.payment.update({
        where: { id: payment.id },
        data: { refundStatus: giveUp ? 'failed' : 'pending', refundError: message.slice(0, 500) },
      });
      deps.logger.error(
        { ...fields, err: message, giveUp },
        giveUp ? 'refund failed; it needs a person' : 'refund failed; will retry',
      );
      return giveUp ? 'failed' : 'pending';
    }
  }

  /** One round of the refund worker: pending refunds not tried in the last `retryAfterMs`. */
  async function sweep(limit = 20): Promise<number> {
    const due = await deps.prisma.payment.findMany({
      where: { refundStatus: 'pending', updatedAt: { lte: new Date(deps.clock.now().getTime() - retryAfterMs) } },
      select: { id: true },
      orderBy: { updatedAt: 'asc' },
      take: limit,
    });
    for (const { id } of due) await refund(id);
    return due.length;
  }

  return { refund, sweep };
}

export type Refunds = ReturnType<typeof createRefunds>;
