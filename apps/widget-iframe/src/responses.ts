import type { Response } from 'express';

/** Content-hashed and pinned files: a URL always means the same bytes, so every encoding of it is cached forever. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';

/** 503 with Retry-After while a bundle is not built yet. */
export function unavailable(res: Response, message: string): void {
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Retry-After', '5');
  res.status(503).type('text/plain; charset=utf-8').send(message);
}
