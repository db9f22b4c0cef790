import { createHash, timingSafeEqual } from 'node:crypto';
import { isStorableString, type PolicyLookup } from '@expedition/contracts';
import type { PrismaClient } from '@expedition/db';
import { AppError } from '@expedition/http-kit';
import { POLICY_VIEW_INCLUDE, toPolicyView } from '@expedition/policy-documents';

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
          include: POLICY_VIEW_INCLUDE,
        })
      : null;
    const matches = sameToken(token, policy?.accessToken ?? ABSENT_TOKEN);
    if (!policy || !matches) throw policyNotFound();

    return toPolicyView(policy, { quoteApiUrl: deps.publicUrl, accessToken: token });
  }

  return { lookup };
}

export type PolicyService = ReturnType<typeof createPolicyService>;
