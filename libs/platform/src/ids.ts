import { randomBytes } from 'node:crypto';

/** Unguessable bearer tokens: 32 random bytes, base64url, with a readable prefix (`cs_…`, `qs_…`). */
export function randomToken(prefix: string, bytes = 32): string {
  return `${prefix}_${randomBytes(bytes).toString('base64url')}`;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/** Cheap shape check so malformed ids never reach the database (and are answered like unknown ones). */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}
