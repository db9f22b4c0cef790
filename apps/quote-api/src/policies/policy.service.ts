import { isStorableString, type PolicyLookup } from '@expedition/contracts';
import type { PrismaClient } from '@expedition/db';
import type { PolicyTokens } from '@expedition/fulfillment';
import { AppError } from '@expedition/http-kit';
import { POLICY_VIEW_INCLUDE, toPolicyView } from '@expedition/policy-documents';

/**
 * The one answer for an unknown policy number, a wrong token and another policy's token: a caller learns nothing
 * about which policy numbers exist (no enumeration).
 */
const POLICY_NOT_FOUND_MESSAGE = 'No policy matches this policy number and access token';
export const policyNotFound = () => AppError.notFound('policy_not_found', POLICY_NOT_FOUND_MESSAGE);

/** Longest policy number or token we look up; anything longer is the same 404 without a query. */
const MAX_POLICY_NUMBER = 64;
const MAX_TOKEN = 200;

/** GET /api/v1/policies/{policyNumber}, its certificate, and the MCP get_policy tool: one look-up for all three. */
export function createPolicyService(deps: { prisma: PrismaClient; publicUrl: string; policyTokens: PolicyTokens }) {
  const { prisma, policyTokens } = deps;

  /** The policy, for the holder of its access token; the same 404 for anything else. */
  async function lookup(policyNumber: string, accessToken: string | undefined): Promise<PolicyLookup> {
    const token = accessToken ?? '';
    // A NUL or an unpaired surrogate (e.g. `/policies/a%00b`) cannot be sent to PostgreSQL: a 404 like any unknown number.
    const wellFormed =
      policyNumber.length > 0 &&
      policyNumber.length <= MAX_POLICY_NUMBER &&
      isStorableString(policyNumber) &&
      token.length > 0 &&
      token.length <= MAX_TOKEN;
    if (!wellFormed) throw policyNotFound();
    // No timing oracle: an unknown number and a wrong token run the same statement and the same comparisons
    // (policy-tokens.ts verifies against the derived tokens and a placeholder hash alike); the policy's details are
    // read only once the token matched.
    const found = await prisma.policy.findUnique({ where: { policyNumber }, select: { accessTokenHash: true } });
    const matches = policyTokens.verify({ policyNumber, accessTokenHash: found?.accessTokenHash ?? null }, token);
    if (!found || !matches) throw policyNotFound();
    const policy = await prisma.policy.findUniqueOrThrow({ where: { policyNumber }, include: POLICY_VIEW_INCLUDE });

    return toPolicyView(policy, { quoteApiUrl: deps.publicUrl, accessToken: token });
  }

  return { lookup };
}

export type PolicyService = ReturnType<typeof createPolicyService>;
