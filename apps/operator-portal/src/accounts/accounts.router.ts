import { Router, type Request, type Response } from 'express';
import {
  AcceptInviteRequestSchema,
  ChangePasswordRequestSchema,
  LoginRequestSchema,
  PasswordResetConfirmSchema,
  PasswordResetRequestSchema,
  SignInLinkRequestSchema,
  SignupRequestSchema,
  VerifyEmailRequestSchema,
  type PortalUser,
  type SessionResponse,
  type SessionStatusResponse,
} from '@expedition/contracts';
import { type AccountService, type AccountUser, isAccountError, normalizeEmail } from '@expedition/operators';
import type { RateLimiter, RefundableRateLimiter } from '@expedition/platform';
import { clearSessionCookie, setSessionCookie, type SessionCookieOptions } from '../http/cookies';
import { PortalError } from '../http/errors';
import { getPrincipal } from '../http/principal';
import type { PortalRouteDeps } from '../http/route-deps';
import { findSession } from '../http/session';
import { parseBody } from '../http/validate';
import type { Mailer, OutgoingMail } from '../mail/mailer';
import { messages } from '../mail/messages';
import { createAuthEvents } from './auth-events';
import { clientOf, consumeAll, refundAll, throttle, type PortalThrottles, type ThrottleRefusal } from './throttles';

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

export const LOCKED_OUT =
  'Too many failed log-ins for this account; log-ins with its password are paused. If this address has an account, ' +
  'we e-mailed it a one-time sign-in link.';

/** `/auth/*`: sign-up, log-in and out, the session, e-mail verification, passwords, invitation acceptance. */
export function accountRouter(deps: AccountRouteDeps): Router {
  const { accounts, throttles, guards, logger } = deps;
  const router = Router();
  const client = (req: Request) => clientOf(req.ip);
  const record = createAuthEvents(deps);

  /** Mail goes out after the answer is decided; a mail failure is logged (without the link), never shown. */
  const sendMail = (mail: OutgoingMail) =>
    deps.mailer
      .send(mail)
      .catch((err: unknown) => logger.error({ err: (err as Error).message, subject: mail.subject }, 'mail not sent'));

  async function logIn(req: Request, res: Response, user: AccountUser): Promise<string> {
    // Never reuse a pre-login session: whatever the browser held is ended and a new random token is issued.
    const previous = findSession(req);
    if (previous) await accounts.revokeSession(previous.sessionId);
    const session = await accounts.createSession(user.id, { userAgent: req.get('user-agent'), ip: req.ip });
    setSessionCookie(res, session.token, deps.cookie);
    return session.csrfToken;
  }

  /**
   * The log-in budgets of one attempt (docs/portal.md, throttling): failures of this account from this client, of
   * this account from everyone, and of this client across accounts. All count failures only.
   */
  const loginBudgets = (req: Request, account: string): [RefundableRateLimiter, string][] => [
    [throttles.loginFailuresPerAccountAndClient, `${account}|${client(req)}`],
    [throttles.loginFailuresPerAccount, account],
    [throttles.loginFailuresPerClient, client(req)],
  ];

  const budgetNames = (refused: RateLimiter[]) =>
    (Object.keys(throttles) as (keyof PortalThrottles)[]).filter((name) => refused.includes(throttles[name]));

  /**
   * A refused log-in. When the account-wide budget is what refused, the account is locked for everyone: its owner
   * (if the address has an account) is mailed a one-time sign-in link, at most once per lock.
   */
  async function refuseLogIn(req: Request, email: unknown, account: string, refusal: ThrottleRefusal): Promise<never> {
    const budgets = budgetNames(refusal.refused);
    const known = await accounts.findUserByEmail(account).catch(() => null);
    await record(req, 'auth.login.throttled', { user: known, email, detail: { budgets } });
    const locked = refusal.refused.includes(throttles.loginFailuresPerAccount);
    if (!locked) throw PortalError.rateLimited(refusal.retryAfterSec);
    const mailBudget = await throttles.signInLinkPerAccount.consume(account);
    if (mailBudget.allowed) {
      const link = await accounts.createSignInLink(account);
      if (link) {
        await record(req, 'auth.account.locked', { user: link.user, detail: { signInLinkSent: true } });
        void sendMail(messages.signInLink(link.user.email, `${deps.urls.portal}/sign-in-link?token=${link.token}`));
      }
    }
    throw new PortalError(429, 'rate_limited', LOCKED_OUT, undefined, { 'Retry-After': String(refusal.retryAfterSec) });
  }

  router.post('/auth/signup', async (req, res) => {
    await throttle([[throttles.tokenPerClient, client(req)]]);
    const body = parseBody(SignupRequestSchema, req.body);
    const created = await accounts.signUp(body);
    const csrfToken = await logIn(req, res, created.user);
    await record(req, 'auth.signup', { user: created.user, byUser: true });
    await sendMail(
      messages.verifyEmail(created.user.email, `${deps.urls.portal}/verify-email?token=${created.verificationToken}`),
    );
    res.status(201).json({ user: toPortalUser(created.user), operator: created.operator, csrfToken });
  });

  router.post('/auth/login', async (req, res) => {
    const body = parseBody(LoginRequestSchema, req.body);
    const account = accountId(body.email);
    const budgets = loginBudgets(req, account);
    const refusal = await consumeAll(budgets);
    if (refusal) await refuseLogIn(req, body.email, account, refusal);
    const check = await accounts.checkCredentials(body.email, body.password);
    if (!check.ok) {
      await record(req, 'auth.login.failed', {
        user: check.account,
        email: body.email,
        detail: { reason: check.reason },
      });
      throw new PortalError(401, 'invalid_credentials', 'E-mail or password is incorrect');
    }
    // Successes never count: the attempt's points go back.
    await refundAll(budgets);
    const csrfToken = await logIn(req, res, check.user);
    await record(req, 'auth.login.succeeded', { user: check.user, byUser: true });
    res.json({ user: toPortalUser(check.user), csrfToken });
  });

  router.post('/auth/login-link', async (req, res) => {
    await throttle([[throttles.tokenPerClient, client(req)]]);
    const { token } = parseBody(SignInLinkRequestSchema, req.body);
    const user = await accounts.signInWithLink(token);
    const csrfToken = await logIn(req, res, user);
    await record(req, 'auth.sign_in_link.used', { user, byUser: true });
    res.json({ user: toPortalUser(user), csrfToken });
  });

  router.post('/auth/logout', async (req, res) => {
    const session = findSession(req);
    if (session) {
      await accounts.revokeSession(session.sessionId);
      await record(req, 'auth.logout', { user: session.user, byUser: true });
    }
    clearSessionCookie(res, deps.cookie);
    res.status(204).end();
  });

  router.post('/auth/logout-all', guards.requireUser, async (req, res) => {
    const session = findSession(req);
    const ended = await accounts.revokeAllSessions(getPrincipal(req).userId);
    await record(req, 'auth.logout_all', { user: session?.user, byUser: true, detail: { sessionsEnded: ended } });
    clearSessionCookie(res, deps.cookie);
    res.status(204).end();
  });

  /** The body of GET /auth/session (also GET /auth/status's `session`). */
  async function sessionBody(session: NonNullable<ReturnType<typeof findSession>>): Promise<SessionResponse> {
    const operatorId = session.user.operatorId;
    const operator = operatorId
      ? await deps.prisma.operator.findUnique({ where: { id: operatorId }, select: { id: true, name: true } })
      : null;
    return {
      user: toPortalUser(session.user),
      operator,
      csrfToken: session.csrfToken,
      expiresAt: session.expiresAt.toISOString(),
    };
  }

  router.get('/auth/session', async (req, res) => {
    const session = findSession(req);
    if (!session) throw PortalError.unauthorized('No session; log in');
    res.json(await sessionBody(session));
  });

  // The portal's page-load probe (docs/portal.md, Routes): no session is a 200 answer, never a 401 in the console.
  router.get('/auth/status', async (req, res) => {
    const session = findSession(req);
    const body: SessionStatusResponse = session
      ? { authenticated: true, session: await sessionBody(session) }
      : { authenticated: false };
    res.json(body);
  });

  router.post('/auth/verify-email', async (req, res) => {
    await throttle([[throttles.tokenPerClient, client(req)]]);
    const { token } = parseBody(VerifyEmailRequestSchema, req.body);
    const user = await accounts.verifyEmail(token);
    await record(req, 'auth.email.verified', { user, byUser: true });
    res.json({ ok: true, emailVerified: user.emailVerified });
  });

  router.post('/auth/verify-email/resend', guards.requireUser, async (req, res) => {
    const principal = getPrincipal(req);
    await throttle([[throttles.mailPerUser, principal.userId]]);
    const verification = await accounts.createEmailVerification(principal.userId);
    if (verification) {
      await record(req, 'auth.email.verification_sent', { user: verification.user, byUser: true });
      await sendMail(
        messages.verifyEmail(verification.user.email, `${deps.urls.portal}/verify-email?token=${verification.token}`),
      );
    }
    res.status(202).json({
      accepted: true,
      message: verification
        ? `We sent a new link to ${verification.user.email}.`
        : 'Your e-mail address is already verified.',
    });
  });

  router.post('/auth/password-reset', async (req, res) => {
    const { email } = parseBody(PasswordResetRequestSchema, req.body);
    await throttle([
      [throttles.resetPerClient, client(req)],
      [throttles.resetPerAccount, accountId(email)],
    ]);
    const reset = await accounts.requestPasswordReset(email);
    // Recorded for unknown addresses too (by hash): a reset asked for a non-existent account is worth seeing.
    await record(req, 'auth.password_reset.requested', {
      user: reset?.user,
      email,
      detail: { mailed: reset !== null },
    });
    res.status(202).json({ accepted: true, message: ACCEPTED_RESET });
    // After the answer, and not awaited: composing and sending the mail of a known address never delays the answer
    // (the statements before it are the same for any address: docs/security.md, "Password-reset timing").
    if (reset)
      void sendMail(
        messages.passwordReset(reset.user.email, `${deps.urls.portal}/reset-password?token=${reset.token}`),
      );
  });

  router.post('/auth/password-reset/confirm', async (req, res) => {
    await throttle([[throttles.tokenPerClient, client(req)]]);
    const body = parseBody(PasswordResetConfirmSchema, req.body);
    const user = await accounts.confirmPasswordReset(body.token, body.password);
    await record(req, 'auth.password_reset.completed', { user, byUser: true });
    clearSessionCookie(res, deps.cookie);
    await sendMail(messages.passwordChanged(user.email));
    res.json({ ok: true });
  });

  router.post('/auth/password', guards.requireUser, async (req, res) => {
    const principal = getPrincipal(req);
    const session = findSession(req);
    // A wrong current password is a failed log-in of this account from this client; a right one gives its point back.
    const budget: [RefundableRateLimiter, string][] = [
      [throttles.loginFailuresPerAccountAndClient, `${principal.email}|${client(req)}`],
    ];
    await throttle(budget);
    const body = parseBody(ChangePasswordRequestSchema, req.body);
    let user: AccountUser;
    try {
      user = await accounts.changePassword(
        principal.userId,
        body.currentPassword,
        body.newPassword,
        principal.sessionId,
      );
    } catch (err) {
      if (isAccountError(err) && err.code === 'wrong_password') {
        await record(req, 'auth.password.change_failed', { user: session?.user, detail: { reason: 'wrong_password' } });
      } else {
        await refundAll(budget);
      }
      throw err;
    }
    await refundAll(budget);
    await record(req, 'auth.password.changed', { user, byUser: true });
    await sendMail(messages.passwordChanged(user.email));
    res.json({ ok: true });
  });

  router.post('/auth/invites/accept', async (req, res) => {
    await throttle([[throttles.tokenPerClient, client(req)]]);
    const body = parseBody(AcceptInviteRequestSchema, req.body);
    const user = await accounts.acceptInvite(body.token, body.password, body.name);
    const csrfToken = await logIn(req, res, user);
    await record(req, 'auth.invite.accepted', { user, byUser: true });
    res.status(201).json({ user: toPortalUser(user), csrfToken });
  });

  return router;
}
