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
export {
  SIGNATURE_ALGORITHMS,
  SIGNATURE_TOLERANCE_SEC,
  canonicalJson,
  parseSigningPublicKey,
  signingInput,
  verifyRequestSignature,
} from './acp-request-signature';
export type { SignatureAlgorithm, SignatureVerdict } from './acp-request-signature';
