import { createHash, randomBytes as cryptoRandomBytes, timingSafeEqual } from 'node:crypto';
import type { Mode } from '@expedition/contracts';
import { type RandomBytes, randomHex } from './publishable-key';

export interface MintedSecretKey {
  /** The full key: shown to the operator once, never stored. */
  key: string;
  /** sha256 hex of `key`: the only form that is stored. */
  hash: string;
  /** Display form for listings, e.g. `sk_op_test_1a2b3c4d…`; not enough to use the key. */
  prefix: string;
}

export const SECRET_KEY_PREFIX = { test: 'sk_op_test_', live: 'sk_op_' } as const;

/** 32 random bytes = 64 hex chars: longer than publishable keys because these are real secrets. */
export const SECRET_KEY_BYTES = 32;

const SECRET_KEY = /^sk_op_(?:test_)?[0-9a-f]{64}$/;
const DISPLAY_HEX_CHARS = 8;

export function mintSecretKey(mode: Mode, randomBytes: RandomBytes = cryptoRandomBytes): MintedSecretKey {
  const body = randomHex(SECRET_KEY_BYTES, randomBytes);
  const key = SECRET_KEY_PREFIX[mode] + body;
  return { key, hash: hashSecretKey(key), prefix: `${SECRET_KEY_PREFIX[mode]}${body.slice(0, DISPLAY_HEX_CHARS)}…` };
}

export function hashSecretKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** Constant-time comparison of a presented secret key with a stored hash. */
export function secretKeyMatchesHash(key: string, storedHash: string): boolean {
  const presented = Buffer.from(hashSecretKey(key), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return stored.length === presented.length && timingSafeEqual(presented, stored);
}

export function isSecretKeyFormat(input: unknown): boolean {
  return typeof input === 'string' && SECRET_KEY.test(input);
}
