import { Router, type Request, type Response } from 'express';
import {
  AcceptInviteRequestSchema,
  ChangePasswordRequestSchema,
  LoginRequestSchema,
  PasswordResetConfirmSchema,
  PasswordResetRequestSchema,
  SignupRequestSchema,
  VerifyEmailRequestSchema,
  type PortalUser,
} from '@expedition/contracts';
import { type AccountService, type AccountUser, normalizeEmail } from '@expedition/operators';
import { clearSessionCookie, setSessionCookie, type SessionCookieOptions } from '../http/cookies';
import { PortalError } from '../http/errors';
import { getPrincipal } from '../http/principal';
import type { PortalRouteDeps } from '../http/route-deps';
import { findSession } from '../http/session';
import { parseBody } from '../http/validate';
import type { Mailer, OutgoingMail } from '../mail/mailer';
import { messages } from '../mail/messages';
import { throttle, type PortalThrottles } from './throttles';

export interface AccountRouteDeps extends PortalRouteDeps {
  accounts: AccountService;
  mailer: Mailer;
  throttles: PortalThrottles;
  cookie: SessionCookieOptions;
}

export const ACCEPTED_RESET = 'If an account exists for this address, we sent a link to reset its password.';

export function toPortalUser(user: AccountUser): PortalUser {
  return { ...user };
}

/** The per-account throttle id: the normalized address, or the raw input when it is not one (same budget shape). */
function accountId(email: unknown): string {
  try {
    return normalizeEmail(email);
  } catch {
    return String(email).slice(0, 254).toLowerCase();
  }
}

/** `/auth/*`: sign-up, log-in and out, the session, e-mail verification, passwords, invitation acceptance. */
export function accountRoutes(deps: AccountRouteDeps): Router {
  const { accounts, throttles, guards, logger } = deps;
  const router = Router();
  const ip = (req: Request) => req.ip ?? 'unknown';

  /** Mail goes out after the answer is decided; a mail failure is logged (without the link), never shown. */
  const sendMail = (mail: OutgoingMail) =>
    deps.mailer.send(mail).catch((err: unknown) => logger.error({ err: (err as Error).message, subject: mail.subject }, 'mail not sent'));

  async function logIn(req: Request, res: Response, user: AccountUser): Promise<string> {
    // Never reuse a pre-login session: whatever the browser held is ended and a new random token is issued.
    const previous = findSession(req);
    if (previous) await accounts.revokeSession(previous.sessionId);
    const session = await accounts.createSession(user.id, { userAgent: req.get('user-agent'), ip: req.ip });
    setSessionCookie(res, session.token, deps.cookie);
    return session.csrfToken;
  }

  router.post('/auth/signup', async (req, res) => {
    await throttle([[throttles.tokenPerIp, ip(req)]]);
    const body = parseBody(SignupRequestSchema, req.body);
    const created = await accounts.signUp(body);
    const csrfToken = await logIn(req, res, created.user);
    await sendMail(messages.verifyEmail(created.user.email, `${deps.urls.portal}/verify-email?token=${created.verificationToken}`));
    res.status(201).json({ user: toPortalUser(created.user), operator: created.operator, csrfToken });
  });

  router.post('/auth/login', async (req, res) => {
    const body = parseBody(LoginRequestSchema, req.body);
    await throttle([
      [throttles.loginPerIp, ip(req)],
      [throttles.loginPerAccount, accountId(body.email)],
    ]);
    const user = await accounts.authenticate(body.email, body.password);
    const csrfToken = await logIn(req, res, user);
    res.json({ user: toPortalUser(user), csrfToken });
  });

  router.post('/auth/logout', async (req, res) => {
    const session = findSession(req);
    if (session) await accounts.revokeSession(session.sessionId);
    clearSessionCookie(res, deps.cookie);
    res.status(204).end();
  });

  router.post('/auth/logout-all', guards.requireUser, async (req, res) => {
    await accounts.revokeAllSessions(getPrincipal(req).userId);
    clearSessionCookie(res, deps.cookie);
    res.status(204).end();
  });

  router.get('/auth/session', async (req, res) => {
    const session = findSession(req);
    if (!session) throw PortalError.unauthorized('No session; log in');
    const operatorId = session.user.operatorId;
    const operator = operatorId
      ? await deps.prisma.operator.findUnique({ where: { id: operatorId }, select: { id: true, name: true } })
      : null;
    res.json({
      user: toPortalUser(session.user),
      operator,
      csrfToken: session.csrfToken,
      expiresAt: session.expiresAt.toISOString(),
    });
  });

  router.post('/auth/verify-email', async (req, res) => {
    await throttle([[throttles.tokenPerIp, ip(req)]]);
    const { token } = parseBody(VerifyEmailRequestSchema, req.body);
    const user = await accounts.verifyEmail(token);
    res.json({ ok: true, emailVerified: user.emailVerified });
  });

  router.post('/auth/verify-email/resend', guards.requireUser, async (req, res) => {
    const principal = getPrincipal(req);
    await throttle([[throttles.mailPerUser, principal.userId]]);
    const verification = await accounts.createEmailVerification(principal.userId);
    if (verification) {
      await sendMail(messages.verifyEmail(verification.user.email, `${deps.urls.portal}/verify-email?token=${verification.token}`));
    }
    res.status(202).json({
      accepted: true,
      message: verification ? `We sent a new link to ${verification.user.email}.` : 'Your e-mail address is already verified.',
    });
  });

  router.post('/auth/password-reset', async (req, res) => {
    const { email } = parseBody(PasswordResetRequestSchema, req.body);
    await throttle([
      [throttles.resetPerIp, ip(req)],
      [throttles.resetPerAccount, accountId(email)],
    ]);
    const reset = await accounts.requestPasswordReset(email);
    // Not awaited: the answer must not take longer for a known address than for an unknown one.
    if (reset) void sendMail(messages.passwordReset(reset.user.email, `${deps.urls.portal}/reset-password?token=${reset.token}`));
    res.status(202).json({ accepted: true, message: ACCEPTED_RESET });
  });

  router.post('/auth/password-reset/confirm', async (req, res) => {
    await throttle([[throttles.tokenPerIp, ip(req)]]);
    const body = parseBody(PasswordResetConfirmSchema, req.body);
    const user = await accounts.confirmPasswordReset(body.token, body.password);
    clearSessionCookie(res, deps.cookie);
    await sendMail(messages.passwordChanged(user.email));
    res.json({ ok: true });
  });

  router.post('/auth/password', guards.requireUser, async (req, res) => {
    const principal = getPrincipal(req);
    await throttle([[throttles.loginPerAccount, principal.email]]);
    const body = parseBody(ChangePasswordRequestSchema, req.body);
    const user = await accounts.changePassword(principal.userId, body.currentPassword, body.newPassword, principal.sessionId);
    await sendMail(messages.passwordChanged(user.email));
    res.json({ ok: true });
  });

  router.post('/auth/invites/accept', async (req, res) => {
    await throttle([[throttles.tokenPerIp, ip(req)]]);
    const body = parseBody(AcceptInviteRequestSchema, req.body);
    const user = await accounts.acceptInvite(body.token, body.password, body.name);
    const csrfToken = await logIn(req, res, user);
    res.status(201).json({ user: toPortalUser(user), csrfToken });
  });

  return router;
}
