import { toChallenge, type PaymentChallenge } from './challenge';
import { decodeBase64UrlJson, encodeJcsBase64Url } from './encoding';

export interface PaymentCredentialPayload {
  /** Shared Payment Token; guaranteed non-empty when challenge.method is `stripe`. Never log it. */
  spt?: string;
  externalId?: string;
  [key: string]: unknown;
}

export interface PaymentCredential {
  challenge: PaymentChallenge;
  /** Payer identifier (a DID is recommended); informational. */
  source?: string;
  payload: PaymentCredentialPayload;
}

export type ParseCredentialResult =
  { ok: true; credential: PaymentCredential } | { ok: false; code: 'payment-required' | 'malformed-credential' };

/**
 * Reads `Authorization: Payment <base64url JSON>`. No header or another scheme → payment-required;
 * anything undecodable or missing required fields → malformed-credential. Method support, binding and
 * expiry are the caller's next checks (notes A8), so an unknown method still parses.
 */
export function parseAuthorizationPayment(headerValue: string | undefined | null): ParseCredentialResult {
  const match = /^\s*([!#$%&'*+.^_`|~0-9A-Za-z-]+)(?:\s+(.*?))?\s*$/s.exec(headerValue ?? '');
  if (!match || match[1]?.toLowerCase() !== 'payment') return { ok: false, code: 'payment-required' };
  const token = match[2];
  if (!token) return { ok: false, code: 'malformed-credential' };

  let decoded: unknown;
  try {
    decoded = decodeBase64UrlJson(token);
  } catch {
    return { ok: false, code: 'malformed-credential' };
  }
  const credential = toCredential(decoded);
  return credential ? { ok: true, credential } : { ok: false, code: 'malformed-credential' };
}

/** Client side (tests, tools): the Authorization header value for a credential. */
export function formatAuthorizationPayment(credential: PaymentCredential): string {
  return `Payment ${encodeJcsBase64Url(credential)}`;
}

function toCredential(value: unknown): PaymentCredential | undefined {
  if (!isObject(value) || !isObject(value['challenge']) || !isObject(value['payload'])) return undefined;
  const challenge = toChallenge(value['challenge']);
  if (!challenge) return undefined;
  const payload = value['payload'] as PaymentCredentialPayload;
  if (challenge.method === 'stripe' && (typeof payload.spt !== 'string' || payload.spt === '')) return undefined;
  if (payload.externalId !== undefined && typeof payload.externalId !== 'string') return undefined;
  const source = value['source'];
  if (source !== undefined && typeof source !== 'string') return undefined;
  return { challenge, payload, ...(source !== undefined ? { source } : {}) };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
