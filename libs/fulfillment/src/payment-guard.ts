import type { Logger } from 'pino';
import type { PaymentChannel, PrismaClient } from '@expedition/db';
import { PaymentProcessorError, type PaymentProcessor } from '@expedition/payments';
import type { Fulfillment } from './fulfillment.service';
import { succeededPaymentOf } from './fulfillment-types';
import type { AttemptEnd, HeldClaim, PaymentClaims } from './payment-claims';

export type Guarded<T> = { kind: 'done'; value: T } | { kind: 'paid' } | { kind: 'busy'; retryAfterSec: number };

/** What a guarded attempt reports back: its result, and whether money moved. */
export interface AttemptResult<T> {
  end: AttemptEnd;
  value: T;
}

/** The claim as an attempt sees it: it names its payment before it moves money (false: the claim was lost). */
export interface AttemptClaim extends HeldClaim {
  name(processorPaymentId: string): Promise<boolean>;
}

export interface PaymentGuardDeps {
  prisma: PrismaClient;
  claims: PaymentClaims;
  processor: Pick<PaymentProcessor, 'retrievePayment'>;
  fulfillment: Pick<Fulfillment, 'recordSucceededPayment'>;
  logger: Logger;
}

/**
 * Runs one money-moving attempt for a quote under its payment claim, the same way for every channel:
 * 1. take the claim (`paid` / `busy` answer without touching the processor);
 * 2. if a previous holder left a payment named and unresolved (it crashed, or the processor did not answer), ask the
 *    processor what became of it: succeeded → record it and answer `paid`; still processing → `busy`; anything else
 *    moved no money → continue under the next attempt's key;
 * 3. run the attempt (which names its payment before money moves) and release the claim as the attempt says.
 */
export function createPaymentGuard(deps: PaymentGuardDeps) {
  const { claims } = deps;

  async function run<T>(
    quoteId: string,
    channel: PaymentChannel,
    attempt: (claim: AttemptClaim) => Promise<AttemptResult<T>>,
  ): Promise<Guarded<T>> {
    const acquired = await claims.acquire(quoteId, channel);
    if (acquired.kind !== 'held') return acquired;
    let claim = acquired.claim;
    let end: AttemptEnd = 'unknown';
    try {
      if (claim.inheritedPaymentId) {
        const previous = await reconcile(claim.inheritedPaymentId);
        if (previous !== 'free') {
          end = previous === 'paid' ? 'charged' : 'unknown';
          return previous === 'paid' ? { kind: 'paid' } : { kind: 'busy', retryAfterSec: 5 };
        }
        claim = await claims.advance(claim);
      }
      const held = claim;
      const result = await attempt({ ...held, name: (processorPaymentId) => claims.name(held, processorPaymentId) });
      end = result.end;
      return { kind: 'done', value: result.value };
    } finally {
      await claims
        .release(claim, end)
        .catch((err: unknown) =>
          deps.logger.error({ err, quoteId }, 'payment claim not released; its lease will lapse'),
        );
    }
  }

  async function reconcile(processorPaymentId: string): Promise<'paid' | 'in_flight' | 'free'> {
    const row = await deps.prisma.payment.findUnique({ where: { processorPaymentId } });
    if (!row) return 'free';
    let status: string;
    try {
      status = (await deps.processor.retrievePayment({ paymentId: processorPaymentId, mode: row.mode })).status;
    } catch (err) {
      if (err instanceof PaymentProcessorError && err.code === 'payment_not_found') return 'free';
      deps.logger.warn(
        { err, paymentId: processorPaymentId },
        'could not learn what became of an earlier payment attempt',
      );
      return 'in_flight';
    }
    if (status === 'succeeded') {
      await deps.fulfillment.recordSucceededPayment(succeededPaymentOf(row));
      deps.logger.info(
        { paymentId: processorPaymentId, quoteId: row.quoteId },
        'an interrupted payment attempt had succeeded; recorded it',
      );
      return 'paid';
    }
    return status === 'processing' ? 'in_flight' : 'free';
  }

  return { run };
}
