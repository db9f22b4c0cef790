import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { hashToken } from '@expedition/platform';

/**
 * A policy's access token (`pat_…`) is DERIVED, never stored: `pat_` + base64url(HMAC-SHA256(secret,
 * "policy-access-token:v1:" + policy number)). Everything that hands the token out again (an idempotent replay of the
 * receipt, the checkout success page, an ACP order read, the `policy.issued` delivery, the policyholder's e-mail)
 * computes it from the policy number, so no table holds a token a database reader could present (docs/decisions.md).
 *
 * `policies.access_token_hash` holds the SHA-256 of the random token a policy issued before tokens were derived; such
 * a token keeps opening its policy, and so does the derived one. Rotation: the new secret derives; the previous one
 * (POLICY_TOKEN_PREVIOUS_SECRET) still verifies until it is removed, then links derived with it stop working.
 */

/** Each secret is at least this many characters (as MPP's challenge secret). */
export const MIN_POLICY_TOKEN_SECRET_LENGTH = 32;

/**
 * Derives tokens in embedded mode and in tests when POLICY_TOKEN_SECRET is unset. Published on purpose (like
 * quote-api's DEV_MPP_SECRET): anyone can compute every token under it, so NODE_ENV=production refuses to start
 * without POLICY_TOKEN_SECRET.
 */
export const DEV_POLICY_TOKEN_SECRET = 'policy-token-dev-secret-not-for-production-0001';

const LABEL = 'policy-access-token:v1:';
/** Compared against when a policy has no legacy token hash (or does not exist): every check does the same work. */
const NO_HASH = Buffer.from(hashToken('pat_no-legacy-token-never-matches'), 'hex');

export interface PolicyTokensOptions {
  /** Derives every token handed out. */
  secret: string;
  /** The secret before a rotation: its tokens still verify. */
  previous?: string;
}

export interface PolicyTokenSubject {
  policyNumber: string;
}

export interface PolicyTokens {
  /** The policy's access token, as handed to its holder (the same every time, for one secret). */
  tokenFor(policy: PolicyTokenSubject): string;
  /** SHA-256 hex of a token (the form a legacy token is stored in). */
  hash(token: string): string;
  /**
   * Whether `presented` opens this policy: the token derived under the current or previous secret, or the legacy
   * token whose hash the row holds. Constant time in the token's content, and the same work whether or not the row
   * exists or has a legacy hash (pass `accessTokenHash: null` for an unknown number).
   */
  verify(policy: PolicyTokenSubject & { accessTokenHash: string | null }, presented: string): boolean;
}

export function createPolicyTokens(options: PolicyTokensOptions): PolicyTokens {
  const secrets = [options.secret, ...(options.previous ? [options.previous] : [])];
  for (const secret of secrets) {
    if (secret.length < MIN_POLICY_TOKEN_SECRET_LENGTH) {
      throw new RangeError(`a policy token secret must be at least ${MIN_POLICY_TOKEN_SECRET_LENGTH} characters`);
    }
  }

  const derive = (secret: string, policyNumber: string) =>
    `pat_${createHmac('sha256', secret).update(`${LABEL}${policyNumber}`, 'utf8').digest('base64url')}`;

  function verify(policy: PolicyTokenSubject & { accessTokenHash: string | null }, presented: string): boolean {
    const presentedDigest = digest(presented);
    let matched = false;
    // No early exit: every candidate is compared, whatever matched before.
    for (const secret of secrets)
      matched = timingSafeEqual(presentedDigest, digest(derive(secret, policy.policyNumber))) || matched;
    // A malformed stored hash (not 64 hex digits) is compared as the placeholder: it matches nothing.
    const stored = Buffer.from(policy.accessTokenHash ?? '', 'hex');
    const legacy = timingSafeEqual(presentedDigest, stored.length === 32 ? stored : NO_HASH) && stored.length === 32;
    return legacy || matched;
  }

  return {
    tokenFor: (policy) => derive(options.secret, policy.policyNumber),
    hash: hashToken,
    verify,
  };
}

/** Fixed-length digests, so timingSafeEqual compares whatever the presented length. */
function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}
