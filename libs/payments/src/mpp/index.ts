export { base64UrlDecode, base64UrlEncode, decodeBase64UrlJson, encodeJcsBase64Url, jcsCanonicalize } from './encoding';
export { formatAuthParam, parseWwwAuthenticate, type ParsedAuthChallenge } from './auth-params';
export {
  MIN_CHALLENGE_SECRET_BYTES,
  computeChallengeId,
  createChallenge,
  decodeOpaque,
  decodeRequest,
  formatWwwAuthenticate,
  isChallengeExpired,
  parsePaymentChallenges,
  toChallenge,
  verifyChallengeBinding,
  type CreateChallengeInput,
  type PaymentChallenge,
  type StripeChargeRequest,
} from './challenge';
export {
  formatAuthorizationPayment,
  parseAuthorizationPayment,
  type ParseCredentialResult,
  type PaymentCredential,
  type PaymentCredentialPayload,
} from './credential';
export {
  formatPaymentReceipt,
  parsePaymentReceipt,
  type FormatPaymentReceiptInput,
  type PaymentReceipt,
} from './receipt';
export {
  MPP_PROBLEM_STATUS,
  PROBLEM_CONTENT_TYPE,
  PROBLEM_TYPE_BASE,
  problemDetails,
  type MppProblemCode,
  type ProblemDetails,
} from './problem';
export { digestBody } from './digest';
