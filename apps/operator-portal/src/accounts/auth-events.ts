import type { Request } from 'express';
import type { PrismaClient } from '@expedition/db';
import { normalizeEmail, writeAudit } from '@expedition/operators';
import { hashToken, type Clock, type Logger } from '@expedition/platform';

/**
 * Authentication events (ASVS 7.1.3 / 7.2.1). Each is one `audit_entries` row (action below, `ip`, the operator of the
 * account so its team sees it in their audit log) and one process-log line with the same facts and the request id.
 * Never a password, a token or a full e-mail address in the log: a known account is named by its user id, an unknown
 * one by `emailHash` (the first 16 hex digits of the sha256 of the normalized address, to correlate attempts).
 */
export type AuthEvent =
  | 'auth.signup'
  | 'auth.login.succeeded'
  | 'auth.login.failed'
  | 'auth.login.throttled'
  | 'auth.account.locked'
  | 'auth.sign_in_link.used'
  | 'auth.logout'
  | 'auth.logout_all'
  | 'auth.password.changed'
  | 'auth.password.change_failed'
  | 'auth.password_reset.requested'
  | 'auth.password_reset.completed'
  | 'auth.email.verification_sent'
  | 'auth.email.verified'
  | 'auth.invite.sent'
  | 'auth.invite.accepted';

/** The account an event concerns. */
export interface AuthSubject {
  id: string;
  email: string;
  role: string;
  operatorId: string | null;
}

export interface AuthEventDetails {
  /** The account, when known. */
  user?: AuthSubject | null;
  /** The address as typed, for an event about an address that has no account (only its hash is kept). */
  email?: unknown;
  /** True when the account's user did it themselves (a success): they are then the actor. */
  byUser?: boolean;
  /** Extra facts (never a secret): a failure reason, the budgets that refused, an invitee's user id. */
  detail?: Record<string, string | number | boolean | string[] | null>;
}

const FAILURES = new Set<AuthEvent>([
  'auth.login.failed',
  'auth.login.throttled',
  'auth.account.locked',
  'auth.password.change_failed',
]);

/** A pseudonymous id of an address (correlation, not secrecy: a guessed address can be hashed and compared). */
export function emailHash(email: unknown): string | null {
  if (typeof email !== 'string') return null;
  let normalized: string;
  try {
    normalized = normalizeEmail(email);
  } catch {
    normalized = email.trim().toLowerCase();
  }
  return hashToken(normalized).slice(0, 16);
}

export function createAuthEvents(deps: { prisma: PrismaClient; clock: Clock; logger: Logger }) {
  return async function record(req: Request, event: AuthEvent, details: AuthEventDetails = {}): Promise<void> {
    const user = details.user ?? null;
    const hashed = user ? null : emailHash(details.email);
    const facts = { ...(details.detail ?? {}), ...(hashed ? { emailHash: hashed } : {}) };
    const ip = req.ip ?? null;
    const line = { event, userId: user?.id ?? null, operatorId: user?.operatorId ?? null, ip, reqId: req.id, ...facts };
    if (FAILURES.has(event)) deps.logger.warn(line, 'auth event');
    else deps.logger.info(line, 'auth event');
    const actor = details.byUser && user ? { userId: user.id, email: user.email, role: user.role, ip } : { ip };
    await writeAudit(
      deps.prisma,
      actor,
      {
        operatorId: user?.operatorId ?? null,
        action: event,
        targetType: user ? 'user' : hashed ? 'email_hash' : null,
        targetId: user?.id ?? hashed,
        after: Object.keys(facts).length > 0 ? facts : undefined,
      },
      deps.clock.now(),
    );
  };
}
