import { randomUUID } from 'node:crypto';
import { isUniqueViolation, type PaymentChannel, type PrismaClient } from '@expedition/db';
import type { Clock } from '@expedition/platform';

/** Long enough for any processor call (the Stripe adapter times out well before), short enough that a crashed holder
 * blocks the quote for seconds, not minutes. */
export const DEFAULT_CLAIM_LEASE_MS = 30_000;

/** A claim this attempt holds. Every write through it is fenced on `holder`: a holder whose lease lapsed and was
 * taken over can no longer change the row. */
export interface HeldClaim {
  quoteId: string;
  holder: string;
  attempt: number;
  /** The payment a previous holder named and left unresolved (crash, processor outage): reconcile it first. */
  inheritedPaymentId: string | null;
  /** The processor idempotency key of a money-moving call, per quote and attempt (e.g. `mpp_<quoteId>_a2`). */
  key(operation: string): string;
}

export type AcquireResult =
  { kind: 'held'; claim: HeldClaim } | { kind: 'paid' } | { kind: 'busy'; retryAfterSec: number };

/** How an attempt ended: `none` (no money moved: the next attempt gets a new key), `charged` (a purchase exists or is
 * being recorded), `unknown` (the processor did not say: the payment stays named for whoever comes next). */
export type AttemptEnd = 'none' | 'charged' | 'unknown';

/**
 * The per-quote payment claim (table `payment_claims`). Every channel takes it before it asks the processor to move
 * money, so one quote is charged at most once: a second attempt while one is in flight is `busy`, and once a
 * purchase exists every attempt is `paid`, before the processor is called.
 */
export function createPaymentClaims(deps: {
  prisma: PrismaClient;
  clock: Clock;
  leaseMs?: number;
  newHolder?: () => string;
}) {
  const { prisma, clock } = deps;
  const leaseMs = deps.leaseMs ?? DEFAULT_CLAIM_LEASE_MS;
  const newHolder = deps.newHolder ?? randomUUID;

  async function acquire(quoteId: string, channel: PaymentChannel): Promise<AcquireResult> {
    const now = clock.now();
    const holder = newHolder();
    const lease = { holder, channel, leaseUntil: new Date(now.getTime() + leaseMs), updatedAt: now };
    const kept = { attempt: true, processorPaymentId: true } as const;
    let created: { attempt: number; processorPaymentId: string | null } | null = null;
    try {
      created = await prisma.paymentClaim.create({ data: { quoteId, ...lease }, select: kept });
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
    }
    // A claim whose lease has run out (released, or its holder died) is taken over in one conditional update.
    const taken =
      created !== null ||
      (await prisma.paymentClaim.updateMany({ where: { quoteId, leaseUntil: { lte: now } }, data: lease })).count === 1;
    if (!taken) {
      if (await isPaid(quoteId)) return { kind: 'paid' };
      const current = await prisma.paymentClaim.findUnique({ where: { quoteId }, select: { leaseUntil: true } });
      const msLeft = (current?.leaseUntil.getTime() ?? now.getTime()) - now.getTime();
      return { kind: 'busy', retryAfterSec: Math.max(1, Math.ceil(msLeft / 1000)) };
    }
    // Checked while holding the claim: a purchase recorded before this point is seen; none can be recorded through
    // a server-side channel until the claim is released.
    if (await isPaid(quoteId)) {
      await release({ quoteId, holder }, 'charged');
      return { kind: 'paid' };
    }
    // A claim just created is as inserted; one taken over carries its previous holder's attempt and payment.
    const row = created ?? (await prisma.paymentClaim.findFirst({ where: { quoteId, holder }, select: kept }));
    if (!row) return { kind: 'busy', retryAfterSec: 1 };
    return {
      kind: 'held',
      claim: {
        quoteId,
        holder,
        attempt: row.attempt,
        inheritedPaymentId: row.processorPaymentId,
        key: (operation) => `${operation}_${quoteId}_a${row.attempt}`,
      },
    };
  }

  /** Names the payment this holder is about to move money on; false when the claim was lost (then do not charge). */
  async function name(claim: Pick<HeldClaim, 'quoteId' | 'holder'>, processorPaymentId: string): Promise<boolean> {
    const now = clock.now();
    const updated = await prisma.paymentClaim.updateMany({
      where: { quoteId: claim.quoteId, holder: claim.holder, leaseUntil: { gt: now } },
      data: { processorPaymentId, updatedAt: now },
    });
    return updated.count === 1;
  }

  /** Frees the quote for the next attempt; what is kept depends on how this one ended. */
  async function release(claim: Pick<HeldClaim, 'quoteId' | 'holder'>, end: AttemptEnd): Promise<void> {
    const now = clock.now();
    const data =
      end === 'none'
        ? { attempt: { increment: 1 }, processorPaymentId: null }
        : end === 'charged'
          ? { processorPaymentId: null }
          : {};
    await prisma.paymentClaim.updateMany({
      where: { quoteId: claim.quoteId, holder: claim.holder },
      data: { ...data, leaseUntil: now, updatedAt: now },
    });
  }

  /** The attempt this holder inherited moved no money (reconciled): continue under the next key. */
  async function advance(claim: HeldClaim): Promise<HeldClaim> {
    await prisma.paymentClaim.updateMany({
      where: { quoteId: claim.quoteId, holder: claim.holder },
      data: { attempt: claim.attempt + 1, processorPaymentId: null, updatedAt: clock.now() },
    });
    const attempt = claim.attempt + 1;
    return {
      ...claim,
      attempt,
      inheritedPaymentId: null,
      key: (operation) => `${operation}_${claim.quoteId}_a${attempt}`,
    };
  }

  async function isPaid(quoteId: string): Promise<boolean> {
    return (await prisma.purchase.count({ where: { quoteId } })) > 0;
  }

  return { acquire, name, release, advance };
}

export type PaymentClaims = ReturnType<typeof createPaymentClaims>;
