import { createHash, timingSafeEqual } from 'node:crypto';
import { QUOTE_DISCLAIMER, isStorableString, type PolicyLookup } from '@expedition/contracts';
import type { PrismaClient } from '@expedition/db';
import { findDestination, getPlan } from '@expedition/domain-pricing';
import { policyLinks } from '@expedition/fulfillment';
import { AppError } from '@expedition/http-kit';
import { isoDay } from '@expedition/platform';

/**
 * The one answer for an unknown policy number, a wrong token and another policy's token: a caller learns nothing
 * about which policy numbers exist (no enumeration).
 */
export const POLICY_NOT_FOUND_MESSAGE = 'No policy matches this policy number and access token';
export const policyNotFound = () => AppError.notFound('policy_not_found', POLICY_NOT_FOUND_MESSAGE);

/** Longest policy number or token we look up; anything longer is the same 404 without a query. */
const MAX_POLICY_NUMBER = 64;
const MAX_TOKEN = 200;
/** Compared against when no row matches, so a miss costs the same hash-and-compare as a wrong token. */
const ABSENT_TOKEN = 'pat_absent-policy-never-matches-any-token';

/** sha256 then timingSafeEqual: constant time in the token's content, whatever its length. */
export function sameToken(presented: string, stored: string): boolean {
  const a = createHash('sha256').update(presented).digest();
  const b = createHash('sha256').update(stored).digest();
  return timingSafeEqual(a, b);
}

/** GET /api/v1/policies/{policyNumber}, its certificate, and the MCP get_policy tool: one look-up for all three. */
export function createPolicyService(deps: { prisma: PrismaClient; publicUrl: string }) {
  const { prisma } = deps;

  /** The policy, for the holder of its access token; the same 404 for anything else. */
  async function lookup(policyNumber: string, accessToken: string | undefined): Promise<PolicyLookup> {
    const token = accessToken ?? '';
    // A NUL or an unpaired surrogate (e.g. `/policies/a%00b`) cannot be sent to PostgreSQL: a 404 like any unknown number.
    const wellFormed =
      policyNumber.length > 0 && policyNumber.length <= MAX_POLICY_NUMBER && isStorableString(policyNumber) && token.length > 0 && token.length <= MAX_TOKEN;
    const policy = wellFormed
      ? await prisma.policy.findUnique({
          where: { policyNumber },
          include: {
            quote: { select: { quoteNumber: true, destinationSlug: true, durationDays: true } },
            purchase: { select: { payment: { select: { checkoutSession: { select: { guestNames: true } } } } } },
          },
        })
      : null;
    const matches = sameToken(token, policy?.accessToken ?? ABSENT_TOKEN);
    if (!policy || !matches) throw policyNotFound();

    const plan = getPlan(policy.planId);
    const names = policy.purchase.payment?.checkoutSession?.guestNames ?? [];
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
              policyTermsUrl: plan.policyTermsUrl ?? null,
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
      documentUrl: policyLinks(deps.publicUrl, policy).documentUrl,
      disclaimer: QUOTE_DISCLAIMER,
    };
  }

  return { lookup };
}

export type PolicyService = ReturnType<typeof createPolicyService>;
