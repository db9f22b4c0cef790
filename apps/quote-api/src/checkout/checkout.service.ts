import { timingSafeEqual } from 'node:crypto';
import { CHECKOUT_LINK_TTL_MS, type CheckoutRequest } from '@expedition/contracts';
import type { PrismaClient } from '@expedition/db';
import { getPlan } from '@expedition/domain-pricing';
import { AppError } from '@expedition/http-kit';
import { isUuid, randomToken, type Clock } from '@expedition/quoting';

export interface CheckoutServiceDeps {
  prisma: PrismaClient;
  clock: Clock;
  publicUrl: string;
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export function createCheckoutService(deps: CheckoutServiceDeps) {
  /** Validates quote, session and plan, then opens a 30-minute checkout session. */
  async function open(req: CheckoutRequest) {
    const now = deps.clock.now();
    const quote = isUuid(req.quoteId)
      ? await deps.prisma.quote.findUnique({
          where: { id: req.quoteId },
          include: { estimates: true, purchase: { select: { id: true } } },
        })
      : null;
    if (!quote) throw AppError.notFound('quote_not_found', `No quote with id "${req.quoteId}"`);
    if (!sameSecret(quote.sessionId, req.sessionId)) {
      throw new AppError(403, 'session_mismatch', 'sessionId does not belong to this quote');
    }
    const estimate = quote.estimates.find((e) => e.planId === req.planId);
    if (!estimate) {
      throw new AppError(400, 'invalid_plan', `Plan "${req.planId}" is not among this quote's plans`, [
        { path: 'planId', message: `use one of: ${quote.estimates.map((e) => e.planId).join(', ')}` },
      ]);
    }
    if (getPlan(req.planId)?.availabilityMode === 'inquiry') {
      throw new AppError(
        400,
        'quote_not_purchasable',
        'This plan is priced on inquiry: an underwriter must confirm the premium before it can be bought',
      );
    }
    if (quote.purchase || quote.status === 'purchased') {
      throw new AppError(409, 'already_purchased', `Quote ${quote.quoteNumber} is already purchased`);
    }
    if (quote.expiresAt && quote.expiresAt <= now) {
      throw new AppError(410, 'quote_expired', `Quote ${quote.quoteNumber} has expired; create a new quote`);
    }

    const expiresAt = new Date(now.getTime() + CHECKOUT_LINK_TTL_MS);
    const session = await deps.prisma.$transaction(async (tx) => {
      const created = await tx.checkoutSession.create({
        data: {
          token: randomToken('cs'),
          quoteId: quote.id,
          planId: estimate.planId,
          premiumCents: estimate.premiumCents,
          currency: estimate.currency,
          email: req.email ?? quote.email ?? null,
          guestNames: req.guestNames ?? [],
          agentSummary: req.agentSummary ?? null,
          expiresAt,
        },
      });
      await tx.quote.updateMany({ where: { id: quote.id, status: 'quoted' }, data: { status: 'checkout_open' } });
      return created;
    });
    return { checkoutUrl: `${deps.publicUrl}/checkout/${session.token}`, expiresAt: expiresAt.toISOString() };
  }

  /** What the checkout page shows for a token: unknown, expired, paid, or open with the time left. */
  async function view(token: string) {
    if (!/^cs_[A-Za-z0-9_-]{20,80}$/.test(token)) return { state: 'unknown' as const };
    const session = await deps.prisma.checkoutSession.findUnique({
      where: { token },
      include: { quote: true, plan: true },
    });
    if (!session) return { state: 'unknown' as const };
    if (session.status === 'paid') return { state: 'paid' as const, session };
    const msLeft = session.expiresAt.getTime() - deps.clock.now().getTime();
    if (session.status === 'expired' || msLeft <= 0) return { state: 'expired' as const, session };
    return { state: 'open' as const, session, msLeft };
  }

  return { open, view };
}

export type CheckoutService = ReturnType<typeof createCheckoutService>;
