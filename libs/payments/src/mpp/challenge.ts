import { createHmac, timingSafeEqual } from 'node:crypto';
import { formatAuthParam, parseWwwAuthenticate } from './auth-params';
import { decodeBase64UrlJson, encodeJcsBase64Url } from './encoding';

/** The `request` of MPP's `charge` intent with the `stripe` method (notes A3). */
export interface StripeChargeRequest {
  /** Integer minor units as a string: "1234" = 12.34. */
  amount: string;
  /** Lowercase ISO 4217. */
  currency: string;
  /** Our quoteId. */
  externalId?: string;
  description?: string;
  recipient?: string;
  methodDetails: {
    /** Stripe Business Network profile `profile_…`. */
    networkId: string;
    paymentMethodTypes: string[];
    metadata?: Record<string, string>;
  };
}

/** A challenge as sent in WWW-Authenticate and echoed in the credential; request/opaque stay base64url. */
export interface PaymentChallenge {
  id: string;
  realm: string;
  method: string;
  intent: string;
  request: string;
  expires?: string;
  digest?: string;
  opaque?: string;
  description?: string;
}

export interface CreateChallengeInput {
  /** ≥ 32 bytes. */
  secret: string;
  realm: string;
  method: 'stripe';
  intent: 'charge';
  request: StripeChargeRequest;
  expiresAt: Date;
  /** Human text only; it is not covered by the id and must never be trusted. */
  description?: string;
  /** Flat string map that must come back unchanged (we put the planId here). */
  opaque?: Record<string, string>;
  /** RFC 9530 digest of the request body (`sha-256=:<base64>:`), bound into the id when given. */
  digest?: string;
}

export const MIN_CHALLENGE_SECRET_BYTES = 32;

type BoundFields = Pick<PaymentChallenge, 'realm' | 'method' | 'intent' | 'request' | 'expires' | 'digest' | 'opaque'>;

/** id = base64url(HMAC-SHA256(secret, seven slots joined by "|")); a missing optional slot is "". */
export function computeChallengeId(secret: string, fields: BoundFields): string {
  const input = [
    fields.realm,
    fields.method,
    fields.intent,
    fields.request,
    fields.expires ?? '',
    fields.digest ?? '',
    fields.opaque ?? '',
  ].join('|');
  return createHmac('sha256', secret).update(input, 'utf8').digest('base64url');
}

export function createChallenge(input: CreateChallengeInput): PaymentChallenge {
  if (Buffer.byteLength(input.secret, 'utf8') < MIN_CHALLENGE_SECRET_BYTES) {
    throw new RangeError(`the challenge secret must be at least ${MIN_CHALLENGE_SECRET_BYTES} bytes`);
  }
  assertChargeRequest(input.request);
  if (!input.realm || /[|"\\]/.test(input.realm)) throw new TypeError('realm must be non-empty without | " \\');
  if (Number.isNaN(input.expiresAt.getTime())) throw new TypeError('expiresAt is not a valid date');

  const fields: BoundFields = {
    realm: input.realm,
    method: input.method,
    intent: input.intent,
    request: encodeJcsBase64Url(input.request),
    expires: input.expiresAt.toISOString(),
    ...(input.digest ? { digest: input.digest } : {}),
    ...(input.opaque ? { opaque: encodeJcsBase64Url(assertStringMap(input.opaque)) } : {}),
  };
  return {
    id: computeChallengeId(input.secret, fields),
    ...fields,
    ...(input.description ? { description: input.description } : {}),
  };
}

/** `Payment id="…", realm="…", method="…", intent="…", request="…", expires="…"[, digest][, opaque][, description]` */
export function formatWwwAuthenticate(challenge: PaymentChallenge): string {
  const order = ['id', 'realm', 'method', 'intent', 'request', 'expires', 'digest', 'opaque', 'description'] as const;
  const params = order.flatMap((name) => {
    const value = challenge[name];
    return value === undefined ? [] : [formatAuthParam(name, value)];
  });
  return `Payment ${params.join(', ')}`;
}

/** Client side (tests, tools): the Payment challenges of a WWW-Authenticate value. */
export function parsePaymentChallenges(header: string): PaymentChallenge[] {
  return parseWwwAuthenticate(header)
    .filter((c) => c.scheme.toLowerCase() === 'payment')
    .flatMap((c) => {
      const challenge = toChallenge(c.params);
      return challenge ? [challenge] : [];
    });
}

/**
 * Recomputes the id from the echoed values with each secret (current first, then previous ones kept until
 * their challenges have expired) and compares in constant time.
 */
export function verifyChallengeBinding(input: { secrets: readonly string[]; echoed: PaymentChallenge }): boolean {
  const { echoed } = input;
  const slots = [
    echoed.realm,
    echoed.method,
    echoed.intent,
    echoed.request,
    echoed.expires,
    echoed.digest,
    echoed.opaque,
  ];
  // A "|" inside a value could shift the slots and make two different challenges hash alike.
  if (slots.some((value) => value !== undefined && (typeof value !== 'string' || value.includes('|')))) return false;
  const given = Buffer.from(echoed.id, 'utf8');
  let matched = false;
  for (const secret of input.secrets) {
    const expected = Buffer.from(computeChallengeId(secret, echoed), 'utf8');
    if (expected.length === given.length && timingSafeEqual(expected, given)) matched = true;
  }
  return matched;
}

/** True when `expires` is unparseable or not after `now`; a challenge without `expires` never expires here. */
export function isChallengeExpired(challenge: Pick<PaymentChallenge, 'expires'>, now: Date): boolean {
  if (challenge.expires === undefined) return false;
  const expiresAt = Date.parse(challenge.expires);
  return Number.isNaN(expiresAt) || expiresAt <= now.getTime();
}

/** Decodes a `request` value; throws TypeError when it is not a valid stripe charge request. */
export function decodeRequest(request: string): StripeChargeRequest {
  const value = decodeBase64UrlJson(request);
  assertChargeRequest(value);
  return value;
}

/** Decodes an `opaque` value; throws TypeError unless it is a flat string map. */
export function decodeOpaque(opaque: string): Record<string, string> {
  return assertStringMap(decodeBase64UrlJson(opaque));
}

function assertChargeRequest(value: unknown): asserts value is StripeChargeRequest {
  const v = value as Partial<StripeChargeRequest> | null;
  if (!v || typeof v !== 'object') throw new TypeError('request must be an object');
  if (typeof v.amount !== 'string' || !/^(0|[1-9]\d*)$/.test(v.amount)) {
    throw new TypeError('request.amount must be a string of integer minor units');
  }
  if (typeof v.currency !== 'string' || !/^[a-z]{3}$/.test(v.currency)) {
    throw new TypeError('request.currency must be lowercase ISO 4217');
  }
  const details = v.methodDetails;
  if (!details || typeof details.networkId !== 'string' || details.networkId === '') {
    throw new TypeError('request.methodDetails.networkId is required for the stripe method');
  }
  const types = details.paymentMethodTypes;
  if (!Array.isArray(types) || types.length === 0 || types.some((t) => typeof t !== 'string')) {
    throw new TypeError('request.methodDetails.paymentMethodTypes must be a non-empty string array');
  }
}

function assertStringMap(value: unknown): Record<string, string> {
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new TypeError('expected a flat string map');
  for (const v of Object.values(value)) if (typeof v !== 'string') throw new TypeError('expected a flat string map');
  return value as Record<string, string>;
}

const REQUIRED = ['id', 'realm', 'method', 'intent', 'request'] as const;
const OPTIONAL = ['expires', 'digest', 'opaque', 'description'] as const;

/** Builds a PaymentChallenge from loose values; undefined when a required field is missing or not a string. */
export function toChallenge(values: Record<string, unknown>): PaymentChallenge | undefined {
  const out: Record<string, string> = {};
  for (const key of REQUIRED) {
    const value = values[key];
    if (typeof value !== 'string' || value === '') return undefined;
    out[key] = value;
  }
  for (const key of OPTIONAL) {
    const value = values[key];
    if (value === undefined) continue;
    if (typeof value !== 'string') return undefined;
    out[key] = value;
  }
  return out as unknown as PaymentChallenge;
}
