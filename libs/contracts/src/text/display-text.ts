/**
 * Text a person reads as a name (an operator's name on a checkout page, a team member's, a traveler's): refused when it
 * holds a character that changes how it reads without being seen. docs/security.md, "Names that deceive".
 *
 * - bidi controls (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069): "Polar\u202Esnoziroh" shows reversed;
 * - invisible characters: zero-width (U+200B–U+200D), word joiner and other invisible operators (U+2060–U+2064), the
 *   byte-order mark (U+FEFF), the Hangul and braille blanks that render as nothing, the combining grapheme joiner,
 *   and every other format (Cf) character;
 * - control characters (Cc: C0, DEL, C1 — tab and newline among them) and line or paragraph separators.
 *
 * Two names that differ only by such a character look the same; refusing them leaves one name per look. The price:
 * scripts that write U+200C/U+200D inside words (Persian, some Indic spellings) need the plain form in a name.
 */

export type DeceptiveKind = 'bidi control' | 'invisible character' | 'control character';

export interface DeceptiveCharacter {
  /** `U+202E`. */
  codePoint: string;
  kind: DeceptiveKind;
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const BIDI = new Set([0x061c, 0x200e, 0x200f, ...range(0x202a, 0x202e), ...range(0x2066, 0x2069)]);
/** Invisible, though not format characters: combining grapheme joiner, Hangul fillers, Khmer vowels, braille blank. */
const BLANK = new Set([0x034f, 0x115f, 0x1160, 0x17b4, 0x17b5, 0x2800, 0x3164, 0xffa0]);
const FORMAT = /^\p{Cf}$/u;
const CONTROL = /^\p{Cc}$/u;
const SEPARATORS = new Set([0x2028, 0x2029]);

function kindOf(char: string, codePoint: number): DeceptiveKind | null {
  if (BIDI.has(codePoint)) return 'bidi control';
  if (CONTROL.test(char) || SEPARATORS.has(codePoint)) return 'control character';
  if (FORMAT.test(char) || BLANK.has(codePoint)) return 'invisible character';
  return null;
}

/** The first character of `text` that deceives a reader (see above), or null when there is none. */
export function findDeceptiveCharacter(text: string): DeceptiveCharacter | null {
  for (const char of text) {
    const codePoint = char.codePointAt(0) ?? 0;
    const kind = kindOf(char, codePoint);
    if (kind) return { codePoint: `U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}`, kind };
  }
  return null;
}

/** True when `text` can be shown as a name: no bidi control, invisible or control character. */
export function isDisplaySafeText(text: string): boolean {
  return findDeceptiveCharacter(text) === null;
}

/** The refusal of a name, for an error body: `contains U+202E (a bidi control), which changes how it reads`. */
export function deceptiveTextMessage(found: DeceptiveCharacter): string {
  return `contains ${found.codePoint} (a ${found.kind}), which changes how it reads without being seen`;
}
