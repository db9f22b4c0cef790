import { CHECKOUT_LINK_TTL_MS } from '@expedition/contracts';
import type { PrismaClient } from '@expedition/db';
import { getPlan } from '@expedition/domain-pricing';
import { AppError } from '@expedition/http-kit';
import { hashToken, randomToken, type Clock } from '@expedition/platform';

export interface CheckoutLinkDeps {
  prisma: PrismaClient;
  clock: Clock;
  /** Public base URL of quote-api, which serves the checkout page (`<publicUrl>/checkout/<token>`). */
  publicUrl: string;
}

/** A quote as `loadQuoteForCheckout` returns it: with its estimates and whether it is purchased. */
export type CheckoutQuote = NonNullable<Awaited<ReturnType<typeof loadQuoteForCheckout>>>;

export interface CheckoutLinkInput {
  planId: string;
  email?: string;
  guestNames?: string[];
  agentSummary?: string;
}

export interface CheckoutLink {
  checkoutUrl: string;
  /** ISO instant: 30 minutes after creation (docs/contract.md, Limits). */
  expiresAt: string;
}

/** The quote with what opening a link needs; the caller checks ownership (session id, operator) before `open`. */
export function loadQuoteForCheckout(prisma: PrismaClient, quoteId: string) {
  return prisma.quote.findUnique({
    where: { id: quoteId },
    include: { estimates: true, purchase: { select: { id: true } } },
  });
}

/**
 * Opens the 30-minute hosted checkout link (quote-api's `/checkout/<token>` page) for one plan of a quote. Shared by
 * quote-api's POST /api/v1/checkout and embed-api's POST /api/embed/checkout, so both create exactly the same link.
 * Refusals are AppErrors with stable codes: 400 `invalid_plan`, 400 `quote_not_purchasable` (priced on inquiry),
 * 409 `already_purchased`, 410 `quote_expired`.
 */
export function createCheckoutLinks(deps: CheckoutLinkDeps) {
  async function open(quote: CheckoutQuote, input: CheckoutLinkInput): Promise<CheckoutLink> {
    const now = deps.clock.now();
    const estimate = quote.estimates.find((e) => e.planId === input.planId);
    if (!estimate) {
      throw new AppError(400, 'invalid_plan', `Plan "${input.planId}" is not among this quote's plans`, [
        { path: 'planId', message: `use one of: ${quote.estimates.map((e) => e.planId).join(', ')}` },
      ]);
    }
    if (getPlan(input.planId)?.availabilityMode === 'inquiry') {
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
      throw quoteExpiredError(quote);
    }

    const expiresAt = new Date(now.getTime() + CHECKOUT_LINK_TTL_MS);
    // The bearer token lives only in the link; the database keeps its hash.
    const token = randomToken('cs');
    await deps.prisma.$transaction(async (tx) => {
      await tx.checkoutSession.create({
        data: {
          tokenHash: hashToken(token),
          quoteId: quote.id,
          planId: estimate.planId,
          premiumCents: estimate.premiumCents,
          currency: estimate.currency,
          email: input.email ?? quote.email ?? null,
          guestNames: input.guestNames ?? [],
          agentSummary: input.agentSummary ?? null,
          expiresAt,
        },
      });
      await tx.quote.updateMany({ where: { id: quote.id, status: 'quoted' }, data: { status: 'checkout_open' } });
    });
    return {
      checkoutUrl: `${deps.publicUrl.replace(/\/$/, '')}/checkout/${token}`,
      expiresAt: expiresAt.toISOString(),
    };
  }

  return { open };
}

export type CheckoutLinks = ReturnType<typeof createCheckoutLinks>;

/**
 * 410 `quote_expired`: the quote's premiums were locked until its `expiresAt`; after it nothing is repriced silently.
 * The message tells an agent what to do next (quote again), and that nothing was charged.
 */
export function quoteExpiredError(quote: { quoteNumber: string; expiresAt: Date | null }): AppError {
  const at = quote.expiresAt ? ` at ${quote.expiresAt.toISOString()}` : '';
  return new AppError(
    410,
    'quote_expired',
    `Quote ${quote.quoteNumber} expired${at}; its price is no longer held and nothing was charged. ` +
      'Create a new quote with the same trip details and use the new quoteId and planId.',
  );
}
