import { z } from 'zod';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import {
  AcceptedResponseSchema,
  AcceptInviteRequestSchema,
  ChangePasswordRequestSchema,
  CreateInviteRequestSchema,
  CreateInviteResponseSchema,
  LoginRequestSchema,
  LoginResponseSchema,
  OutboxResponseSchema,
  PasswordResetConfirmSchema,
  PasswordResetRequestSchema,
  SignInLinkRequestSchema,
  PORTAL_HOST_SESSION_COOKIE,
  PORTAL_SESSION_COOKIE,
  SessionResponseSchema,
  SessionStatusResponseSchema,
  SignupRequestSchema,
  SignupResponseSchema,
  TeamResponseSchema,
  VerifyEmailRequestSchema,
} from '../portal/auth.schema';
import { PortalErrorSchema, PortalWeakPasswordErrorSchema } from '../portal/portal-error.schema';
import { PORTAL_CSRF_HEADER } from '../rules';

const P = '/api/portal/v1';
const json = <T extends z.ZodType>(schema: T) => ({ content: { 'application/json': { schema } } });
const error = (description: string) => ({ description, ...json(PortalErrorSchema) });
const rateLimited = (what: string) => ({
  description: `Too many attempts (${what}).`,
  headers: z.object({ 'Retry-After': z.string().meta({ description: 'Whole seconds to wait.' }) }),
  ...json(PortalErrorSchema),
});
const setCookie = z.object({
  'Set-Cookie': z.string().meta({
    description:
      `${PORTAL_HOST_SESSION_COOKIE}=<random token>; Path=/; HttpOnly; Secure; SameSite=Lax behind https, ` +
      `${PORTAL_SESSION_COOKIE}=<random token>; Path=/; HttpOnly; SameSite=Lax over plain-HTTP development. A new token at every log-in.`,
  }),
});
/** A 400 that is either a malformed body or a refused password (its own body: docs/security.md, "Hardening, round two"). */
const invalidOrWeak = (description: string) => ({
  description,
  ...json(z.union([PortalErrorSchema, PortalWeakPasswordErrorSchema])),
});
/** Every request body is strict: a field it does not name is refused, never ignored. */
const strictBody = ' A field the body does not name is refused (code invalid_request naming it).';
const csrf = error(
  `CSRF refusal (code csrf_failed): Origin not the portal's, or (with a session) ${PORTAL_CSRF_HEADER} missing or wrong.`,
);
const unauthorized = error('No valid session (code unauthorized).');
const badRequest = error(
  'Invalid body (code invalid_request, see details). A field the body does not name is refused.',
);
const ok = { description: 'Done.', ...json(z.object({ ok: z.literal(true) })) };

/**
 * The portal's credentials as OpenAPI security schemes: the session cookie under its two names (one per deployment),
 * and the CSRF header of every write. docs/security.md, "The session cookie".
 */
export const PORTAL_SECURITY_SCHEMES = {
  portalSessionHttps: {
    type: 'apiKey',
    in: 'cookie',
    name: PORTAL_HOST_SESSION_COOKIE,
    description:
      'The session cookie behind https (production): Secure, Path=/, no Domain, HttpOnly. Several cookies of the name are no session (401).',
  },
  portalSession: {
    type: 'apiKey',
    in: 'cookie',
    name: PORTAL_SESSION_COOKIE,
    description:
      'The session cookie over plain-HTTP development (HttpOnly, host-only). Only the name of the deployment is read; several cookies of the name are no session (401).',
  },
  csrfToken: {
    type: 'apiKey',
    in: 'header',
    name: PORTAL_CSRF_HEADER,
    description: `The session's CSRF token (\`csrfToken\` of GET /auth/session), required on every write with a session.`,
  },
} as const;

/** Security requirements: none (public), the session, the session and the CSRF header (both at once). */
export const PORTAL_SECURITY = {
  public: [] as Record<string, string[]>[],
  session: [{ portalSessionHttps: [] }, { portalSession: [] }] as Record<string, string[]>[],
  sessionAndCsrf: [
    { portalSessionHttps: [], csrfToken: [] },
    { portalSession: [], csrfToken: [] },
  ] as Record<string, string[]>[],
};

/**
 * OpenAPI path items of the accounts and team routes (PA); portal.openapi.ts includes them. Public routes say so
 * (`security: []`); the others get the session (reads) or session and CSRF header (writes) there.
 */
export const portalAuthPaths: ZodOpenApiPathsObject = {
  [`${P}/auth/signup`]: {
    post: {
      operationId: 'signUp',
      security: PORTAL_SECURITY.public,
      tags: ['accounts'],
      summary: 'Create an operator and its owner, and log in',
      description:
        'Creates an active operator (embedding disabled until the provider approves live keys, integration tier 3) with a ' +
        'first test publishable key, and its owner user; e-mails a verification link (valid 48 h).',
      requestBody: { required: true, ...json(SignupRequestSchema) },
      responses: {
        '201': { description: 'Signed up and logged in.', headers: setCookie, ...json(SignupResponseSchema) },
        '400': invalidOrWeak(`Invalid body, or a weak password (code weak_password, saying why).${strictBody}`),
        '403': csrf,
        '409': error('An account with this e-mail already exists (code email_taken).'),
        '429': rateLimited('per client IP'),
      },
    },
  },
  [`${P}/auth/login`]: {
    post: {
      operationId: 'logIn',
      security: PORTAL_SECURITY.public,
      tags: ['accounts'],
      summary: 'Log in with e-mail and password',
      requestBody: { required: true, ...json(LoginRequestSchema) },
      responses: {
        '200': { description: 'Logged in (a new session).', headers: setCookie, ...json(LoginResponseSchema) },
        '400': badRequest,
        '401': error('Unknown e-mail or wrong password, the same answer for both (code invalid_credentials).'),
        '403': csrf,
        '429': rateLimited(
          'failed log-ins only: 10 per account and client per 15 minutes, 100 per account per hour (the account is then ' +
            'locked and its owner e-mailed a one-time sign-in link), 50 per client per 15 minutes; a client is an IPv4 ' +
            'address or an IPv6 /64',
        ),
      },
    },
  },
  [`${P}/auth/login-link`]: {
    post: {
      operationId: 'logInWithLink',
      tags: ['accounts'],
      summary: 'Log in with the one-time sign-in link mailed to a locked-out account',
      requestBody: { required: true, ...json(SignInLinkRequestSchema) },
      responses: {
        '200': { description: 'Logged in (a new session).', headers: setCookie, ...json(LoginResponseSchema) },
        '400': error('Unknown, used or expired link (code invalid_token).'),
        '403': csrf,
        '429': rateLimited('per client'),
      },
    },
  },
  [`${P}/auth/logout`]: {
    post: {
      operationId: 'logOut',
      // Answers 204 without a session too.
      security: [...PORTAL_SECURITY.sessionAndCsrf, {}],
      tags: ['accounts'],
      summary: 'End this session',
      responses: { '204': { description: 'Logged out (also without a session).' }, '403': csrf },
    },
  },
  [`${P}/auth/logout-all`]: {
    post: {
      operationId: 'logOutEverywhere',
      tags: ['accounts'],
      summary: 'End every session of the user, this one included',
      responses: { '204': { description: 'Every session ended.' }, '401': unauthorized, '403': csrf },
    },
  },
  [`${P}/auth/session`]: {
    get: {
      operationId: 'getSession',
      tags: ['accounts'],
      summary: 'The logged-in user, their operator and the CSRF token',
      responses: { '200': { description: 'The session.', ...json(SessionResponseSchema) }, '401': unauthorized },
    },
  },
  [`${P}/auth/status`]: {
    get: {
      operationId: 'getSessionStatus',
      security: PORTAL_SECURITY.public,
      tags: ['accounts'],
      summary: 'Whether a session is open (200 either way), and the session when it is',
      description:
        'What the portal asks on every page load: no session is an answer, not an error, so a visitor who is not logged in sees no 401. `session` is the body of GET /auth/session.',
      // No session is a 200; what this route can still refuse is what the server refuses before any route.
      responses: {
        '200': { description: 'Open or not.', ...json(SessionStatusResponseSchema) },
        '431': error(
          'Request headers over 16 KiB, request line included (refused before any route, as on every route).',
        ),
      },
    },
  },
  [`${P}/auth/verify-email`]: {
    post: {
      operationId: 'verifyEmail',
      security: PORTAL_SECURITY.public,
      tags: ['accounts'],
      summary: 'Confirm the e-mail address with the token of the e-mailed link',
      requestBody: { required: true, ...json(VerifyEmailRequestSchema) },
      responses: {
        '200': { description: 'Verified.', ...json(z.object({ ok: z.literal(true), emailVerified: z.literal(true) })) },
        '400': error('Unknown, used or expired token (code invalid_token).'),
        '403': csrf,
        '429': rateLimited('per client IP'),
      },
    },
  },
  [`${P}/auth/verify-email/resend`]: {
    post: {
      operationId: 'resendVerificationEmail',
      tags: ['accounts'],
      summary: 'E-mail a new verification link',
      responses: {
        '202': { description: 'Sent (or already verified: see message).', ...json(AcceptedResponseSchema) },
        '401': unauthorized,
        '403': csrf,
        '429': rateLimited('10 mails per user per hour'),
      },
    },
  },
  [`${P}/auth/password-reset`]: {
    post: {
      operationId: 'requestPasswordReset',
      security: PORTAL_SECURITY.public,
      tags: ['accounts'],
      summary: 'E-mail a password reset link (valid 1 hour, single use)',
      description: 'Always 202 with the same body, whether an account exists or not.',
      requestBody: { required: true, ...json(PasswordResetRequestSchema) },
      responses: {
        '202': { description: 'Accepted.', ...json(AcceptedResponseSchema) },
        '400': badRequest,
        '403': csrf,
        '429': rateLimited('5 per account per hour, 20 per IP per hour'),
      },
    },
  },
  [`${P}/auth/password-reset/confirm`]: {
    post: {
      operationId: 'confirmPasswordReset',
      security: PORTAL_SECURITY.public,
      tags: ['accounts'],
      summary: 'Set a new password with the reset token; ends every session',
      requestBody: { required: true, ...json(PasswordResetConfirmSchema) },
      responses: {
        '200': ok,
        '400': invalidOrWeak(
          `Unknown, used or expired token (invalid_token), or a weak password (weak_password, saying why).${strictBody}`,
        ),
        '403': csrf,
        '429': rateLimited('per client IP'),
      },
    },
  },
  [`${P}/auth/password`]: {
    post: {
      operationId: 'changePassword',
      tags: ['accounts'],
      summary: 'Change the password (ends the other sessions)',
      requestBody: { required: true, ...json(ChangePasswordRequestSchema) },
      responses: {
        '200': ok,
        '400': invalidOrWeak(
          `Wrong current password (wrong_password) or weak new password (weak_password, saying why).${strictBody}`,
        ),
        '401': unauthorized,
        '403': csrf,
        '429': rateLimited('a wrong current password counts as a failed log-in of the account from this client'),
      },
    },
  },
  [`${P}/auth/invites/accept`]: {
    post: {
      operationId: 'acceptInvite',
      security: PORTAL_SECURITY.public,
      tags: ['accounts'],
      summary: 'Accept a team invitation: creates the user and logs in',
      requestBody: { required: true, ...json(AcceptInviteRequestSchema) },
      responses: {
        '201': { description: 'Joined and logged in.', headers: setCookie, ...json(LoginResponseSchema) },
        '400': invalidOrWeak(
          `Unknown, used or expired token (invalid_token), or a weak password (weak_password, saying why).${strictBody}`,
        ),
        '403': error(
          'CSRF refusal (csrf_failed), or the inviting operator is suspended (operator_suspended): no user is created ' +
            'and the link stays usable once the operator is reinstated.',
        ),
        '409': error('The address has an account meanwhile (email_taken).'),
        '429': rateLimited('per client IP'),
      },
    },
  },
  [`${P}/team`]: {
    get: {
      operationId: 'getTeam',
      tags: ['team'],
      summary: "The operator's users and pending invitations",
      responses: {
        '200': { description: 'The team.', ...json(TeamResponseSchema) },
        '401': unauthorized,
        '403': error('A provider admin (no operator).'),
      },
    },
  },
  [`${P}/team/invites`]: {
    post: {
      operationId: 'inviteTeammate',
      tags: ['team'],
      summary: 'Invite someone by e-mail (owner only; link valid 7 days)',
      requestBody: { required: true, ...json(CreateInviteRequestSchema) },
      responses: {
        '201': { description: 'Invited.', ...json(CreateInviteResponseSchema) },
        '400': badRequest,
        '401': unauthorized,
        '403': error(
          'Not an owner (forbidden), an owner whose e-mail address is not verified yet (email_unverified), a suspended ' +
            'operator (operator_suspended), or CSRF refusal (csrf_failed).',
        ),
        '409': error('Already a member (already_member) or a user of another operator (email_taken).'),
        '429': rateLimited(
          '10 invitations per user per hour; 20 per operator per hour and 50 per day; 60 operator writes a minute',
        ),
      },
    },
  },
  [`${P}/team/invites/{id}`]: {
    delete: {
      operationId: 'revokeInvite',
      tags: ['team'],
      summary: 'Withdraw a pending invitation (owner only)',
      requestParams: { path: z.object({ id: z.string() }) },
      responses: {
        '204': { description: 'Withdrawn.' },
        '401': unauthorized,
        '403': error('Not an owner, a suspended operator (operator_suspended), or CSRF refusal.'),
        '404': error('No pending invitation with this id in your team.'),
      },
    },
  },
  [`${P}/team/members/{userId}`]: {
    delete: {
      operationId: 'removeTeamMember',
      tags: ['team'],
      summary: 'Remove a user from the team (owner only; their sessions end)',
      requestParams: { path: z.object({ userId: z.string() }) },
      responses: {
        '204': { description: 'Removed.' },
        '401': unauthorized,
        '403': error('Not an owner, a suspended operator (operator_suspended), or CSRF refusal.'),
        '404': error('No such user in your team.'),
        '409': error('The last owner cannot be removed (last_owner).'),
      },
    },
  },
  [`${P}/dev/outbox`]: {
    get: {
      operationId: 'listOutbox',
      security: PORTAL_SECURITY.public,
      tags: ['dev'],
      summary: 'E-mails written to the local outbox (embedded/dev mode only; 404 in production)',
      responses: {
        '200': { description: 'Newest first.', ...json(OutboxResponseSchema) },
        '404': error('Production.'),
      },
    },
  },
};
