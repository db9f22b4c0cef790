import type { Logger } from 'pino';
import type { PaymentChannel } from '@expedition/db';
import type { AttemptResolver } from './attempt-resolver';
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
  claims: PaymentClaims;
  resolver: AttemptResolver;
  logger: Logger;
}

/** How long a payer is asked to wait while an earlier attempt's fate is still unknown. */
const IN_FLIGHT_RETRY_AFTER_SEC = 5;

/**
 * Runs one money-moving attempt for a quote under its payment claim, the same way for every channel
 * (docs/decisions.md, "One charge per quote through any crash"):
 * 1. take the claim (`paid` / `busy` answer without touching the processor);
 * 2. if a previous holder started an attempt and never finished it, ask the processor what it charged for the quote
 *    (the resolver): a charge is recorded (the policy, or a refund) and the answer is `paid`; one still processing,
 *    or a processor that does not answer, is `busy`; only a known chargeless attempt lets this one go on, under the
 *    next attempt's key;
 * 3. write the attempt as started, with its key, before the first processor call;
 * 4. run the attempt (which names its payment, if it has one, before money moves) and release the claim as the
 *    attempt says: `none` advances the key, `charged` finishes, `unknown` leaves it started for the resolver.
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
      if (claim.startedAt) {
        const previous = await deps.resolver.resolve(claim);
        if (previous === 'paid') {
          end = 'charged';
          return { kind: 'paid' };
        }
        if (previous === 'in_flight') return { kind: 'busy', retryAfterSec: IN_FLIGHT_RETRY_AFTER_SEC };
        claim = await claims.advance(claim);
        // The chargeless attempt was resolved on a quote another payment had bought meanwhile.
        if (await claims.isPaid(quoteId)) {
          end = 'charged';
          return { kind: 'paid' };
        }
      }
      if (!(await claims.begin(claim))) {
        end = 'none';
        return { kind: 'busy', retryAfterSec: 1 };
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

  return { run };
}
