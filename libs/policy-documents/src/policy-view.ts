import { isoDay, QUOTE_DISCLAIMER, policyWordingUrls, type PolicyLookup } from '@expedition/contracts';
import type { Prisma, PrismaClient } from '@expedition/db';
import { findDestination, getPlan } from '@expedition/domain-pricing';
import { policyLinks, type PolicyTokens } from '@expedition/fulfillment';
import { asLocale } from '@expedition/i18n';

/** What a policy view reads besides the policy row: its quote and the names the checkout collected. */
export const POLICY_VIEW_INCLUDE = {
  quote: { select: { quoteNumber: true, destinationSlug: true, durationDays: true, locale: true } },
  purchase: { select: { payment: { select: { checkoutSession: { select: { guestNames: true } } } } } },
} as const satisfies Prisma.PolicyInclude;

/** A stored policy row with what {@link toPolicyView} needs. */
export type PolicyViewRow = Prisma.PolicyGetPayload<{ include: typeof POLICY_VIEW_INCLUDE }>;

/** Which policy to load: by its id (a worker) or by its number (a look-up). */
export type PolicyKey = { policyId: string } | { policyNumber: string };

/**
 * The read model of one stored policy: the `PolicyLookup` every document (JSON look-up, certificate, policy page,
 * confirmation e-mail) is made from. No access check here: callers that answer a request check the token first.
 * `quoteApiUrl` is quote-api's public base URL and `accessToken` the token the links carry (the one the caller was
 * shown or holds).
 */
export function toPolicyView(policy: PolicyViewRow, links: { quoteApiUrl: string; accessToken: string }): PolicyLookup {
  const plan = getPlan(policy.planId);
  const names = policy.purchase.payment?.checkoutSession?.guestNames ?? [];
  const { documentUrl, pageUrl } = policyLinks(links.quoteApiUrl, {
    policyNumber: policy.policyNumber,
    accessToken: links.accessToken,
  });
  return {
    policyNumber: policy.policyNumber,
    status: policy.status,
    mode: policy.mode,
    quoteNumber: policy.quote.quoteNumber,
    plan: {
      planId: policy.planId,
      planName: plan?.name ?? policy.planId,
      carrier: plan?.carrier ?? '',
      ...(plan
        ? {
            tier: plan.tier,
            coverage: {
              medicalExpenseLimit: plan.coverage.medicalExpenseLimit,
              evacuationCoverage: plan.coverage.evacuationCoverage,
              tripCancellation: plan.coverage.tripCancellation,
              deductible: plan.coverage.deductible,
              cancelReason: plan.coverage.cancelReason,
            },
            policyTermsUrl: policyWordingUrls(links.quoteApiUrl, plan.id).html,
          }
        : {}),
    },
    trip: {
      destination: findDestination(policy.quote.destinationSlug)?.name ?? policy.quote.destinationSlug,
      destinationSlug: policy.quote.destinationSlug,
      startDate: policy.startDate ? isoDay(policy.startDate) : null,
      endDate: policy.endDate ? isoDay(policy.endDate) : null,
      durationDays: policy.quote.durationDays ?? null,
    },
    travelers: {
      count: policy.travelers,
      ages: [...policy.travelerAges],
      ...(names.length ? { names: [...names] } : {}),
    },
    premiumCents: policy.premiumCents,
    currency: policy.currency,
    issuedAt: policy.issuedAt.toISOString(),
    documentUrl,
    pageUrl,
    disclaimer: QUOTE_DISCLAIMER,
    locale: asLocale(policy.quote.locale),
  };
}

/**
 * The view of one policy by id or number, or null when there is none. No token check: for a worker that renders a
 * policy's documents (the confirmation e-mail), never for answering a request. No token is stored: the links carry
 * the one `opts.policyTokens` derives from the policy number (libs/fulfillment policy-tokens.ts).
 */
export async function loadPolicyView(
  prisma: PrismaClient,
  key: PolicyKey,
  opts: { quoteApiUrl: string; policyTokens: Pick<PolicyTokens, 'tokenFor'> },
): Promise<PolicyLookup | null> {
  const where = 'policyId' in key ? { id: key.policyId } : { policyNumber: key.policyNumber };
  const policy = await prisma.policy.findUnique({ where, include: POLICY_VIEW_INCLUDE });
  return policy
    ? toPolicyView(policy, { quoteApiUrl: opts.quoteApiUrl, accessToken: opts.policyTokens.tokenFor(policy) })
    : null;
}
