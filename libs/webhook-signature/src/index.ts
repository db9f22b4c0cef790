export { signPayload, verifySignature } from './webhook-signature';
export { canonicalJson, parseSigningPublicKey, signingInput, verifyRequestSignature } from './acp-request-signature';
