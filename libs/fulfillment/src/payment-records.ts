import { Prisma, type Payment, type Purchase } from '@expedition/db';
import type { ProcessorEvent } from '@expedition/payments';
import type {
  ConfirmedFailure,
  FulfillmentDeps,
  FulfillmentOutcome,
  PaymentContext,
  RefundCause,
  SucceededPayment,
  Tx,
} from './fulfillment-types';

/**
 * The rare outcomes of a payment, written through the ORM: a failure recorded, a success kept for refund (and why),
 * the money of a payment that cannot become a policy recorded on its own so it is never lost.
 */
export function createPaymentRecords(deps: Pick<FulfillmentDeps, 'prisma' | 'clock' | 'logger' | 'processorName'>) {
  async function failed(
    tx: Tx,
    facts: SucceededPayment,
    ctx: PaymentContext,
    failure: ConfirmedFailure,
  ): Promise<FulfillmentOutcome> {
    const failureMessage = [failure.declineCode && `decline_code=${failure.declineCode}`, failure.failureMessage]
      .filter(Boolean)
      .join(': ');
    await upsertPayment(tx, facts, ctx, {
      status: 'failed',
      failureCode: failure.failureCode ?? 'payment_failed',
      failureMessage: failureMessage || null,
    });
    // The failed attempt moved no money: its claim key may advance. In this transaction (PGlite has one connection:
    // a write through the root client here would wait on this very transaction).
    const attempt = Number(failure.metadata['claimAttempt']);
    if (Number.isSafeInteger(attempt) && attempt > 0) {
      await tx.paymentClaim.updateMany({
        where: { quoteId: facts.quoteId, attempt, leaseUntil: { lte: deps.clock.now() } },
        data: { attempt: attempt + 1, processorPaymentId: null, updatedAt: deps.clock.now() },
      });
    }
    return { kind: 'payment_failed' };
  }

  async function markRefund(
    tx: Tx,
    payment: Payment,
    cause: RefundCause,
    detail: string,
    purchase: Purchase | null,
  ): Promise<FulfillmentOutcome> {
    await tx.payment.update({
      where: { id: payment.id },
      data: { refundStatus: payment.refundStatus ?? 'pending', refundReason: `${cause}: ${detail}` },
    });
    const fields = { paymentId: payment.processorPaymentId, quoteId: payment.quoteId, cause, detail };
    // Money of the other mode than the quote's is never a mistake of the buyer's: alerted like an untrusted event.
    if (cause === 'mode_mismatch')
      deps.logger.error(fields, 'payment in the other mode than its quote refused; refunding it');
    else deps.logger.warn(fields, 'succeeded payment will not be fulfilled; refunding it');
    return { kind: 'refund_pending', cause, paymentRowId: payment.id, purchase };
  }

  /** Outside the failed transaction: the payment row alone, marked for refund, so the money is never lost. */
  async function recordUnfulfillable(payment: SucceededPayment, event?: ProcessorEvent): Promise<FulfillmentOutcome> {
    return deps.prisma.$transaction(async (tx) => {
      if (event) {
        await tx.processorEvent.createMany({
          data: [
            {
              processor: deps.processorName,
              processorEventId: event.id,
              type: event.sourceType,
              payload: {},
              receivedAt: deps.clock.now(),
            },
          ],
          skipDuplicates: true,
        });
      }
      const row = await tx.payment.upsert({
        where: { processorPaymentId: payment.paymentId },
        create: {
          quoteId: payment.quoteId,
          planId: payment.planId,
          mode: payment.mode,
          channel: payment.channel,
          processor: deps.processorName,
          processorPaymentId: payment.paymentId,
          amountCents: payment.amountCents,
          currency: payment.currency.toUpperCase(),
          status: 'succeeded',
        },
        update: { status: 'succeeded' },
      });
      return markRefund(tx, row, 'unfulfillable', 'the quote could not be turned into a policy', null);
    });
  }

  async function upsertPayment(
    tx: Tx,
    facts: SucceededPayment,
    ctx: PaymentContext,
    outcome: { status: 'succeeded' | 'failed'; failureCode: string | null; failureMessage: string | null },
  ): Promise<Payment> {
    const amounts = { amountCents: facts.amountCents, currency: facts.currency.toUpperCase() };
    const current = await tx.payment.findUnique({ where: { processorPaymentId: facts.paymentId } });
    if (!current) {
      return tx.payment.create({
        data: {
          quoteId: ctx.quote.id,
          planId: ctx.planId,
          operatorId: ctx.quote.operatorId,
          mode: facts.mode,
          channel: facts.channel,
          processor: deps.processorName,
          processorPaymentId: facts.paymentId,
          checkoutSessionId: facts.checkoutSessionId ?? null,
          challengeId: facts.challengeId ?? null,
          ...amounts,
          ...outcome,
        },
      });
    }
    // Events can arrive out of order: a late failure never undoes a success, and a success once recorded is never
    // rewritten (its amount is what the processor took).
    if (current.status === 'succeeded') return current;
    return tx.payment.update({
      where: { id: current.id },
      data: {
        ...amounts,
        ...outcome,
        checkoutSessionId: current.checkoutSessionId ?? facts.checkoutSessionId ?? null,
        challengeId: current.challengeId ?? facts.challengeId ?? null,
      },
    });
  }

  return { failed, markRefund, recordUnfulfillable, upsertPayment };
}

/** Errors in the data itself (a value out of range, a string PostgreSQL refuses), as opposed to an outage. */
export function isDataError(err: unknown): boolean {
  if (err instanceof Prisma.PrismaClientValidationError) return true;
  if (err instanceof Prisma.PrismaClientKnownRequestError)
    return err.code !== 'P2002' && err.code !== 'P2034' && !err.code.startsWith('P1');
  const message = err instanceof Error ? err.message : '';
  return /out of range|invalid input|unsupported Unicode escape|22P05|22008|22003/i.test(message);
}

/** The raw event, minus the PaymentIntent's client secret (a browser credential we have no reason to keep). */
export function storablePayload(raw: unknown): Prisma.InputJsonValue {
  // A `__proto__` key (legal JSON, own property after JSON.parse) makes Prisma's JSON serializer throw (a 500): dropped.
  const copy = JSON.parse(JSON.stringify(raw ?? {}), (key, value: unknown) =>
    key === '__proto__' ? undefined : value,
  ) as {
    data?: { object?: unknown };
  };
  // A signed event whose `data.object` is not an object (a string, `true`) is stored as sent: `in` would throw (a 500).
  const object = copy.data?.object;
  if (object && typeof object === 'object' && 'client_secret' in object)
    delete (object as Record<string, unknown>)['client_secret'];
  return copy as Prisma.InputJsonValue;
}
