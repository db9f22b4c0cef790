export {
  DEFAULT_TOLERANCE_SEC,
  computeSignature,
  parseSignatureHeader,
  signPayload,
  verifySignature,
} from './webhook-signature';
export type {
  ParsedSignatureHeader,
  RawBody,
  VerifyFailureReason,
  VerifyResult,
  VerifySignatureInput,
} from './webhook-signature';
