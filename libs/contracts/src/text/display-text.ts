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

const BIDI = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u;
const INVISIBLE = /[\p{Cf}\u034F\u115F\u1160\u17B4\u17B5\u2800\u3164\uFFA0]/u;
const CONTROL = /[\p{Cc}\u2028\u2029]/u;
const ANY = new RegExp(`${BIDI.source}|${INVISIBLE.source}|${CONTROL.source}`, 'u');

/** The first character of `text` that deceives a reader (see above), or null when there is none. */
export function findDeceptiveCharacter(text: string): DeceptiveCharacter | null {
  const match = ANY.exec(text);
  if (!match) return null;
  const char = match[0];
  const kind: DeceptiveKind = BIDI.test(char)
    ? 'bidi control'
    : CONTROL.test(char)
      ? 'control character'
      : 'invisible character';
  const codePoint = `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
  return { codePoint, kind };
}

/** True when `text` can be shown as a name: no bidi control, invisible or control character. */
export function isDisplaySafeText(text: string): boolean {
  return !ANY.test(text);
}

/** The refusal of a name, for an error body: `contains U+202E (a bidi control), which changes how it reads`. */
export function deceptiveTextMessage(found: DeceptiveCharacter): string {
  return `contains ${found.codePoint} (a ${found.kind}), which changes how it reads without being seen`;
}
