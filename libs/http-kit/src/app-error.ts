import type { ApiErrorCode } from '@expedition/contracts';

export interface ErrorDetail {
  path: string;
  message: string;
}

/**
 * The one error type of our HTTP services: carries the documented status and machine code. `body`, when set, is
 * answered as is in place of the standard `{ error, code, details, requestId }` (a domain error an app maps to its
 * own shape: domain-errors.ts).
 */
export class AppError extends Error {
  readonly body?: Readonly<Record<string, unknown>>;

  constructor(
    readonly status: number,
    readonly code: ApiErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
    options?: { cause?: unknown; body?: Readonly<Record<string, unknown>> },
  ) {
    super(message, options && 'cause' in options ? { cause: options.cause } : undefined);
    this.name = 'AppError';
    if (options?.body) this.body = options.body;
  }

  static badRequest(message: string, details?: ErrorDetail[]) {
    return new AppError(400, 'invalid_request', message, details);
  }

  static notFound(code: ApiErrorCode, message: string) {
    return new AppError(404, code, message);
  }
}
