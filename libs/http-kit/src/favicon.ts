import type { RequestHandler } from 'express';

/** The platform's icon: a white peak on a shield in the accent colour of libs/ui (`--svc-accent`). */
export const PLATFORM_ICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">' +
  '<path d="M16 2l12 4v9c0 7.5-5.1 12.6-12 15-6.9-2.4-12-7.5-12-15V6z" fill="#0b5cad"/>' +
  '<path d="M8 21l5-8 3 4 2-3 6 7z" fill="#fff"/></svg>';

/** Thirty days: the icon rarely changes, and a stale one for a month harms nobody. */
export const FAVICON_CACHE_CONTROL = 'public, max-age=2592000';

/**
 * `GET /favicon.ico`: the platform icon (SVG, which browsers accept at that path) instead of a logged 404 on every
 * page a browser opens directly. A middleware like `healthRoutes`: one comparison per request.
 */
export function faviconRoute(): RequestHandler {
  const body = Buffer.from(PLATFORM_ICON_SVG);
  return (req, res, next) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || req.path !== '/favicon.ico') return next();
    res.setHeader('Cache-Control', FAVICON_CACHE_CONTROL);
    res.type('image/svg+xml').send(body);
  };
}
