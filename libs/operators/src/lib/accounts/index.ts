export { type AccountErrorCode, AccountError, isAccountError } from './account-error';
export {
  MIN_PASSWORD_SCORE,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  generatePassword,
  hashPassword,
  normalizePassword,
  passwordProblem,
  verifyPassword,
} from './passwords';
export {
  type AccountRole,
  type AccountService,
  type AccountServiceDeps,
  type AccountUser,
  type CredentialCheck,
  type NewSession,
  type PendingInvite,
  type ResolvedSession,
  type TeamMember,
  type TokenPurpose,
  ACCOUNT_DEFAULTS,
  createAccountService,
  normalizeEmail,
  toAccountUser,
} from './accounts.service';
export {
  type ProviderAdminLogin,
  DEFAULT_PROVIDER_ADMIN_EMAIL,
  DEMO_PORTAL_EMAIL,
  PROVIDER_ADMIN_FILE,
  ensureDemoPortalOwner,
  ensureProviderAdmin,
  providerAdminFilePath,
  readJson,
  writePrivateJson,
} from './provisioning';
