import { createHash, randomBytes, randomInt } from 'node:crypto';

/**
 * Quote numbers are `EXP-XXXX` (SERVICE-SPEC §2). The alphabet drops 0/O, 1/I/L and U so a number read aloud or
 * copied by hand is unambiguous: 30 symbols, 810,000 numbers. Uniqueness is the database's job (unique index);
 * the creator retries on a collision with a fresh random number.
 */
export const QUOTE_NUMBER_ALPHABET = '23456789ABCDEFGHJKMNPQRSTVWXYZ';

export function randomQuoteNumber(pick: (max: number) => number = randomInt): string {
  let s = 'EXP-';
  for (let i = 0; i < 4; i++) s += QUOTE_NUMBER_ALPHABET[pick(QUOTE_NUMBER_ALPHABET.length)];
  return s;
}

/** Unguessable bearer tokens: 32 random bytes, base64url, with a readable prefix. */
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
