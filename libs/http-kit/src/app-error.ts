import type { ApiErrorCode } from '@expedition/contracts';

export interface ErrorDetail {
  path: string;
  message: string;
}

/** The one error type of our HTTP services: carries the documented status and machine code. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: ApiErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'AppError';
  }

  static badRequest(message: string, details?: ErrorDetail[]) {
    return new AppError(400, 'invalid_request', message, details);
  }

  static notFound(code: ApiErrorCode, message: string) {
    return new AppError(404, code, message);
  }
}
