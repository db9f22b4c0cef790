import pino from 'pino';
import type { Database } from '@expedition/db';
import { createMoneyPath } from '@expedition/fulfillment';
import { createPaymentProcessor, simulatedBooks, type PaymentsSettings } from '@expedition/payments';
import { systemClock, type Clock } from '@expedition/platform';

/**
 * The payments:* commands' view of the money path: the reconciler the dispatcher runs on a schedule, and what the
 * processor says it charged for a quote. Built on the processor the environment names, with the simulated processor's
 * books in the database, so the CLI sees what the apps charged (docs/runbooks.md, "UnrecordedChargesFound").
 */
export function createPaymentsAdmin(db: Database, settings: PaymentsSettings, clock: Clock = systemClock) {
  const processor = createPaymentProcessor(settings, { clock, simulatedStore: simulatedBooks(db) });
  const moneyPath = createMoneyPath({ prisma: db.prisma, clock, logger: pino({ level: 'silent' }), processor });

  /** Every payment the processor holds for the quote, in the quote's mode, with what our records say of each. */
  async function charges(quoteId: string) {
    const quote = await db.prisma.quote.findUnique({ where: { id: quoteId }, select: { mode: true } });
    if (!quote) return null;
    const found = await processor.findPayments({ quoteId, mode: quote.mode });
    const rows = await db.prisma.payment.findMany({
      where: { processorPaymentId: { in: found.map((p) => p.paymentId) } },
      select: { processorPaymentId: true, status: true, refundStatus: true },
    });
    const purchase = await db.prisma.purchase.findUnique({ where: { quoteId }, select: { processorPaymentId: true } });
    return {
      quoteId,
      mode: quote.mode,
      processor: processor.name,
      charges: found.map((p) => {
        const row = rows.find((r) => r.processorPaymentId === p.paymentId);
        return {
          paymentId: p.paymentId,
          status: p.status,
          amountCents: p.amountCents,
          currency: p.currency.toUpperCase(),
          amountRefundedCents: p.amountRefundedCents,
          channel: p.metadata['channel'] ?? null,
          recorded: row ? { status: row.status, refundStatus: row.refundStatus } : null,
          boughtThePolicy: purchase?.processorPaymentId === p.paymentId,
        };
      }),
    };
  }

  return { reconcile: (limit?: number) => moneyPath.reconciler.runOnce(limit), charges };
}

export type PaymentsAdmin = ReturnType<typeof createPaymentsAdmin>;
