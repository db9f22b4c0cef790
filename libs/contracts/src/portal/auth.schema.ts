import { z } from 'zod';
import { EMAIL_MAX_LENGTH, PORTAL_CSRF_HEADER, PORTAL_LIMITS } from '../rules';

/**
 * Accounts of the operator portal API (`/api/portal/v1/auth/*`, `/team/*`): request and response bodies. Requests are
 * parsed leniently where it helps people (e-mail trimmed and lower-cased); the password rules themselves are enforced
 * by the server (≥ 12 characters, not a breached password, zxcvbn score 4 against the product's words and the
 * account's own names and address), which answers 400 `weak_password` with the reason. Every request body is strict:
 * a field it does not name is 400 `invalid_request` (docs/security.md, "Hardening, round two").
 */

export const PORTAL_PASSWORD_MIN_LENGTH = PORTAL_LIMITS.passwordMinLength;
export const PORTAL_PASSWORD_MAX_LENGTH = PORTAL_LIMITS.passwordMaxLength;
/** The session cookie's name over plain-HTTP development (docs/security.md, "The session cookie"). */
export const PORTAL_SESSION_COOKIE = 'svc_portal_session';
/** Its name behind https (production): `__Host-` keeps a sibling or parent domain from setting or shadowing it. */
export const PORTAL_HOST_SESSION_COOKIE = `__Host-${PORTAL_SESSION_COOKIE}`;

const Email = z
  .string()
  .trim()
  .toLowerCase()
  .max(EMAIL_MAX_LENGTH)
  .pipe(z.email({ message: 'must be an e-mail address' }))
  .meta({ description: 'E-mail address (case-insensitive).', example: 'ana@polar-horizons.example' });
const Password = z
  .string()
  .max(PORTAL_PASSWORD_MAX_LENGTH)
  .meta({
    description: `At least ${PORTAL_PASSWORD_MIN_LENGTH} characters, not a breached password, and hard to guess (zxcvbn score 4, judged against the product's words and the account's names and e-mail address).`,
  });
const AnyPassword = z.string().max(PORTAL_PASSWORD_MAX_LENGTH).meta({ description: 'The password.' });
const Token = z.string().min(1).max(200).meta({ description: 'The token from the e-mailed link.' });
const PersonName = z.string().trim().max(PORTAL_LIMITS.maxPersonName).meta({
  description: 'Display name. Bidi controls and invisible characters are refused (400 invalid_request).',
  example: 'Ana Lima',
});

export const PortalRoleSchema = z.enum(['owner', 'member', 'provider_admin']).meta({ id: 'PortalRole' });
export const TeamRoleSchema = z.enum(['owner', 'member']).meta({ id: 'TeamRole' });

export const PortalUserSchema = z
  .object({
    id: z.uuid(),
    email: z.string(),
    name: z.string().nullable(),
    role: PortalRoleSchema,
    operatorId: z.uuid().nullable().meta({ description: 'null for provider admins.' }),
    emailVerified: z.boolean(),
  })
  .meta({ id: 'PortalUser' });
export type PortalUser = z.infer<typeof PortalUserSchema>;

export const PortalOperatorRefSchema = z
  .object({ id: z.uuid(), name: z.string() })
  .meta({ id: 'PortalOperatorRef', description: 'The operator the user belongs to.' });

const CsrfToken = z
  .string()
  .meta({ description: `Send it back as the ${PORTAL_CSRF_HEADER} header of every POST/PUT/PATCH/DELETE.` });

export const SignupRequestSchema = z
  .object({
    email: Email,
    password: Password,
    operatorName: z
      .string()
      .trim()
      .min(1)
      .max(PORTAL_LIMITS.maxOperatorName)
      .meta({ description: 'Company name.', example: 'Polar Horizons Expeditions' }),
    name: PersonName.optional(),
  })
  .strict()
  .meta({ id: 'SignupRequest' });
export const SignupResponseSchema = z
  .object({ user: PortalUserSchema, operator: PortalOperatorRefSchema, csrfToken: CsrfToken })
  .meta({ id: 'SignupResponse' });

export const LoginRequestSchema = z
  .object({ email: z.string().max(EMAIL_MAX_LENGTH), password: AnyPassword })
  .strict()
  .meta({ id: 'LoginRequest' });
export const LoginResponseSchema = z
  .object({ user: PortalUserSchema, csrfToken: CsrfToken })
  .meta({ id: 'LoginResponse' });

export const SessionResponseSchema = z
  .object({
    user: PortalUserSchema,
    operator: PortalOperatorRefSchema.nullable(),
    csrfToken: CsrfToken,
    expiresAt: z.iso
      .datetime()
      .meta({ description: 'Absolute end of the session (it also ends after 30 idle minutes).' }),
  })
  .meta({ id: 'SessionResponse' });

/**
 * GET /auth/status: whether a session is open, answered 200 either way, so the portal's page load asks it without a
 * 401 in the browser's console; the session itself is the body of GET /auth/session.
 */
export const SessionStatusResponseSchema = z
  .discriminatedUnion('authenticated', [
    z.object({ authenticated: z.literal(false) }),
    z.object({ authenticated: z.literal(true), session: SessionResponseSchema }),
  ])
  .meta({ id: 'SessionStatusResponse' });

export const VerifyEmailRequestSchema = z.object({ token: Token }).strict().meta({ id: 'VerifyEmailRequest' });
export const SignInLinkRequestSchema = z.object({ token: Token }).strict().meta({ id: 'SignInLinkRequest' });
export const PasswordResetRequestSchema = z
  .object({ email: z.string().max(EMAIL_MAX_LENGTH) })
  .strict()
  .meta({ id: 'PasswordResetRequest' });
export const PasswordResetConfirmSchema = z
  .object({ token: Token, password: Password })
  .strict()
  .meta({ id: 'PasswordResetConfirm' });
export const ChangePasswordRequestSchema = z
  .object({ currentPassword: AnyPassword, newPassword: Password })
  .strict()
  .meta({ id: 'ChangePasswordRequest' });
export const AcceptInviteRequestSchema = z
  .object({ token: Token, password: Password, name: PersonName.optional() })
  .strict()
  .meta({ id: 'AcceptInviteRequest' });

export const OkResponseSchema = z.object({ ok: z.literal(true) }).meta({ id: 'OkResponse' });
export const AcceptedResponseSchema = z.object({ accepted: z.literal(true), message: z.string() }).meta({
  id: 'AcceptedResponse',
  description: 'Taken into account; the answer says nothing about whether an account exists.',
});

// ---- team ----

export const TeamMemberSchema = PortalUserSchema.extend({
  createdAt: z.iso.datetime(),
  lastLoginAt: z.iso.datetime().nullable(),
}).meta({ id: 'TeamMember' });
export const TeamInviteSchema = z
  .object({
    id: z.uuid(),
    email: z.string(),
    role: TeamRoleSchema,
    createdAt: z.iso.datetime(),
    expiresAt: z.iso.datetime(),
  })
  .meta({ id: 'TeamInvite' });
export const TeamResponseSchema = z
  .object({ members: z.array(TeamMemberSchema), invites: z.array(TeamInviteSchema) })
  .meta({ id: 'TeamResponse' });
export const CreateInviteRequestSchema = z
  .object({ email: Email, role: TeamRoleSchema })
  .strict()
  .meta({ id: 'CreateInviteRequest' });
export const CreateInviteResponseSchema = z
  .object({ invite: TeamInviteSchema })
  .meta({ id: 'CreateInviteResponse', description: 'The invitation link is e-mailed to the invitee (valid 7 days).' });

// ---- dev outbox (embedded mode only) ----

export const OutboxMailSchema = z
  .object({
    id: z.string(),
    to: z.string(),
    subject: z.string(),
    text: z.string(),
    sentAt: z.iso.datetime(),
    links: z.array(z.string()).meta({ description: 'The links found in the text (verification, reset, invitation).' }),
    attachments: z
      .array(z.string())
      .optional()
      .meta({ description: 'File names of the attachments (the `.eml` beside the record holds them).' }),
  })
  .meta({ id: 'OutboxMail' });
export const OutboxResponseSchema = z.object({ mails: z.array(OutboxMailSchema) }).meta({ id: 'OutboxResponse' });

export type SignupResponse = z.infer<typeof SignupResponseSchema>;
export type LoginResponse = z.infer<typeof LoginResponseSchema>;
export type SessionResponse = z.infer<typeof SessionResponseSchema>;
export type SessionStatusResponse = z.infer<typeof SessionStatusResponseSchema>;
export type TeamMember = z.infer<typeof TeamMemberSchema>;
export type TeamInvite = z.infer<typeof TeamInviteSchema>;
export type TeamResponse = z.infer<typeof TeamResponseSchema>;
export type OutboxMail = z.infer<typeof OutboxMailSchema>;
