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
 * zxcvbn-ts with its common and English dictionaries (about 236,000 entries: 49,233 breached passwords, 7,776 diceware
 * words, English words, names and Wikipedia terms) plus its keyboard, repeat, sequence and date patterns, and the
 * words of this site and this person (PASSWORD_PRODUCT_WORDS, the operator's and the user's names, the address). A new
 * password must be estimated at 10^10 guesses or more (zxcvbn score 4, "strong protection from an offline attack on a
 * slow hash"): a season or word with a year and symbols (`Summer2023!!`, 10^8) is below it. docs/portal.md, Passwords.
 */
export const MIN_PASSWORD_SCORE = 4;

/**
 * The words of our own product and trade: a password built from them is among the first an attacker of this site
 * tries (zxcvbn's "user inputs", matched like a dictionary, also reversed and in l33t).
 */
export const PASSWORD_PRODUCT_WORDS = [
  'expedition',
  'expeditions',
  'antarctica',
  'antarctic',
  'arctic',
  'polar',
  'svalbard',
  'galapagos',
  'greenland',
  'patagonia',
  'safari',
  'insurance',
  'travel',
  'traveler',
  'cruise',
  'voyage',
  'operator',
  'portal',
  'widget',
] as const;

/**
 * Passwords published as examples (XKCD 936's two, the best-known): in every cracking list, though zxcvbn's own
 * dictionaries would score them 4.
 */
const PUBLISHED_EXAMPLES = ['correcthorsebatterystaple', 'tr0ub4dor&3', 'troubador'];

type Feedback = { warning: string | null; suggestions: string[] };
type Zxcvbn = { check(password: string, userInputs?: string[]): { score: number; feedback: Feedback } };
let zxcvbn: Zxcvbn | undefined;

/**
 * Built at the first password check, not at import: the dictionaries take about 0.6 s and 40 MB of heap to load, and
 * most importers of this lib (quote-api, the CLI) never check a new password. Server-side only: the portal's browser
 * code never loads it.
 */
function passwordEstimator(): Zxcvbn {
  if (zxcvbn) return zxcvbn;
  const { ZxcvbnFactory } = require('@zxcvbn-ts/core') as typeof import('@zxcvbn-ts/core');
  const common = require('@zxcvbn-ts/language-common') as typeof import('@zxcvbn-ts/language-common');
  const en = require('@zxcvbn-ts/language-en') as typeof import('@zxcvbn-ts/language-en');
  zxcvbn = new ZxcvbnFactory({
    dictionary: { ...common.dictionary, ...en.dictionary, publishedExamples: PUBLISHED_EXAMPLES },
    graphs: common.adjacencyGraphs,
    translations: {
      ...en.translations,
      // Said the way a person asked for a portal password understands it; the advice is ours (several unrelated
      // words), so zxcvbn's hints towards capitals, which a longer phrase does not need, are not given.
      warnings: {
        ...en.translations.warnings,
        userInputs: 'It contains your name, your e-mail address, your company name or a word of our product.',
      },
      suggestions: { ...en.translations.suggestions, allUppercase: '', capitalization: '' },
    },
    maxLength: PASSWORD_MAX_LENGTH,
  });
  return zxcvbn;
}

/**
 * The form a password is hashed and compared in: Unicode NFKC, so "ﬁ" and "fi", or a full-width and an ASCII digit,
 * are the same password whatever keyboard or OS typed it (ASVS 2.3). ASCII is unchanged by it.
 */
export function normalizePassword(password: string): string {
  return password.normalize('NFKC');
}

/** What a password is judged against besides the dictionaries: the account's address and the names it shows. */
export interface PasswordContext {
  email?: string;
  /** The operator's name, the user's name: each whole (spaces removed) and word by word. */
  names?: readonly (string | null | undefined)[];
}

/** zxcvbn's user inputs of a context: the product words, the address and its parts, the names and their words. */
export function passwordUserInputs(context: PasswordContext): string[] {
  const inputs = new Set<string>(PASSWORD_PRODUCT_WORDS);
  const email = context.email?.toLowerCase();
  if (email) for (const part of [email, ...email.split(/[@.+_-]/)]) inputs.add(part);
  for (const name of context.names ?? []) {
    const lowered = name?.normalize('NFKC').toLowerCase().trim();
    if (!lowered) continue;
    inputs.add(lowered.replace(/[^\p{L}\p{N}]+/gu, ''));
    for (const word of lowered.split(/[^\p{L}\p{N}]+/u)) inputs.add(word);
  }
  return [...inputs].filter((input) => input.length >= 3);
}

/** Why a new password is refused, or null when it is acceptable. Judged on its NFKC form, the form that is hashed. */
export function passwordProblem(password: unknown, context: PasswordContext = {}): string | null {
  if (typeof password !== 'string') return 'password is required';
  if (password.length > PASSWORD_MAX_LENGTH) return `password must be at most ${PASSWORD_MAX_LENGTH} characters`;
  const normalized = normalizePassword(password);
  if ([...normalized].length < PASSWORD_MIN_LENGTH)
    return `password must be at least ${PASSWORD_MIN_LENGTH} characters`;
  if (normalized.length > PASSWORD_MAX_LENGTH) return `password must be at most ${PASSWORD_MAX_LENGTH} characters`;
  const email = context.email?.toLowerCase();
  if (email && normalized.toLowerCase().includes(email)) return 'the password may not contain your e-mail address';
  const { score, feedback } = passwordEstimator().check(normalized, passwordUserInputs(context));
  return score < MIN_PASSWORD_SCORE ? weakPasswordReason(feedback) : null;
}

/** The refusal in words: zxcvbn's warning and suggestions, else what it scores low in general. */
function weakPasswordReason(feedback: Feedback): string {
  const why =
    feedback.warning ??
    'it is close to a known password, a dictionary or product word with digits or symbols, a keyboard pattern or a repetition';
  const suggestions = feedback.suggestions.filter(Boolean);
  const advice = suggestions.length > 0 ? ` ${suggestions.join(' ')}` : '';
  const clause = why.charAt(0).toLowerCase() + why.slice(1).replace(/\.$/, '');
  return `this password is too common or too easy to guess: ${clause}.${advice} Choose another, e.g. several unrelated words.`;
}

/** The argon2id hash of the password's NFKC form. */
export function hashPassword(password: string): Promise<string> {
  return hash(normalizePassword(password), ARGON2_OPTIONS);
}

/**
 * Whether `password` matches. Compared in NFKC form; hashes stored before normalization existed were made from the
 * password as typed, so when the typed form is not already NFKC that form is tried too (ASCII passwords, the usual
 * case, are their own NFKC form and cost one verification). False for a malformed stored hash (never throws).
 */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  if (typeof password !== 'string' || password.length > PASSWORD_MAX_LENGTH) return false;
  const normalized = normalizePassword(password);
  if (await verifyOne(passwordHash, normalized)) return true;
  return normalized !== password && verifyOne(passwordHash, password);
}

async function verifyOne(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;

/**
 * Spends the same time as a real verification, for an unknown e-mail address: log-in answers then take as long for an
 * unknown account as for a wrong password (no account enumeration by timing; a non-NFKC password costs two
 * verifications here as it does for a known account).
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
