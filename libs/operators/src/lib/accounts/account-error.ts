/**
 * Why an accounts call refused. Callers map the code to their surface (the portal to an HTTP status and its error
 * code, the admin CLI to an exit code); the messages are safe to show and never contain a password or a token.
 */
export type AccountErrorCode =
  | 'invalid_input'
  | 'weak_password'
  | 'email_unverified'
  | 'email_taken'
  | 'invalid_credentials'
  | 'wrong_password'
  | 'invalid_token'
  | 'not_found'
  | 'already_member'
  | 'last_owner';

export class AccountError extends Error {
  override readonly name = 'AccountError';

  constructor(
    readonly code: AccountErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export function isAccountError(error: unknown): error is AccountError {
  return error instanceof AccountError;
}
