import { randomInt } from 'node:crypto';

/**
 * Quote numbers are `EXP-XXXX` (docs/decisions.md, Quote numbers). The alphabet drops 0/O, 1/I/L and U so a number read
 * aloud or copied by hand is unambiguous: 30 symbols, 810,000 numbers. Uniqueness is the database's job (unique index);
 * the creator retries on a collision with a fresh random number.
 */
export const QUOTE_NUMBER_ALPHABET = '23456789ABCDEFGHJKMNPQRSTVWXYZ';

export function randomQuoteNumber(pick: (max: number) => number = randomInt): string {
  let s = 'EXP-';
  for (let i = 0; i < 4; i++) s += QUOTE_NUMBER_ALPHABET[pick(QUOTE_NUMBER_ALPHABET.length)];
  return s;
}
