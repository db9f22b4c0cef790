import { addMs, hashToken, randomToken } from '@expedition/platform';
import {
  ACCOUNT_DEFAULTS,
  type AccountServiceDeps,
  type AccountUser,
  clockOf,
  endSessions,
  toAccountUser,
} from './account-context';

export interface ResolvedSession {
  sessionId: string;
  csrfToken: string;
  /** Absolute expiry; the idle expiry moves with every request. */
  expiresAt: Date;
  user: AccountUser;
}

export interface NewSession {
  /** The cookie value: shown once, only its sha256 is stored. */
  token: string;
  sessionId: string;
  csrfToken: string;
  expiresAt: Date;
}

/**
 * Server-side portal sessions (docs/portal.md, "Security decisions"): the cookie carries a random token, the database
 * its sha256, a CSRF token, an absolute expiry and the last time it was seen (the idle timeout).
 */
export function createSessionService(deps: AccountServiceDeps) {
  const { prisma } = deps;
  const clock = clockOf(deps);
  const idleMs = deps.sessionIdleMs ?? ACCOUNT_DEFAULTS.sessionIdleMs;
  const absoluteMs = deps.sessionAbsoluteMs ?? ACCOUNT_DEFAULTS.sessionAbsoluteMs;

  /** A fresh session (new random token: never a pre-login one). */
  async function createSession(
    userId: string,
    meta: { userAgent?: string | null; ip?: string | null } = {},
  ): Promise<NewSession> {
    const token = randomToken('ps');
    const csrfToken = randomToken('csrf');
    const now = clock.now();
    const expiresAt = addMs(now, absoluteMs);
    const session = await prisma.operatorSession.create({
      data: {
        userId,
        tokenHash: hashToken(token),
        csrfToken,
        expiresAt,
        lastSeenAt: now,
        createdAt: now,
        userAgent: meta.userAgent?.slice(0, 300) ?? null,
        ip: meta.ip?.slice(0, 64) ?? null,
      },
    });
    await prisma.operatorUser.update({ where: { id: userId }, data: { lastLoginAt: now } });
    return { token, sessionId: session.id, csrfToken, expiresAt };
  }

  /** The live session of a cookie value, or null (unknown, revoked, past its absolute or idle timeout, user disabled). */
  async function resolveSession(token: string): Promise<ResolvedSession | null> {
    if (!token || token.length > 200) return null;
    const row = await prisma.operatorSession.findUnique({
      where: { tokenHash: hashToken(token) },
      include: { user: true },
    });
    if (!row || row.revokedAt || row.user.disabledAt) return null;
    const now = clock.now();
    if (row.expiresAt.getTime() <= now.getTime()) return null;
    if (row.lastSeenAt.getTime() + idleMs <= now.getTime()) return null;
    if (now.getTime() - row.lastSeenAt.getTime() >= ACCOUNT_DEFAULTS.touchEveryMs) {
      await prisma.operatorSession.update({ where: { id: row.id }, data: { lastSeenAt: now } });
    }
    return { sessionId: row.id, csrfToken: row.csrfToken, expiresAt: row.expiresAt, user: toAccountUser(row.user) };
  }

  async function revokeSession(sessionId: string): Promise<void> {
    await prisma.operatorSession.updateMany({
      where: { id: sessionId, revokedAt: null },
      data: { revokedAt: clock.now() },
    });
  }

  /** Log-out everywhere (optionally keeping the caller's own session). Returns how many sessions ended. */
  async function revokeAllSessions(userId: string, options: { except?: string } = {}): Promise<number> {
    return endSessions(prisma, userId, clock.now(), options);
  }

  return { createSession, resolveSession, revokeSession, revokeAllSessions };
}
