import { randomUUID } from 'node:crypto';
import { isUniqueViolation, type PaymentChannel, type PrismaClient } from '@expedition/db';
import type { Clock } from '@expedition/platform';

/** Long enough for any processor call (the Stripe adapter times out well before), short enough that a crashed holder
 * blocks the quote for seconds, not minutes. */
export const DEFAULT_CLAIM_LEASE_MS = 30_000;

/**
 * The processor idempotency key of a quote's attempt: the quote's and the attempt's, never the channel's, so any
 * channel that takes over a lapsed attempt sends the processor the key the first holder used (docs/decisions.md,
 * "One charge per quote through any crash").
 */
export function attemptKey(quoteId: string, attempt: number): string {
  return `pay_${quoteId}_a${attempt}`;
}

/** A claim this attempt holds. Every write through it is fenced on `holder`: a holder whose lease lapsed and was
 * taken over can no longer change the row. */
export interface HeldClaim {
  quoteId: string;
  holder: string;
  attempt: number;
  /** Set when a previous holder started this attempt and never finished it: it may have charged. Resolve it first. */
  startedAt: Date | null;
  /** The payment a previous holder named for the unfinished attempt, when it named one. */
  inheritedPaymentId: string | null;
  /** The processor idempotency key of this attempt's money-moving call (`attemptKey`). */
  key: string;
}

export type AcquireResult =
  { kind: 'held'; claim: HeldClaim } | { kind: 'paid' } | { kind: 'busy'; retryAfterSec: number };

/** How an attempt ended: `none` (no money moved: the next attempt gets a new key), `charged` (a purchase exists or is
 * being recorded), `unknown` (the processor did not say: the attempt stays started for whoever comes next). */
export type AttemptEnd = 'none' | 'charged' | 'unknown';

/**
 * The per-quote payment claim (table `payment_claims`). Every channel takes it before it asks the processor to move
 * money, so one quote is charged at most once: a second attempt while one is in flight is `busy`, and once a
 * purchase exists every attempt is `paid`, before the processor is called. An attempt is written as started (with
 * its key) before its first processor call, and its number advances only once it is known to have charged nothing.
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
  const kept = { attempt: true, processorPaymentId: true, attemptStartedAt: true } as const;

  /** `channel` is recorded for support; the reconciler keeps the channel of the attempt it resolves. */
  async function acquire(quoteId: string, channel?: PaymentChannel): Promise<AcquireResult> {
    const now = clock.now();
    const holder = newHolder();
    const lease = { holder, leaseUntil: new Date(now.getTime() + leaseMs), updatedAt: now };
    let created: { attempt: number; processorPaymentId: string | null; attemptStartedAt: Date | null } | null = null;
    if (channel) {
      try {
        created = await prisma.paymentClaim.create({ data: { quoteId, channel, ...lease }, select: kept });
      } catch (err) {
        if (!isUniqueViolation(err)) throw err;
      }
    }
    // A claim whose lease has run out (released, or its holder died) is taken over in one conditional update.
    const taken =
      created !== null ||
      (
        await prisma.paymentClaim.updateMany({
          where: { quoteId, leaseUntil: { lte: now } },
          data: channel ? { ...lease, channel } : lease,
        })
      ).count === 1;
    if (!taken) {
      if (await isPaid(quoteId)) return { kind: 'paid' };
      const current = await prisma.paymentClaim.findUnique({ where: { quoteId }, select: { leaseUntil: true } });
      const msLeft = (current?.leaseUntil.getTime() ?? now.getTime()) - now.getTime();
      return { kind: 'busy', retryAfterSec: Math.max(1, Math.ceil(msLeft / 1000)) };
    }
    // A claim just created is as inserted; one taken over carries its previous holder's attempt and payment.
    const row = created ?? (await prisma.paymentClaim.findFirst({ where: { quoteId, holder }, select: kept }));
    if (!row) return { kind: 'busy', retryAfterSec: 1 };
    // Checked while holding the claim: a purchase recorded before this point is seen; none can be recorded through
    // a server-side channel until the claim is released. An unfinished attempt is resolved even on a paid quote: it
    // may be a second charge to find and refund.
    if (!row.attemptStartedAt && !row.processorPaymentId && (await isPaid(quoteId))) {
      await release({ quoteId, holder }, 'charged');
      return { kind: 'paid' };
    }
    return {
      kind: 'held',
      claim: {
        quoteId,
        holder,
        attempt: row.attempt,
        // A named payment is a started attempt even on a row written before attempts were marked started.
        startedAt: row.attemptStartedAt ?? (row.processorPaymentId ? new Date(0) : null),
        inheritedPaymentId: row.processorPaymentId,
        key: attemptKey(quoteId, row.attempt),
      },
    };
  }

  /**
   * Writes the attempt as started, with its key, before its first processor call: from here on a crash leaves a
   * record the reconciler resolves from the processor. False when the claim was lost (then do not call).
   */
  async function begin(claim: Pick<HeldClaim, 'quoteId' | 'holder' | 'key'>): Promise<boolean> {
    const now = clock.now();
    const updated = await prisma.paymentClaim.updateMany({
      where: { quoteId: claim.quoteId, holder: claim.holder, leaseUntil: { gt: now } },
      data: { attemptStartedAt: now, processorKey: claim.key, updatedAt: now },
    });
    return updated.count === 1;
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
    const finished = { processorPaymentId: null, attemptStartedAt: null, processorKey: null };
    const data = end === 'none' ? { ...finished, attempt: { increment: 1 } } : end === 'charged' ? finished : {};
    await prisma.paymentClaim.updateMany({
      where: { quoteId: claim.quoteId, holder: claim.holder },
      data: { ...data, leaseUntil: now, updatedAt: now },
    });
  }

  /** The unfinished attempt this holder inherited moved no money (resolved): continue under the next key. */
  async function advance(claim: HeldClaim): Promise<HeldClaim> {
    const attempt = claim.attempt + 1;
    await prisma.paymentClaim.updateMany({
      where: { quoteId: claim.quoteId, holder: claim.holder },
      data: { attempt, processorPaymentId: null, attemptStartedAt: null, processorKey: null, updatedAt: clock.now() },
    });
    return { ...claim, attempt, startedAt: null, inheritedPaymentId: null, key: attemptKey(claim.quoteId, attempt) };
  }

  /** Quotes whose started attempt was left unfinished and whose lease has lapsed: the reconciler's work list. */
  async function unfinished(limit: number, olderThanMs = 0): Promise<string[]> {
    const now = clock.now();
    const rows = await prisma.paymentClaim.findMany({
      where: {
        attemptStartedAt: { not: null, lte: new Date(now.getTime() - olderThanMs) },
        leaseUntil: { lte: now },
      },
      orderBy: { attemptStartedAt: 'asc' },
      take: limit,
      select: { quoteId: true },
    });
    return rows.map((row) => row.quoteId);
  }

  async function isPaid(quoteId: string): Promise<boolean> {
    return (await prisma.purchase.count({ where: { quoteId } })) > 0;
  }

  return { acquire, begin, name, release, advance, unfinished, isPaid };
}

export type PaymentClaims = ReturnType<typeof createPaymentClaims>;
