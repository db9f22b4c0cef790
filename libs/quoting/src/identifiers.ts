import { randomInt } from 'node:crypto';

/**
 * Quote numbers are `EXP-XXXX` (docs/decisions.md, "Quote numbers"). The alphabet drops 0/O, 1/I/L and U so a number
 * read aloud or copied by hand is unambiguous: 30 symbols, 810,000 numbers. A number is unique among the quotes of one
 * UTC day (and number series): the database's unique index decides, and the creator draws again when it is taken.
 */
export const QUOTE_NUMBER_ALPHABET = '23456789ABCDEFGHJKMNPQRSTVWXYZ';

const QUOTE_NUMBER = new RegExp(`^EXP-[${QUOTE_NUMBER_ALPHABET}]{4}$`);

export function randomQuoteNumber(pick: (max: number) => number = randomInt): string {
  let s = 'EXP-';
  for (let i = 0; i < 4; i++) s += QUOTE_NUMBER_ALPHABET[pick(QUOTE_NUMBER_ALPHABET.length)];
  return s;
}

/**
 * A quote number as a person gives it (read over the phone, typed from an e-mail): any case, spaces or hyphens, with
 * or without `EXP`; null when it cannot be one of ours (a symbol outside the alphabet, the wrong length).
 */
export function normalizeQuoteNumber(input: string): string | null {
  const compact = input.toUpperCase().replace(/[\s-]+/g, '');
  const symbols = compact.startsWith('EXP') && compact.length === 7 ? compact.slice(3) : compact;
  const quoteNumber = `EXP-${symbols}`;
  return QUOTE_NUMBER.test(quoteNumber) ? quoteNumber : null;
}
