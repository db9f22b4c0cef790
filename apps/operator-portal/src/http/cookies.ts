import type { Request, Response } from 'express';
import { PORTAL_SESSION_COOKIE } from '@expedition/contracts';

/** The value of one cookie of the request (no cookie-parser: we read exactly one). */
export function readCookie(req: Request, name: string): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() !== name) continue;
    const raw = part.slice(eq + 1).trim();
    try {
      return decodeURIComponent(raw);
    } catch {
      return undefined;
    }
  }
  return undefined;
}

export interface SessionCookieOptions {
  /** Secure attribute: set when the portal is served over https. */
  secure: boolean;
}

/**
 * httpOnly (scripts never see it), SameSite=Lax (not sent on cross-site POSTs), Path=/, Secure behind https. No
 * Max-Age: a browser session cookie; the server enforces the idle and absolute timeouts.
 */
export function setSessionCookie(res: Response, token: string, options: SessionCookieOptions): void {
  dropPendingSessionCookie(res);
  res.cookie(PORTAL_SESSION_COOKIE, token, { httpOnly: true, sameSite: 'lax', secure: options.secure, path: '/' });
}

export function clearSessionCookie(res: Response, options: SessionCookieOptions): void {
  dropPendingSessionCookie(res);
  res.clearCookie(PORTAL_SESSION_COOKIE, { httpOnly: true, sameSite: 'lax', secure: options.secure, path: '/' });
}

/** One Set-Cookie per response for the session cookie: a later decision replaces an earlier one. */
function dropPendingSessionCookie(res: Response): void {
  const current = res.getHeader('Set-Cookie');
  if (current === undefined) return;
  const list = (Array.isArray(current) ? current : [String(current)]).filter(
    (c) => !c.startsWith(`${PORTAL_SESSION_COOKIE}=`),
  );
  if (list.length === 0) res.removeHeader('Set-Cookie');
  else res.setHeader('Set-Cookie', list);
}
