import { z } from 'zod';
import { optionalVar } from '@expedition/platform';
import { DEV_POLICY_TOKEN_SECRET, MIN_POLICY_TOKEN_SECRET_LENGTH } from './policy-tokens';

const PolicyTokenSecret = () =>
  optionalVar(z.string().min(MIN_POLICY_TOKEN_SECRET_LENGTH, `at least ${MIN_POLICY_TOKEN_SECRET_LENGTH} characters`));

/** POLICY_TOKEN_SECRET and POLICY_TOKEN_PREVIOUS_SECRET, as every app that derives policy tokens reads them. */
export function policyTokenEnvVars() {
  return { POLICY_TOKEN_SECRET: PolicyTokenSecret(), POLICY_TOKEN_PREVIOUS_SECRET: PolicyTokenSecret() };
}

/** The apps' `policyTokens` setting: the published dev secret when unset (refused with NODE_ENV=production). */
export function policyTokensOf(env: { POLICY_TOKEN_SECRET?: string; POLICY_TOKEN_PREVIOUS_SECRET?: string }): {
  secret: string;
  previous: string | undefined;
} {
  return { secret: env.POLICY_TOKEN_SECRET ?? DEV_POLICY_TOKEN_SECRET, previous: env.POLICY_TOKEN_PREVIOUS_SECRET };
}
