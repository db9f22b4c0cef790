import { generateKeyPairSync, sign } from 'node:crypto';
import {
  HIGH_S_MESSAGE,
  isLowS,
  parseSigningPublicKey,
  signingInput,
  verifyRequestSignature,
} from './acp-request-signature';

/** ACP request signatures (docs/acp.md, "Request signatures"): ES256 low-S only, and what a verdict identifies. */

const P256_ORDER = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n;
const es256 = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const parsed = parseSigningPublicKey(es256.publicKey.export({ type: 'spki', format: 'pem' }).toString());
if ('error' in parsed) throw new Error(parsed.error);
const key = parsed;

const now = new Date('2026-04-17T10:30:00Z');
const request = { timestamp: now.toISOString(), method: 'POST', path: '/acp/v1/checkout_sessions', body: { a: 1 } };

/** (r, s) → (r, n − s): the other signature ECDSA accepts for the same bytes. */
function twin(signature: Buffer): Buffer {
  const s = BigInt(`0x${signature.subarray(32).toString('hex')}`);
  return Buffer.concat([
    signature.subarray(0, 32),
    Buffer.from((P256_ORDER - s).toString(16).padStart(64, '0'), 'hex'),
  ]);
}

/** An ES256 signature of the request in its low-S form, as docs/acp.md asks platforms to send. */
function signLowS(r = request): Buffer {
  const signature = sign('sha256', signingInput(r), { key: es256.privateKey, dsaEncoding: 'ieee-p1363' });
  return isLowS(signature) ? signature : twin(signature);
}

function verdict(signature: Buffer, r = request) {
  return verifyRequestSignature(key, { ...r, signature: signature.toString('base64url'), now });
}

describe('verifyRequestSignature, ES256', () => {
  it('accepts a low-S signature and refuses its high-S twin (r, n − s) with the documented message', () => {
    const low = signLowS();
    expect(verdict(low)).toMatchObject({ ok: true });
    expect(isLowS(twin(low))).toBe(false);
    expect(verdict(twin(low))).toEqual({ ok: false, message: HIGH_S_MESSAGE });
  });

  it('still says "verification failed" for a high-S signature of other bytes', () => {
    const other = twin(signLowS({ ...request, body: { a: 2 } }));
    expect(verdict(other)).toEqual({ ok: false, message: 'Signature verification failed' });
  });

  it('identifies the request by its signed bytes: two signatures of one request give one digest, another body another', () => {
    const first = verdict(signLowS());
    const second = verdict(signLowS());
    const other = verdict(signLowS({ ...request, body: { a: 2 } }), { ...request, body: { a: 2 } });
    expect(first.ok && second.ok && other.ok).toBe(true);
    if (!first.ok || !second.ok || !other.ok) return;
    expect(first.digest).toBe(second.digest);
    expect(other.digest).not.toBe(first.digest);
    expect(first.expiresAt).toEqual(new Date(now.getTime() + 300_000));
  });
});

describe('isLowS', () => {
  it('takes s = n/2 (rounded down) and refuses s = n/2 + 1 and any length but 64 bytes', () => {
    const r = Buffer.alloc(32, 1);
    const half = P256_ORDER >> 1n;
    const withS = (s: bigint) => Buffer.concat([r, Buffer.from(s.toString(16).padStart(64, '0'), 'hex')]);
    expect(isLowS(withS(half))).toBe(true);
    expect(isLowS(withS(half + 1n))).toBe(false);
    expect(isLowS(withS(1n).subarray(0, 63))).toBe(false);
  });
});
