/** RFC 4648 §5 base64url without padding, and RFC 8785 (JCS) canonical JSON: MPP's wire encodings. */

export function base64UrlEncode(input: string | Uint8Array): string {
  const bytes = typeof input === 'string' ? Buffer.from(input, 'utf8') : Buffer.from(input);
  return bytes.toString('base64url');
}

/**
 * Strict decoder: Node's own decoder silently skips invalid characters, which would let two different
 * header values decode to the same credential. Trailing `=` padding is tolerated (liberal in what we accept).
 */
export function base64UrlDecode(input: string): Buffer {
  const unpadded = input.replace(/={1,2}$/, '');
  if (!/^[A-Za-z0-9_-]*$/.test(unpadded) || unpadded.length % 4 === 1) {
    throw new TypeError('not base64url');
  }
  return Buffer.from(unpadded, 'base64url');
}

/**
 * JCS for JSON data: keys sorted by UTF-16 code units (JS default sort), no whitespace, ES number and
 * string serialization (what JSON.stringify does). Undefined object members are dropped, as in JSON.
 */
export function jcsCanonicalize(value: unknown): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError('JCS cannot encode non-finite numbers');
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) {
    return `[${value.map((item) => (item === undefined ? 'null' : jcsCanonicalize(item))).join(',')}]`;
  }
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${jcsCanonicalize(v)}`).join(',')}}`;
  }
  throw new TypeError(`JCS cannot encode a ${typeof value}`);
}

/** base64url(JCS(value)): the form of `request` and `opaque`. */
export function encodeJcsBase64Url(value: unknown): string {
  return base64UrlEncode(jcsCanonicalize(value));
}

/** Inverse of encodeJcsBase64Url; throws TypeError on bad base64url or JSON. */
export function decodeBase64UrlJson(input: string): unknown {
  const text = base64UrlDecode(input).toString('utf8');
  try {
    return JSON.parse(text);
  } catch {
    throw new TypeError('not JSON');
  }
}
