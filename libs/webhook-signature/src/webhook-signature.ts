import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Signs and verifies webhook bodies in Stripe's scheme: header `t=<unix>,v1=<hex>[,v1=<hex>…]`,
 * v1 = lowercase hex HMAC-SHA256(secret, `${t}.${rawBody}`). The same code checks our `X-SVC-Signature`
 * and Stripe's `Stripe-Signature`. Dependency-free on purpose: operators copy this file.
 */

export const DEFAULT_TOLERANCE_SEC = 300;

export type RawBody = string | Buffer | Uint8Array;

export type VerifyFailureReason =
  'missing_header' | 'malformed_header' | 'no_v1' | 'timestamp_out_of_tolerance' | 'signature_mismatch';

export type VerifyResult = { ok: true; timestamp: number } | { ok: false; reason: VerifyFailureReason };

export interface VerifySignatureInput {
  rawBody: RawBody;
  header: string | string[] | undefined | null;
  secrets: string | readonly string[];
  /** Maximum age (and maximum clock lead) of `t`, in seconds. Must be > 0: 0 would disable the replay check. */
  toleranceSec?: number;
  /** Current time in unix seconds; defaults to the system clock. */
  nowSec?: number;
}

export interface ParsedSignatureHeader {
  timestamp: number;
  v1: string[];
}

export function computeSignature(rawBody: RawBody, secret: string, timestampSec: number): string {
  return createHmac('sha256', secret)
    .update(`${timestampSec}.`, 'utf8')
    .update(typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : rawBody)
    .digest('hex');
}

/** Builds the header value; one v1 per secret so receivers holding either secret accept it during rotation. */
export function signPayload(rawBody: RawBody, secrets: string | readonly string[], timestampSec: number): string {
  if (!Number.isSafeInteger(timestampSec) || timestampSec < 0) {
    throw new RangeError('timestampSec must be a non-negative integer (unix seconds)');
  }
  const list = normalizeSecrets(secrets);
  const parts = list.map((secret) => `v1=${computeSignature(rawBody, secret, timestampSec)}`);
  return [`t=${timestampSec}`, ...parts].join(',');
}

/**
 * Splits on `,`, then on the first `=`. Keeps `t` and every `v1`; other schemes (v0, …) are ignored so a
 * weaker scheme can never be used to downgrade the check.
 */
export function parseSignatureHeader(header: string): ParsedSignatureHeader | 'malformed_header' | 'no_v1' {
  let timestamp: number | undefined;
  const v1: string[] = [];
  for (const rawPart of header.split(',')) {
    const part = rawPart.trim();
    const eq = part.indexOf('=');
    if (eq <= 0) return 'malformed_header';
    const key = part.slice(0, eq);
    const value = part.slice(eq + 1);
    if (key === 't') {
      if (timestamp !== undefined || !/^\d{1,15}$/.test(value)) return 'malformed_header';
      timestamp = Number(value);
    } else if (key === 'v1') {
      v1.push(value);
    }
  }
  if (timestamp === undefined) return 'malformed_header';
  if (v1.length === 0) return 'no_v1';
  return { timestamp, v1 };
}

export function verifySignature(input: VerifySignatureInput): VerifyResult {
  const toleranceSec = input.toleranceSec ?? DEFAULT_TOLERANCE_SEC;
  if (!(toleranceSec > 0) || !Number.isFinite(toleranceSec)) {
    throw new RangeError('toleranceSec must be a positive number of seconds');
  }
  const secrets = normalizeSecrets(input.secrets);
  const header = Array.isArray(input.header) ? input.header.join(',') : input.header;
  if (!header || header.trim() === '') return { ok: false, reason: 'missing_header' };

  const parsed = parseSignatureHeader(header);
  if (typeof parsed === 'string') return { ok: false, reason: parsed };

  if (!anySignatureMatches(input.rawBody, parsed, secrets)) return { ok: false, reason: 'signature_mismatch' };

  // Two-sided: a timestamp far in the future is as suspicious as an old one (unlike stripe-node).
  const nowSec = input.nowSec ?? Math.floor(Date.now() / 1000);
  if (Math.abs(nowSec - parsed.timestamp) > toleranceSec) {
    return { ok: false, reason: 'timestamp_out_of_tolerance' };
  }
  return { ok: true, timestamp: parsed.timestamp };
}

function anySignatureMatches(rawBody: RawBody, parsed: ParsedSignatureHeader, secrets: string[]): boolean {
  let matched = false;
  // No early exit: every comparison runs, so timing reveals nothing about which secret or v1 matched.
  for (const secret of secrets) {
    const expected = Buffer.from(computeSignature(rawBody, secret, parsed.timestamp), 'utf8');
    for (const candidate of parsed.v1) {
      const given = Buffer.from(candidate, 'utf8');
      if (given.length === expected.length && timingSafeEqual(given, expected)) matched = true;
    }
  }
  return matched;
}

function normalizeSecrets(secrets: string | readonly string[]): string[] {
  const list = typeof secrets === 'string' ? [secrets] : [...(secrets ?? [])];
  if (list.length === 0 || list.some((s) => typeof s !== 'string' || s.length === 0)) {
    throw new TypeError('at least one non-empty webhook secret is required');
  }
  return list;
}
