import { z } from 'zod';

/**
 * Error codes of the operator portal API (`/api/portal/v1`). Stable: the portal UI and scripts may switch on them.
 * Every error body is `{ error, code, details?, requestId? }`.
 */
export const PortalErrorCodeSchema = z
  .enum([
    'invalid_request',
    'invalid_json',
    'payload_too_large',
    'unauthorized',
    'forbidden',
    'csrf_failed',
    'not_found',
    'conflict',
    'rate_limited',
    'invalid_credentials',
    'email_taken',
    'weak_password',
    'email_unverified',
    'operator_suspended',
    'limit_reached',
    'wrong_password',
    'invalid_token',
    'already_member',
    'last_owner',
    'origin_invalid',
    'origin_localhost_live',
    'internal_error',
  ])
  .meta({ id: 'PortalErrorCode' });
export type PortalErrorCode = z.infer<typeof PortalErrorCodeSchema>;

export const PortalErrorSchema = z
  .object({
    error: z.string().meta({ description: 'Human-readable message; safe to show to a user.' }),
    code: PortalErrorCodeSchema,
    details: z
      .array(z.object({ path: z.string(), message: z.string() }))
      .optional()
      .meta({ description: 'Per-field problems, for 400 responses.' }),
    requestId: z.string().optional().meta({ description: 'Echo of the X-Request-Id response header.' }),
  })
  .meta({ id: 'PortalError', description: 'Error body of every non-2xx /api/portal/v1 response.' });

/**
 * The 400 of a refused password: which rule refused it, in words a person can act on. A breached or short password
 * says so; one zxcvbn scores below 4 says `this password is too common or too easy to guess: <zxcvbn's warning>.
 * <its suggestions> Choose another, e.g. several unrelated words.` (docs/security.md, "Hardening, round two").
 */
export const PortalWeakPasswordErrorSchema = PortalErrorSchema.extend({
  error: z.string().meta({ description: "Why the password is refused (zxcvbn's warning and suggestions)." }),
  code: z.literal('weak_password'),
}).meta({ id: 'PortalWeakPasswordError' });
