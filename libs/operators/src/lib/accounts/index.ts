// The accounts part of the lib's public index: what other projects use, and nothing more.
export { type AccountErrorCode, isAccountError } from './account-error';
export { verifyPassword } from './passwords';
export { type AccountUser, normalizeEmail } from './account-context';
export { type AccountService, createAccountService } from './accounts.service';
export type { ResolvedSession } from './session.service';
export type { PendingInvite, TeamMember } from './team.service';
export { ensureDemoPortalOwner, ensureProviderAdmin } from './launcher-logins';
