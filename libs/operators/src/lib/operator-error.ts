/**
 * `suspended`: the operator is suspended, so the change is refused (suspended means read-only, no new keys).
 * `limit_reached`: the change would exceed one of OPERATOR_LIMITS.
 */
export type OperatorErrorCode = 'not_found' | 'invalid_input' | 'conflict' | 'suspended' | 'limit_reached';

/**
 * The one error type of the operators service. Callers (the admin CLI, later the portal) map `code` to their own
 * surface (exit code, HTTP status); the service never picks either.
 */
export class OperatorError extends Error {
  override readonly name = 'OperatorError';

  constructor(
    readonly code: OperatorErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export function isOperatorError(error: unknown): error is OperatorError {
  return error instanceof OperatorError;
}

export const notFound = (message: string) => new OperatorError('not_found', message);
export const invalidInput = (message: string) => new OperatorError('invalid_input', message);
export const conflict = (message: string) => new OperatorError('conflict', message);
export const SUSPENDED_OPERATOR_MESSAGE =
  'This operator is suspended: the portal is read-only and no keys can be created; contact the provider';
export const suspended = () => new OperatorError('suspended', SUSPENDED_OPERATOR_MESSAGE);
export const limitReached = (message: string) => new OperatorError('limit_reached', message);
