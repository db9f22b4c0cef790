import { createHash, createPublicKey, verify, type KeyObject } from 'node:crypto';

/**
 * ACP request signatures (RFC agentic checkout §3.1, §7: `Signature: <base64url>` over the request's canonical JSON,
 * with `Timestamp: <RFC 3339>`; the algorithms are the seller's to publish). Ours, published in the repository's docs/acp.md,
 * "Request signatures". Verified by quote-api's /acp/v1; keys are parsed by the admin CLI when registered:
 *
 *   signed bytes = UTF-8 of  Timestamp + "\n" + METHOD + "\n" + path + "\n" + canonical JSON of the body
 *
 * `path` is the request path as sent, from `/acp/v1` on, with its query; the body's canonical JSON is RFC 8785 (JCS:
 * keys sorted, no whitespace), nothing for a request without a body (GET). Algorithms: Ed25519, and ES256 (ECDSA
 * P-256 with SHA-256, the 64-byte r‖s form, low-S only: see `isLowS`). The timestamp must be within ±300 s of our clock.
 */

export const SIGNATURE_ALGORITHMS = ['ed25519', 'es256'] as const;
export type SignatureAlgorithm = (typeof SIGNATURE_ALGORITHMS)[number];

/** Accepted distance between `Timestamp` and our clock (the protocol's webhooks recommend the same 300 s). */
export const SIGNATURE_TOLERANCE_SEC = 300;

/** RFC 3339 date-time (a `Z` or numeric offset, optional fraction). */
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;
const BASE64URL = /^[A-Za-z0-9_-]{16,200}={0,2}$/;

/** RFC 8785 canonical JSON for the values JSON.parse makes (keys sorted by UTF-16 code units, ES number form). */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The bytes a platform signs for one request. */
export function signingInput(r: { timestamp: string; method: string; path: string; body: unknown }): Buffer {
  const body = r.body === undefined ? '' : canonicalJson(r.body);
  return Buffer.from(`${r.timestamp}\n${r.method.toUpperCase()}\n${r.path}\n${body}`, 'utf8');
}

/** A public key given as PEM (SPKI) or as a JWK (JSON text) → its SPKI PEM and algorithm, or why it is refused. */
export function parseSigningPublicKey(
  text: string,
): { pem: string; algorithm: SignatureAlgorithm } | { error: string } {
  const trimmed = text.trim();
  let key: KeyObject;
  try {
    const jwk = trimmed.startsWith('{') ? (JSON.parse(trimmed) as Record<string, unknown>) : undefined;
    // createPublicKey would derive the public half of a private key: refuse one outright (it must not travel here).
    if (jwk ? 'd' in jwk : /PRIVATE KEY/.test(trimmed))
      return { error: 'that is a private key: register the public key only' };
    key = jwk ? createPublicKey({ key: jwk, format: 'jwk' }) : createPublicKey(trimmed);
  } catch {
    return { error: 'not a public key: give a PEM (-----BEGIN PUBLIC KEY-----) or a JWK' };
  }
  const algorithm =
    key.asymmetricKeyType === 'ed25519'
      ? 'ed25519'
      : key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1'
        ? 'es256'
        : undefined;
  if (!algorithm)
    return { error: `unsupported key type ${key.asymmetricKeyType ?? '?'}: use Ed25519 or ECDSA P-256 (ES256)` };
  return { pem: key.export({ type: 'spki', format: 'pem' }).toString(), algorithm };
}

/** The order of P-256's base point; an ES256 `s` above half of it is refused (`isLowS`). */
const P256_ORDER = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n;

/** The message that refuses a high-S ES256 signature (docs/acp.md, "Request signatures"). */
export const HIGH_S_MESSAGE = 'ES256 signature must be low-S (s ≤ n/2): replace s by n − s after signing';

/**
 * ECDSA is malleable: when (r, s) verifies, so does (r, n − s), which anyone can compute from a captured request
 * without the private key. Accepting only the half with s ≤ n/2 (as Bitcoin's BIP 62 and libsecp256k1 do) leaves one
 * valid encoding per signature the platform made, so no third party can present "another" signature of a request.
 * The replay rule (one signed request, one Idempotency-Key) keys on the signed bytes and does not rely on it.
 */
export function isLowS(signature: Buffer): boolean {
  if (signature.length !== 64) return false;
  const s = BigInt(`0x${signature.subarray(32).toString('hex')}`);
  return s <= P256_ORDER >> 1n;
}

/**
 * `digest`: sha256 hex of the signed bytes, which identify the request (the signature itself does not: ES256 signs
 * the same bytes differently each time); `expiresAt`: the instant after which the same Timestamp is stale.
 */
export type SignatureVerdict = { ok: true; digest: string; expiresAt: Date } | { ok: false; message: string };

/** Checks one request against the platform's registered key. */
export function verifyRequestSignature(
  key: { pem: string; algorithm: string },
  r: {
    signature: string | undefined;
    timestamp: string | undefined;
    method: string;
    path: string;
    body: unknown;
    now: Date;
  },
): SignatureVerdict {
  if (!r.signature || !r.timestamp)
    return {
      ok: false,
      message: 'This agent key signs its requests: the Signature and Timestamp headers are required',
    };
  if (!RFC3339.test(r.timestamp) || Number.isNaN(Date.parse(r.timestamp)))
    return { ok: false, message: 'Timestamp must be an RFC 3339 date-time, e.g. 2026-04-17T10:30:00Z' };
  if (Math.abs(r.now.getTime() - Date.parse(r.timestamp)) > SIGNATURE_TOLERANCE_SEC * 1000) {
    return {
      ok: false,
      message: `Timestamp outside the allowed window (±${SIGNATURE_TOLERANCE_SEC} s of the server's clock)`,
    };
  }
  if (!BASE64URL.test(r.signature)) return { ok: false, message: 'Signature must be base64url' };
  const signature = Buffer.from(r.signature.replace(/=+$/, ''), 'base64url');
  const data = signingInput({ timestamp: r.timestamp, method: r.method, path: r.path, body: r.body });
  let valid = false;
  try {
    valid =
      key.algorithm === 'ed25519'
        ? verify(null, data, key.pem, signature)
        : verify('sha256', data, { key: key.pem, dsaEncoding: 'ieee-p1363' }, signature);
  } catch {
    valid = false;
  }
  if (!valid) return { ok: false, message: 'Signature verification failed' };
  // Checked after verifying, so a wrong key or wrong bytes is still told as such.
  if (key.algorithm === 'es256' && !isLowS(signature)) return { ok: false, message: HIGH_S_MESSAGE };
  return {
    ok: true,
    digest: createHash('sha256').update(data).digest('hex'),
    expiresAt: new Date(Date.parse(r.timestamp) + SIGNATURE_TOLERANCE_SEC * 1000),
  };
}
