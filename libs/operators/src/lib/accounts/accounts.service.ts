import type { AccountServiceDeps } from './account-context';
import { createIdentityService } from './identity.service';
import { createProvisioningService } from './provisioning.service';
import { createSessionService } from './session.service';
import { createTeamService } from './team.service';
import { createTokenService } from './token.service';

/**
 * Operator-portal accounts, one service per concern: identity (users, sign-up, log-in checks, passwords), sessions,
 * e-mailed tokens (verification, reset, sign-in links), the team, and provisioning. Secrets leave these services once
 * (session tokens, e-mail tokens, generated passwords) and are stored only as hashes.
 */
export function createAccountServices(deps: AccountServiceDeps) {
  return {
    identity: createIdentityService(deps),
    sessions: createSessionService(deps),
    tokens: createTokenService(deps),
    team: createTeamService(deps),
    provisioning: createProvisioningService(deps),
  };
}

export type AccountServices = ReturnType<typeof createAccountServices>;

/** The same services as ONE object, every function at the top level: the portal app, the admin CLI, the launcher. */
export function createAccountService(deps: AccountServiceDeps) {
  const s = createAccountServices(deps);
  return { ...s.identity, ...s.sessions, ...s.tokens, ...s.team, ...s.provisioning };
}

export type AccountService = ReturnType<typeof createAccountService>;
