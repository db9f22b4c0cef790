import type { RequestHandler } from 'express';

export interface SecurityHeaderOptions {
  /** The widget app's origin: the integration page may preview the widget in an iframe. */
  widgetOrigin: string;
  /** Strict-Transport-Security when the portal is served over https. */
  hsts: boolean;
}

/** The portal's Content-Security-Policy: no inline script or style, nothing from elsewhere but the widget frame. */
export function contentSecurityPolicy(widgetOrigin: string): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    `frame-src ${widgetOrigin}`,
    "object-src 'none'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'self'",
  ].join('; ');
}

/** The portal's own headers of every response (API, pages, assets); nosniff and the request id come first, from
 * http-kit's requestId() (libs/http-kit security-headers.ts), as in every app. */
export function securityHeaders(options: SecurityHeaderOptions): RequestHandler {
  const csp = contentSecurityPolicy(options.widgetOrigin);
  return (_req, res, next) => {
    res.setHeader('Content-Security-Policy', csp);
    res.setHeader('Referrer-Policy', 'same-origin');
    res.setHeader(
      'Permissions-Policy',
      'camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()',
    );
    res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
    res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
    res.setHeader('X-Frame-Options', 'DENY');
    if (options.hsts) res.setHeader('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
    next();
  };
}
