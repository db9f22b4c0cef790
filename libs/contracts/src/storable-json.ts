/** Deepest nesting of objects and arrays a JSON request body may have (the body itself is level 1). */
export const JSON_MAX_DEPTH = 32;

/** Where a parsed JSON body holds something the services refuse, and why (`path` is dotted, e.g. `guestNames.1`). */
export interface UnstorableJson {
  path: string;
  message: string;
}

const NUL = '\u0000';
/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, 'g');

/** PostgreSQL text cannot hold NUL, and UTF-8 cannot encode an unpaired UTF-16 surrogate: such a string is refused. */
export function isStorableString(value: string): boolean {
  return !value.includes(NUL) && !LONE_SURROGATE.test(value);
}

/**
 * The first place in a parsed JSON value (object keys included) holding a string PostgreSQL cannot store, or nesting
 * deeper than `maxDepth`; null when there is none. Run right after JSON parsing, so no such value reaches a service
 * and no request half-writes before the database refuses it.
 */
export function findUnstorableJson(value: unknown, maxDepth: number = JSON_MAX_DEPTH): UnstorableJson | null {
  return walk(value, [], maxDepth);
}

function walk(value: unknown, path: string[], maxDepth: number): UnstorableJson | null {
  if (typeof value === 'string') {
    return isStorableString(value)
      ? null
      : found(path, 'contains NUL or an unpaired surrogate, which cannot be stored');
  }
  if (value === null || typeof value !== 'object') return null;
  if (path.length >= maxDepth) return found(path, `nests deeper than ${maxDepth} levels`);
  const entries: [string, unknown][] = Array.isArray(value)
    ? value.map((item, i) => [String(i), item])
    : Object.entries(value);
  for (const [key, item] of entries) {
    if (!isStorableString(key)) return found([...path, key], 'is a key with NUL or an unpaired surrogate');
    const inner = walk(item, [...path, key], maxDepth);
    if (inner) return inner;
  }
  return null;
}

function found(path: string[], message: string): UnstorableJson {
  // The path is echoed in the error body and logs: render the refused characters harmlessly.
  const printable = path.map((key) => key.split(NUL).join('\uFFFD').replace(LONE_SURROGATES, '\uFFFD'));
  return { path: printable.length ? printable.join('.') : '(body)', message };
}
