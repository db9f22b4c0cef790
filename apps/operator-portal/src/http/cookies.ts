import type { Request, Response } from 'express';
import { PORTAL_SESSION_COOKIE } from '@expedition/contracts';

/** The session cookie's name behind https: a `__Host-` cookie is Secure, Path=/ and has no Domain (RFC 6265bis). */
export const HOST_SESSION_COOKIE = `__Host-${PORTAL_SESSION_COOKIE}`;

export interface SessionCookieOptions {
  /** The portal is served over https: the cookie is `__Host-svc_portal_session`, Secure. */
  secure: boolean;
}

/**
 * The session cookie's name. Behind https `__Host-svc_portal_session`: the browser keeps only a cookie set by this very
 * host, Secure, for Path=/, so no other host (a sibling subdomain, a parent domain) can set, shadow or replace it.
 * Over plain http (development) the prefix cannot be used (browsers refuse a `__Host-` cookie without Secure), so it
 * is `svc_portal_session`, which a sibling host could toss; see sessionCookieValue for what happens then.
 * docs/security.md, "The session cookie".
 */
export function sessionCookieName(options: SessionCookieOptions): string {
  return options.secure ? HOST_SESSION_COOKIE : PORTAL_SESSION_COOKIE;
}

/**
 * The session token of the request: the value of the one cookie of the session's name. When several arrive (a cookie
 * tossed for a parent domain or another path next to ours: the browser sends both, in no order we can trust), none is
 * chosen: the request has no session, and no cookie is cleared (clearing ours would leave the tossed one to be used).
 */
export function sessionCookieValue(req: Request, options: SessionCookieOptions): string | undefined {
  const values = readCookies(req, sessionCookieName(options));
  return values.length === 1 ? values[0] : undefined;
}

/** Every value of cookie `name` in the request, in header order (no cookie-parser: it keeps only the first). */
function readCookies(req: Request, name: string): string[] {
  const header = req.headers.cookie;
  if (!header) return [];
  const values: string[] = [];
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    try {
      values.push(decodeURIComponent(part.slice(eq + 1).trim()));
    } catch {
      values.push('');
    }
  }
  return values;
}

/**
 * httpOnly (scripts never see it), SameSite=Lax (not sent on cross-site POSTs), Path=/, no Domain, Secure behind
 * https (with the `__Host-` name). No Max-Age: a browser session cookie; the server enforces the idle and absolute
 * timeouts.
 */
export function setSessionCookie(res: Response, token: string, options: SessionCookieOptions): void {
  dropPendingSessionCookie(res, options);
  res.cookie(sessionCookieName(options), token, cookieAttributes(options));
}

export function clearSessionCookie(res: Response, options: SessionCookieOptions): void {
  dropPendingSessionCookie(res, options);
  res.clearCookie(sessionCookieName(options), cookieAttributes(options));
}

function cookieAttributes(options: SessionCookieOptions) {
  return { httpOnly: true, sameSite: 'lax', secure: options.secure, path: '/' } as const;
}

/** One Set-Cookie per response for the session cookie: a later decision replaces an earlier one. */
function dropPendingSessionCookie(res: Response, options: SessionCookieOptions): void {
  const current = res.getHeader('Set-Cookie');
  if (current === undefined) return;
  const prefix = `${sessionCookieName(options)}=`;
  const list = (Array.isArray(current) ? current : [String(current)]).filter((c) => !c.startsWith(prefix));
  if (list.length === 0) res.removeHeader('Set-Cookie');
  else res.setHeader('Set-Cookie', list);
}
