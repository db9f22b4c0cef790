import { randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

/** @node-rs/argon2's `Algorithm.Argon2id` (an ambient const enum, which isolatedModules cannot read). */
const ARGON2ID = 2;
/** OWASP's argon2id baseline (m = 19 MiB, t = 2, p = 1). */
const ARGON2_OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const PASSWORD_MIN_LENGTH = 12;
/** Long enough for any passphrase, short enough that hashing stays cheap to refuse. */
export const PASSWORD_MAX_LENGTH = 256;

/**
 * The most common passwords of 12 characters or more (breach corpora): refused outright. A small list on purpose: the
 * length rule does most of the work, this catches the obvious picks.
 */
const COMMON_PASSWORDS = new Set([
  '123456789012',
  '1234567890123',
  '12345678901234',
  '123456789abc',
  '1q2w3e4r5t6y',
  '1qaz2wsx3edc',
  'aaaaaaaaaaaa',
  'abc123456789',
  'abcdefghijkl',
  'administrator',
  'changeme1234',
  'iloveyou1234',
  'letmein12345',
  'password1234',
  'password12345',
  'password123!',
  'passw0rd1234',
  'p@ssw0rd1234',
  'qwerty123456',
  'qwertyuiopas',
  'qwertyuiop12',
  'qwertyuiop123',
  'welcome12345',
  'welcome123456',
  'football1234',
  'baseball1234',
  'sunshine1234',
  'trustno11234',
  'superman1234',
  'monkey123456',
  'dragon123456',
  'master123456',
  'princess1234',
  'expedition12',
  'expedition123',
  'expedition2026',
  'correcthorsebatterystaple',
]);

/** Why a new password is refused, or null when it is acceptable. */
export function passwordProblem(password: unknown, context: { email?: string } = {}): string | null {
  if (typeof password !== 'string') return 'password is required';
  if ([...password].length < PASSWORD_MIN_LENGTH) return `password must be at least ${PASSWORD_MIN_LENGTH} characters`;
  if (password.length > PASSWORD_MAX_LENGTH) return `password must be at most ${PASSWORD_MAX_LENGTH} characters`;
  const lowered = password.toLowerCase();
  if (COMMON_PASSWORDS.has(lowered)) return 'this password is too common; choose another';
  if (/^(.)\1+$/.test(password)) return 'this password is too easy to guess; choose another';
  if (context.email && lowered.includes(context.email.toLowerCase())) return 'the password may not contain your e-mail address';
  return null;
}

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

/** False for a wrong password AND for a malformed stored hash (never throws on bad input). */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  if (typeof password !== 'string' || password.length > PASSWORD_MAX_LENGTH) return false;
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;

/**
 * Spends the same time as a real verification, for an unknown e-mail address: log-in answers then take as long for an
 * unknown account as for a wrong password (no account enumeration by timing).
 */
export async function verifyDummyPassword(password: string): Promise<false> {
  dummyHash ??= hashPassword(randomBytes(24).toString('base64url'));
  await verifyPassword(await dummyHash, typeof password === 'string' ? password : '');
  return false;
}

/** A strong random password for generated accounts (provider admin, demo owner): 24 base64url characters. */
export function generatePassword(): string {
  return randomBytes(18).toString('base64url');
}
