export type MppProblemCode =
  | 'payment-required'
  | 'malformed-credential'
  | 'invalid-challenge'
  | 'verification-failed'
  | 'payment-insufficient'
  | 'payment-expired'
  | 'method-unsupported';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';
export const PROBLEM_TYPE_BASE = 'https://paymentauth.org/problems/';

/** HTTP status per code (notes A6): everything is 402 except an unsupported method/intent (400). */
export const MPP_PROBLEM_STATUS: Readonly<Record<MppProblemCode, 402 | 400>> = {
  'payment-required': 402,
  'malformed-credential': 402,
  'invalid-challenge': 402,
  'verification-failed': 402,
  'payment-insufficient': 402,
  'payment-expired': 402,
  'method-unsupported': 400,
};

const TITLES: Record<MppProblemCode, string> = {
  'payment-required': 'Payment Required',
  'malformed-credential': 'Malformed Credential',
  'invalid-challenge': 'Invalid Challenge',
  'verification-failed': 'Verification Failed',
  'payment-insufficient': 'Payment Insufficient',
  'payment-expired': 'Payment Expired',
  'method-unsupported': 'Method Unsupported',
};

const DETAILS: Record<MppProblemCode, string> = {
  'payment-required': 'This request requires payment.',
  'malformed-credential': 'The payment credential could not be decoded.',
  'invalid-challenge': 'The payment challenge is unknown, altered, already used, or does not match this request.',
  'verification-failed': 'The payment could not be completed.',
  'payment-insufficient': 'The amount authorized is lower than the price.',
  'payment-expired': 'The payment challenge has expired.',
  'method-unsupported': 'The payment method or intent is not offered for this resource.',
};

export interface ProblemDetails {
  type: string;
  title: string;
  status: 402 | 400;
  detail: string;
  challengeId?: string;
}

/** RFC 9457 body; send it with Content-Type application/problem+json. */
export function problemDetails(
  code: MppProblemCode,
  options: { detail?: string; challengeId?: string } = {},
): ProblemDetails {
  return {
    type: `${PROBLEM_TYPE_BASE}${code}`,
    title: TITLES[code],
    status: MPP_PROBLEM_STATUS[code],
    detail: options.detail ?? DETAILS[code],
    ...(options.challengeId !== undefined ? { challengeId: options.challengeId } : {}),
  };
}
