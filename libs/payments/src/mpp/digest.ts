import { createHash } from 'node:crypto';

/**
 * RFC 9530 value `sha-256=:<base64>:` of a request body, for the challenge's optional `digest` parameter
 * (binds the whole POST body; recompute and compare on the paid retry).
 */
export function digestBody(rawBody: string | Uint8Array): string {
  const bytes = typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : rawBody;
  return `sha-256=:${createHash('sha256').update(bytes).digest('base64')}:`;
}
