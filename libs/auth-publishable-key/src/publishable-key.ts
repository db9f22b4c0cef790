import { randomBytes as cryptoRandomBytes } from 'node:crypto';
import type { Mode } from '@expedition/contracts';

/** Source of randomness; injectable so tests can mint deterministic keys. */
export type RandomBytes = (size: number) => Uint8Array;

export interface ParsedPublishableKey {
  key: string;
  mode: Mode;
}

export const PUBLISHABLE_KEY_PREFIX = { test: 'pk_op_test_', live: 'pk_op_' } as const;

/** 24 random bytes = 48 lowercase hex chars, the spec's key body. */
export const PUBLISHABLE_KEY_BYTES = 24;

const TEST_PK = /^pk_op_test_[0-9a-f]{48}$/;
const LIVE_PK = /^pk_op_[0-9a-f]{48}$/;

export function mintPublishableKey(mode: Mode, randomBytes: RandomBytes = cryptoRandomBytes): string {
  return PUBLISHABLE_KEY_PREFIX[mode] + randomHex(PUBLISHABLE_KEY_BYTES, randomBytes);
}

/**
 * Strict format check. Anything that is not exactly a publishable key (wrong prefix, upper-case hex, wrong length,
 * surrounding whitespace, secret keys) is null, so garbage never reaches the key store.
 */
export function parsePublishableKey(input: unknown): ParsedPublishableKey | null {
  if (typeof input !== 'string') return null;
  if (TEST_PK.test(input)) return { key: input, mode: 'test' };
  if (LIVE_PK.test(input)) return { key: input, mode: 'live' };
  return null;
}

const KNOWN_PREFIXES = ['pk_op_test_', 'sk_op_test_', 'pk_op_', 'sk_op_'] as const;

/**
 * Log-safe form of anything presented as a key: recognised prefix + last 4 chars. Unrecognised input is reduced to
 * its length, because it may be a secret pasted in the wrong place.
 */
export function redactKey(input: string): string {
  const prefix = KNOWN_PREFIXES.find((p) => input.startsWith(p));
  if (!prefix || input.length < prefix.length + 8) return `<unrecognized key, ${input.length} chars>`;
  return `${prefix}…${input.slice(-4)}`;
}

export function randomHex(size: number, randomBytes: RandomBytes): string {
  const bytes = randomBytes(size);
  if (bytes.length !== size) throw new Error(`randomBytes returned ${bytes.length} bytes, expected ${size}`);
  return Buffer.from(bytes).toString('hex');
}
