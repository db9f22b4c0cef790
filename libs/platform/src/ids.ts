import { createHash, randomBytes } from 'node:crypto';

/** Unguessable bearer tokens: 32 random bytes, base64url, with a readable prefix (`cs_…`, `qs_…`). */
export function randomToken(prefix: string, bytes = 32): string {
  return `${prefix}_${randomBytes(bytes).toString('base64url')}`;
}

/**
 * Bearer tokens (checkout links, quote sessionIds) are stored only as this hash: a database read leaks nothing that
 * can be presented. 32 random bytes need no salt or slow hash.
 */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/** Cheap shape check so malformed ids never reach the database (and are answered like unknown ones). */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}
