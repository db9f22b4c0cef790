export { signPayload, verifySignature } from './webhook-signature';
export {
  HIGH_S_MESSAGE,
  canonicalJson,
  isLowS,
  parseSigningPublicKey,
  signingInput,
  verifyRequestSignature,
} from './acp-request-signature';
