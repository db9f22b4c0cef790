import type { Mode } from '@expedition/contracts';
import type { PrismaClient } from '@expedition/db';
import { findDestination } from '@expedition/domain-pricing';
import { CONFIRMATION_MAIL, policyLinks, type PolicyTokens } from '@expedition/fulfillment';

/** What the payer sees after paying; the policy itself, not another form. */
export interface IssuedPolicy {
  policyNumber: string;
  quoteNumber: string;
  planName: string;
  planBrand: string;
  planTier: string;
  /** The catalog's carrier, "(illustrative)": the catalog's carriers are invented (libs/policy-documents). */
  planCarrier: string;
  premiumCents: number;
  currency: string;
  mode: Mode;
  startDate: Date | null;
  endDate: Date | null;
  /** The destination's name from the catalog (never the slug), in English; pages write it from the slug. */
  destinationName: string;
  destinationSlug: string;
  travelers: number;
  travelerAges: number[];
  durationDays: number | null;
  /** Names the agent gave for the link, if any. */
  guestNames: string[];
  /** Where the confirmation e-mail (with the certificate) goes; null: no address was given, no e-mail is sent. */
  email: string | null;
  /** Whether that e-mail has gone out yet (`sent`), is on its way (`pending`), failed, or has no address. */
  mailStatus: 'pending' | 'sent' | 'failed' | 'no_address' | null;
  /** The certificate of insurance (PDF, with the policy's access token): the holder of this link is the buyer. */
  documentUrl: string;
  /** The policy page for people (`/policies/{n}?access_token=…`), the same token. */
  pageUrl: string;
}

export type CheckoutReceipt =
  /** Nothing paid yet on this link, and the quote is not bought: show the form. */
  | { kind: 'none' }
  /** This link's payment succeeded; the policy is being recorded (the processor's event is on its way). */
  | { kind: 'issuing'; quoteNumber: string }
  /** This link's payment bought the quote. */
  | { kind: 'paid_here'; policy: IssuedPolicy }
  /**
   * The quote was bought another way (another link, machine payment, the operator's page). `chargedHere` says whether
   * a payment on THIS link also succeeded (a duplicate, refunded automatically by the money path).
   */
  | {
      kind: 'bought_elsewhere';
      quoteNumber: string;
      policyNumber: string | null;
      planName: string | null;
      chargedHere: boolean;
    };

/** The session as the checkout service's view returns it: its id and quote are all this lookup needs. */
export interface ReceiptSession {
  id: string;
  quoteId: string;
  guestNames: string[];
  email: string | null;
}

/**
 * Reads what became of a checkout link's quote: the purchase, its policy and plan, and whether this link's own payment
 * was the one that bought it. Read-only; the money path writes all of it.
 */
export function createCheckoutReceiptRepository(prisma: PrismaClient, publicUrl: string, policyTokens: PolicyTokens) {
  async function forSession(session: ReceiptSession): Promise<CheckoutReceipt> {
    const [purchase, succeededHere] = await Promise.all([
      prisma.purchase.findUnique({
        where: { quoteId: session.quoteId },
        select: {
          processorPaymentId: true,
          payment: { select: { checkoutSessionId: true } },
          plan: { select: { name: true, brand: true, tier: true, carrier: true } },
          quote: { select: { quoteNumber: true, destinationSlug: true, durationDays: true } },
          policy: {
            select: {
              policyNumber: true,
              premiumCents: true,
              currency: true,
              mode: true,
              startDate: true,
              endDate: true,
              travelers: true,
              travelerAges: true,
              mails: { where: { kind: CONFIRMATION_MAIL }, select: { recipient: true, status: true } },
            },
          },
        },
      }),
      prisma.payment.findMany({
        where: { checkoutSessionId: session.id, status: 'succeeded' },
        select: { processorPaymentId: true },
      }),
    ]);

    if (!purchase) {
      if (succeededHere.length === 0) return { kind: 'none' };
      const quote = await prisma.quote.findUniqueOrThrow({
        where: { id: session.quoteId },
        select: { quoteNumber: true },
      });
      return { kind: 'issuing', quoteNumber: quote.quoteNumber };
    }

    const boughtHere =
      purchase.payment?.checkoutSessionId === session.id ||
      succeededHere.some((p) => p.processorPaymentId === purchase.processorPaymentId);
    const { policy, quote, plan } = purchase;
    if (!boughtHere) {
      return {
        kind: 'bought_elsewhere',
        quoteNumber: quote.quoteNumber,
        policyNumber: policy?.policyNumber ?? null,
        planName: policy ? plan.name : null,
        chargedHere: succeededHere.length > 0,
      };
    }
    if (!policy) return { kind: 'issuing', quoteNumber: quote.quoteNumber };

    const mail = policy.mails[0] ?? null;
    const links = policyLinks(publicUrl, {
      policyNumber: policy.policyNumber,
      accessToken: policyTokens.tokenFor(policy),
    });
    return {
      kind: 'paid_here',
      policy: {
        policyNumber: policy.policyNumber,
        quoteNumber: quote.quoteNumber,
        planName: plan.name,
        planBrand: plan.brand,
        planTier: plan.tier,
        planCarrier: plan.carrier,
        premiumCents: policy.premiumCents,
        currency: policy.currency,
        mode: policy.mode,
        startDate: policy.startDate,
        endDate: policy.endDate,
        destinationName: destinationName(quote.destinationSlug),
        destinationSlug: quote.destinationSlug,
        travelers: policy.travelers,
        travelerAges: policy.travelerAges,
        durationDays: quote.durationDays,
        guestNames: session.guestNames,
        email: mail?.recipient ?? null,
        mailStatus: mail?.status ?? null,
        documentUrl: links.documentUrl,
        pageUrl: links.pageUrl,
      },
    };
  }

  return { forSession };
}

export type CheckoutReceiptRepository = ReturnType<typeof createCheckoutReceiptRepository>;

/** Catalog name of a destination slug; the slug itself only if the catalog no longer knows it. */
export function destinationName(slug: string): string {
  return findDestination(slug)?.name ?? slug;
}
