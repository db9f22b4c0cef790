import { randomBytes as cryptoRandomBytes } from 'node:crypto';
import { chmodSync, linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Keyring, KeyEncryptionKey } from './secret-box';

/** The variable holding the key-encryption keys of operators' webhook secrets: `kid:base64(32 bytes)`, comma-separated. */
export const WEBHOOK_SECRET_KEYS_VAR = 'WEBHOOK_SECRET_KEYS';
/** Embedded mode only: where the generated keyring lives when WEBHOOK_SECRET_KEYS is unset and there is no DATABASE_URL. */
export const WEBHOOK_SECRET_KEYS_FILE = 'webhook-secret-keys';

const FORMAT = `comma-separated kid:base64 entries of 32 random bytes, the first seals, e.g. k2026a:$(openssl rand -base64 32)`;
const LOCAL_KEY_ID = 'local1';
/** Why a deployed process (DATABASE_URL set) refuses to start without the variable. */
export const MISSING_WEBHOOK_SECRET_KEYS = `required with DATABASE_URL (it encrypts operators' webhook secrets at rest): ${FORMAT}`;

/** A missing or malformed keyring: one line for the operator of the process, never containing key material. */
export class WebhookSecretKeysError extends Error {
  override readonly name = 'WebhookSecretKeysError';
  /** `source: problem` as the message; `problem` alone for config parsers that name the variable themselves. */
  constructor(
    source: string,
    readonly problem: string,
  ) {
    super(`${source}: ${problem}`);
  }
}

/**
 * Parses `kid:base64,kid:base64` (commas or newlines; standard or url-safe base64 of exactly 32 bytes). The first
 * entry seals new secrets, all entries open: rotate by putting a new key first, run `secrets:rewrap`, then drop the
 * old key.
 */
export function parseWebhookSecretKeys(value: string, source = WEBHOOK_SECRET_KEYS_VAR): Keyring {
  const entries = value
    .split(/[,\n]/)
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (entries.length === 0) throw new WebhookSecretKeysError(source, `is empty; expected ${FORMAT}`);
  const keys = entries.map((entry, i) => parseEntry(entry, i + 1, source));
  const kids = keys.map((k) => k.kid);
  const duplicate = kids.find((kid, i) => kids.indexOf(kid) !== i);
  if (duplicate) throw new WebhookSecretKeysError(source, `key id "${duplicate}" appears twice`);
  return keys as unknown as Keyring;
}

function parseEntry(entry: string, position: number, source: string): KeyEncryptionKey {
  const colon = entry.indexOf(':');
  const kid = colon < 0 ? '' : entry.slice(0, colon).trim();
  const encoded = colon < 0 ? '' : entry.slice(colon + 1).trim();
  if (!/^[A-Za-z0-9_-]{1,40}$/.test(kid)) {
    throw new WebhookSecretKeysError(
      source,
      `entry ${position} needs a key id of 1–40 of A-Z a-z 0-9 _ - before ":"; expected ${FORMAT}`,
    );
  }
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(encoded)) {
    throw new WebhookSecretKeysError(source, `key "${kid}" is not base64; expected ${FORMAT}`);
  }
  const key = Buffer.from(encoded.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  if (key.length !== 32) {
    throw new WebhookSecretKeysError(source, `key "${kid}" is ${key.length} bytes, not 32; expected ${FORMAT}`);
  }
  return { kid, key };
}

export interface ResolveWebhookSecretKeysOptions {
  /** WEBHOOK_SECRET_KEYS as configured, raw or already parsed by an app's config (empty or undefined: unset). */
  configured: string | Keyring | undefined;
  /** Embedded mode (no DATABASE_URL): a missing keyring is generated into the data directory. */
  embedded: boolean;
  dataDir: string;
  randomBytes?: (size: number) => Uint8Array;
}

/**
 * The one way every process gets the keyring (launcher, admin CLI, each app's main): WEBHOOK_SECRET_KEYS when set;
 * else, embedded, `DATA_DIR/webhook-secret-keys` (read, or created with a random key, mode 0600); else an error.
 */
export function resolveWebhookSecretKeys(options: ResolveWebhookSecretKeysOptions): Keyring {
  if (typeof options.configured === 'object') return options.configured;
  const configured = options.configured?.trim();
  if (configured) return parseWebhookSecretKeys(configured);
  if (!options.embedded) {
    throw new WebhookSecretKeysError(WEBHOOK_SECRET_KEYS_VAR, MISSING_WEBHOOK_SECRET_KEYS);
  }
  return localKeyring(options.dataDir, options.randomBytes ?? cryptoRandomBytes);
}

export function webhookSecretKeysFilePath(dataDir: string): string {
  return path.join(path.resolve(dataDir), WEBHOOK_SECRET_KEYS_FILE);
}

function localKeyring(dataDir: string, randomBytes: (size: number) => Uint8Array): Keyring {
  const file = webhookSecretKeysFilePath(dataDir);
  const existing = readIfPresent(file);
  if (existing !== null) return parseWebhookSecretKeys(existing, file);
  mkdirSync(path.dirname(file), { recursive: true });
  const line = `${LOCAL_KEY_ID}:${Buffer.from(randomBytes(32)).toString('base64')}\n`;
  // Written aside, then hard-linked into place: of two processes starting at once, exactly one key wins, and
  // nobody reads a half-written file.
  const partial = `${file}.${process.pid}.tmp`;
  writeFileSync(partial, line, { mode: 0o600 });
  chmodSync(partial, 0o600);
  try {
    linkSync(partial, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    unlinkSync(partial);
  }
  return parseWebhookSecretKeys(readFileSync(file, 'utf8'), file);
}

function readIfPresent(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}
