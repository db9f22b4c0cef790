import type { AcpError } from '@expedition/contracts';
import { toAppError, UNAVAILABLE_RETRY_AFTER_SEC } from '@expedition/http-kit';

/** A non-2xx answer under /acp/v1, in the protocol's flat error shape. */
export class AcpHttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: AcpError,
    readonly headers: Record<string, string> = {},
  ) {
    super(body.message);
    this.name = 'AcpHttpError';
  }

  static invalid(code: string, message: string, param?: string): AcpHttpError {
    return new AcpHttpError(400, { type: 'invalid_request', code, message, ...(param ? { param } : {}) });
  }

  static notFound(): AcpHttpError {
    return new AcpHttpError(404, {
      type: 'invalid_request',
      code: 'not_found',
      message: 'No checkout session with this id',
    });
  }
}

/** `travelerAges.1` → `$.metadata.trip.travelerAges[1]` (RFC 9535 JSONPath under `base`). */
export function jsonPath(base: string, dotted: string): string {
  if (dotted === '(body)' || dotted === '') return base;
  return dotted.split('.').reduce((path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : `${path}.${part}`), base);
}

/**
 * Any error → the protocol's error: our own as is, the shared AppError (validation, JSON parsing, body size) mapped
 * to the nearest protocol type; anything else is a 500 `processing_error` whose cause is logged, never sent.
 */
export function toAcpHttpError(err: unknown): AcpHttpError {
  if (err instanceof AcpHttpError) return err;
  const app = toAppError(err);
  // The database briefly unreachable (a restart, a failover): the protocol's temporary unavailability, with a wait.
  if (app.status === 503) {
    return new AcpHttpError(
      503,
      {
        type: 'service_unavailable',
        code: 'service_unavailable',
        message: 'The service is briefly unavailable; retry shortly',
      },
      { 'Retry-After': String(UNAVAILABLE_RETRY_AFTER_SEC) },
    );
  }
  if (app.status >= 500)
    return new AcpHttpError(500, {
      type: 'processing_error',
      code: 'processing_error',
      message: 'Internal error; retry shortly',
    });
  const first = app.details?.[0];
  return new AcpHttpError(app.status, {
    type: 'invalid_request',
    code: app.code === 'invalid_request' ? 'invalid' : app.code,
    message: app.message,
    ...(first ? { param: jsonPath('$', first.path) } : {}),
  });
}
