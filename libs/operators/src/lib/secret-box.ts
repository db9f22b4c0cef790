import { createCipheriv, createDecipheriv, randomBytes as cryptoRandomBytes } from 'node:crypto';

/**
 * Envelope encryption of small secrets at rest (operators' webhook secrets), with node:crypto only.
 *
 * Each secret gets its own random data key (DEK); the secret is encrypted with the DEK (AES-256-GCM) and the DEK is
 * wrapped by a key-encryption key (KEK) from the keyring (AES-256-GCM, key id recorded). Stored as one string:
 *
 *     sbx1.<kid>.<wrapped DEK>.<iv>.<ciphertext + tag>        (parts base64url; the wrapped DEK carries its own iv+tag)
 *
 * Rotating the KEK re-wraps the DEK only (`rewrap`); the ciphertext of the secret never changes. The data is bound to
 * a context (the operator id), so a sealed value copied onto another row does not open there; the wrapped DEK is
 * bound to its key id.
 */
export const SEALED_PREFIX = 'sbx1';

const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_ID = /^[A-Za-z0-9_-]{1,40}$/;

export interface KeyEncryptionKey {
  /** Recorded in every value it seals, so the keyring can hold old keys during a rotation. */
  kid: string;
  /** 32 bytes. */
  key: Buffer;
}

/** The first key seals; every key opens. */
export type Keyring = readonly [KeyEncryptionKey, ...KeyEncryptionKey[]];

export type SecretBoxErrorCode = 'malformed' | 'unknown_key' | 'tampered';

/** Never carries the secret or key material: safe to log and to record as a delivery error. */
export class SecretBoxError extends Error {
  override readonly name = 'SecretBoxError';
  constructor(
    readonly code: SecretBoxErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export interface SecretBox {
  /** The key id new values are sealed under. */
  readonly currentKeyId: string;
  seal(plain: string, context: string): string;
  /** The plain secret. A value without the `sbx1.` prefix is a legacy plain value stored before sealing: returned as is. */
  open(stored: string, context: string): string;
  /** Re-wraps the data key under the current KEK (the secret's ciphertext is kept); seals a legacy plain value. */
  rewrap(stored: string, context: string): string;
  /** Sealed, under the current KEK: nothing for rewrap to do. */
  isCurrent(stored: string): boolean;
}

export function isSealed(stored: string): boolean {
  return stored.startsWith(`${SEALED_PREFIX}.`);
}

type RandomBytes = (size: number) => Uint8Array;

export function createSecretBox(keyring: Keyring, randomBytes: RandomBytes = cryptoRandomBytes): SecretBox {
  validateKeyring(keyring);
  const current = keyring[0];
  const byId = new Map(keyring.map((k) => [k.kid, k.key]));
  const random = (size: number) => Buffer.from(randomBytes(size));

  function kekFor(kid: string): Buffer {
    const key = byId.get(kid);
    if (!key) throw new SecretBoxError('unknown_key', `sealed with key id "${kid}", which is not in the keyring`);
    return key;
  }

  function wrap(dek: Buffer, kek: KeyEncryptionKey): string {
    const iv = random(IV_BYTES);
    const { ciphertext, tag } = encrypt(kek.key, iv, dek, wrapAad(kek.kid));
    return b64(Buffer.concat([iv, ciphertext, tag]));
  }

  function unwrap(parts: SealedParts): Buffer {
    const blob = unb64(parts.wrappedDek);
    if (blob.length !== IV_BYTES + KEY_BYTES + TAG_BYTES) throw malformed('wrapped data key has the wrong length');
    const iv = blob.subarray(0, IV_BYTES);
    const ciphertext = blob.subarray(IV_BYTES, IV_BYTES + KEY_BYTES);
    const tag = blob.subarray(IV_BYTES + KEY_BYTES);
    return decrypt(kekFor(parts.kid), iv, ciphertext, tag, wrapAad(parts.kid));
  }

  function seal(plain: string, context: string): string {
    const dek = random(KEY_BYTES);
    const iv = random(IV_BYTES);
    const { ciphertext, tag } = encrypt(dek, iv, Buffer.from(plain, 'utf8'), dataAad(context));
    return [SEALED_PREFIX, current.kid, wrap(dek, current), b64(iv), b64(Buffer.concat([ciphertext, tag]))].join('.');
  }

  function openParts(parts: SealedParts, context: string): string {
    const dek = unwrap(parts);
    const iv = unb64(parts.iv);
    const sealed = unb64(parts.ciphertext);
    if (iv.length !== IV_BYTES || sealed.length < TAG_BYTES) throw malformed('iv or ciphertext has the wrong length');
    const plain = decrypt(dek, iv, sealed.subarray(0, -TAG_BYTES), sealed.subarray(-TAG_BYTES), dataAad(context));
    return plain.toString('utf8');
  }

  function open(stored: string, context: string): string {
    if (!isSealed(stored)) return stored;
    return openParts(parse(stored), context);
  }

  function rewrap(stored: string, context: string): string {
    if (!isSealed(stored)) return seal(stored, context);
    const parts = parse(stored);
    // Opened in full first: a tampered value is refused here rather than carried forward under the new key.
    openParts(parts, context);
    return [SEALED_PREFIX, current.kid, wrap(unwrap(parts), current), parts.iv, parts.ciphertext].join('.');
  }

  function isCurrent(stored: string): boolean {
    return isSealed(stored) && stored.split('.')[1] === current.kid;
  }

  return { currentKeyId: current.kid, seal, open, rewrap, isCurrent };
}

interface SealedParts {
  kid: string;
  wrappedDek: string;
  iv: string;
  ciphertext: string;
}

function parse(stored: string): SealedParts {
  const parts = stored.split('.');
  const [prefix, kid, wrappedDek, iv, ciphertext] = parts;
  if (parts.length !== 5 || prefix !== SEALED_PREFIX || !kid || !wrappedDek || !iv || !ciphertext) {
    throw malformed(`expected ${SEALED_PREFIX}.<kid>.<wrapped key>.<iv>.<ciphertext>`);
  }
  return { kid, wrappedDek, iv, ciphertext };
}

function validateKeyring(keyring: Keyring): void {
  if (keyring.length === 0) throw new RangeError('the keyring needs at least one key');
  const seen = new Set<string>();
  for (const { kid, key } of keyring) {
    if (!KEY_ID.test(kid)) throw new RangeError(`key id "${kid}" must be 1–40 of A-Z a-z 0-9 _ -`);
    if (key.length !== KEY_BYTES) throw new RangeError(`key "${kid}" must be ${KEY_BYTES} bytes`);
    if (seen.has(kid)) throw new RangeError(`key id "${kid}" appears twice`);
    seen.add(kid);
  }
}

const wrapAad = (kid: string) => Buffer.from(`${SEALED_PREFIX}.wrap.${kid}`, 'utf8');
const dataAad = (context: string) => Buffer.from(`${SEALED_PREFIX}.data.${context}`, 'utf8');
const b64 = (bytes: Buffer) => bytes.toString('base64url');

function unb64(part: string): Buffer {
  if (!/^[A-Za-z0-9_-]+$/.test(part)) throw malformed('a part is not base64url');
  return Buffer.from(part, 'base64url');
}

const malformed = (why: string) => new SecretBoxError('malformed', `sealed secret is malformed: ${why}`);

function encrypt(key: Buffer, iv: Buffer, plain: Buffer, aad: Buffer): { ciphertext: Buffer; tag: Buffer } {
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(aad);
  const ciphertext = Buffer.concat([cipher.update(plain), cipher.final()]);
  return { ciphertext, tag: cipher.getAuthTag() };
}

function decrypt(key: Buffer, iv: Buffer, ciphertext: Buffer, tag: Buffer, aad: Buffer): Buffer {
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(aad);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(ciphertext), decipher.final()]);
  } catch {
    throw new SecretBoxError(
      'tampered',
      'sealed secret failed authentication (altered, copied from another operator, or a wrong key)',
    );
  }
}

/** The context an agent platform's webhook secret (agent_keys.webhook_secret) is sealed under: its key id. */
export function agentKeySecretContext(agentKeyId: string): string {
  return `agent-key:${agentKeyId}`;
}
