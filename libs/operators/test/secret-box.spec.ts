import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SecretBoxError, createSecretBox } from '../src/lib/secret-box';
import {
  WebhookSecretKeysError,
  parseWebhookSecretKeys,
  resolveWebhookSecretKeys,
  webhookSecretKeysFilePath,
} from '../src/lib/webhook-secret-keys';
import { testKeyring, testSecretBox } from './helpers';

const SECRET = 'whsec_0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef';
const OPERATOR = 'f4c1a2b3-0000-4000-8000-000000000001';

describe('secret box', () => {
  it('seals into a versioned string that does not contain the secret, and opens it again', () => {
    const box = testSecretBox('a');
    const sealed = box.seal(SECRET, OPERATOR);

    expect(sealed).toMatch(/^sbx1\.a\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain(SECRET.slice(6, 20));
    expect(box.open(sealed, OPERATOR)).toBe(SECRET);
    // A fresh data key and iv every time.
    expect(box.seal(SECRET, OPERATOR)).not.toBe(sealed);
  });

  it('returns a legacy plain value (no sbx1. prefix) as it is', () => {
    expect(testSecretBox().open('whsec_legacy', OPERATOR)).toBe('whsec_legacy');
  });

  it('opens a value sealed under key A once the keyring is [B, A], and rewrap moves it to B', () => {
    const sealedUnderA = testSecretBox('a').seal(SECRET, OPERATOR);
    const rotated = testSecretBox('b', 'a');

    expect(rotated.currentKeyId).toBe('b');
    expect(rotated.isCurrent(sealedUnderA)).toBe(false);
    expect(rotated.open(sealedUnderA, OPERATOR)).toBe(SECRET);

    const rewrapped = rotated.rewrap(sealedUnderA, OPERATOR);
    expect(rewrapped.startsWith('sbx1.b.')).toBe(true);
    expect(rotated.isCurrent(rewrapped)).toBe(true);
    // Only the data key changed hands; once A is retired, B alone opens it.
    expect(rewrapped.split('.').slice(3)).toEqual(sealedUnderA.split('.').slice(3));
    expect(testSecretBox('b').open(rewrapped, OPERATOR)).toBe(SECRET);
    expect(() => testSecretBox('b').open(sealedUnderA, OPERATOR)).toThrow(
      expect.objectContaining({ code: 'unknown_key' }),
    );
  });

  it('rewrap seals a legacy plain value', () => {
    const box = testSecretBox('a');
    const sealed = box.rewrap('whsec_legacy_value', OPERATOR);
    expect(box.isCurrent(sealed)).toBe(true);
    expect(box.open(sealed, OPERATOR)).toBe('whsec_legacy_value');
  });

  it('refuses a tampered value, a value of another operator, and a malformed one, without revealing anything', () => {
    const box = testSecretBox('a');
    const sealed = box.seal(SECRET, OPERATOR);
    const parts = sealed.split('.');
    const flip = (part: string) => {
      const bytes = Buffer.from(part, 'base64url');
      bytes[bytes.length - 1]! ^= 1;
      return bytes.toString('base64url');
    };
    const tampered = [
      [...parts.slice(0, 4), flip(parts[4]!)].join('.'),
      [...parts.slice(0, 3), flip(parts[3]!), parts[4]].join('.'),
      [...parts.slice(0, 2), flip(parts[2]!), ...parts.slice(3)].join('.'),
    ];
    for (const value of tampered) {
      expect(() => box.open(value, OPERATOR)).toThrow(expect.objectContaining({ code: 'tampered' }));
      expect(() => box.rewrap(value, OPERATOR)).toThrow(SecretBoxError);
    }
    expect(() => box.open(sealed, 'another-operator')).toThrow(expect.objectContaining({ code: 'tampered' }));
    // The key id is bound to the wrapped key: relabelling it does not help.
    const both = testSecretBox('a', 'b');
    expect(() => both.open(sealed.replace('sbx1.a.', 'sbx1.b.'), OPERATOR)).toThrow(
      expect.objectContaining({ code: 'tampered' }),
    );
    for (const value of ['sbx1.', 'sbx1.a.x.y', 'sbx1.a.!!.y.z', `${sealed}.extra`]) {
      expect(() => box.open(value, OPERATOR)).toThrow(expect.objectContaining({ code: 'malformed' }));
    }
    try {
      box.open(tampered[0]!, OPERATOR);
    } catch (error) {
      expect((error as Error).message).not.toContain(SECRET);
    }
  });

  it('refuses a keyring with a short key or a duplicate key id', () => {
    expect(() => createSecretBox([{ kid: 'a', key: Buffer.alloc(16) }])).toThrow(RangeError);
    expect(() => createSecretBox([...testKeyring('a'), ...testKeyring('a')] as never)).toThrow(/twice/);
  });
});

describe('WEBHOOK_SECRET_KEYS', () => {
  const k1 = Buffer.alloc(32, 1).toString('base64');
  const k2 = Buffer.alloc(32, 2).toString('base64url');

  it('parses kid:base64 entries, first one sealing', () => {
    const keyring = parseWebhookSecretKeys(` k2:${k2} , k1:${k1}`);
    expect(keyring.map((k) => k.kid)).toEqual(['k2', 'k1']);
    expect(keyring[0].key).toEqual(Buffer.alloc(32, 2));
  });

  it.each([
    ['', /empty/],
    ['nokid', /key id/],
    [`k1:${Buffer.alloc(16).toString('base64')}`, /16 bytes, not 32/],
    ['k1:not base64!', /not base64/],
    [`k1:${k1},k1:${k1}`, /twice/],
    [`a.b:${k1}`, /key id/],
  ])('refuses %j with one clear line', (value, message) => {
    const error = (() => {
      try {
        parseWebhookSecretKeys(value);
        return null;
      } catch (e) {
        return e as Error;
      }
    })();
    expect(error).toBeInstanceOf(WebhookSecretKeysError);
    expect(error!.message).toMatch(message);
    expect(error!.message).toMatch(/^WEBHOOK_SECRET_KEYS/);
    expect(error!.message).not.toContain('\n');
    expect(error!.message).not.toContain(k1);
  });
});

describe('resolveWebhookSecretKeys', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'secret-keys-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('uses WEBHOOK_SECRET_KEYS when set, in any mode', () => {
    const configured = `k9:${Buffer.alloc(32, 9).toString('base64')}`;
    expect(resolveWebhookSecretKeys({ configured, embedded: false, dataDir })[0].kid).toBe('k9');
    expect(resolveWebhookSecretKeys({ configured, embedded: true, dataDir })[0].kid).toBe('k9');
  });

  it('requires it with DATABASE_URL (deployed), in one line', () => {
    expect(() => resolveWebhookSecretKeys({ configured: ' ', embedded: false, dataDir })).toThrow(
      /^WEBHOOK_SECRET_KEYS: required with DATABASE_URL[^\n]*$/,
    );
  });

  it('embedded: creates DATA_DIR/webhook-secret-keys (0600) once, then reads the same key', () => {
    const nested = path.join(dataDir, 'fresh');
    const first = resolveWebhookSecretKeys({ configured: undefined, embedded: true, dataDir: nested });
    const file = webhookSecretKeysFilePath(nested);

    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8')).toMatch(/^local1:[A-Za-z0-9+/]{43}=\n$/);
    const again = resolveWebhookSecretKeys({ configured: undefined, embedded: true, dataDir: nested });
    expect(again[0].key).toEqual(first[0].key);
    // What the first keyring sealed, the second opens: secrets survive a restart.
    expect(createSecretBox(again).open(createSecretBox(first).seal(SECRET, OPERATOR), OPERATOR)).toBe(SECRET);
  });

  it('embedded: a rotated file ([new, old]) is honoured, and a broken one names the file', () => {
    const file = webhookSecretKeysFilePath(dataDir);
    writeFileSync(
      file,
      `local2:${Buffer.alloc(32, 5).toString('base64')}\nlocal1:${Buffer.alloc(32, 4).toString('base64')}\n`,
    );
    expect(resolveWebhookSecretKeys({ configured: undefined, embedded: true, dataDir }).map((k) => k.kid)).toEqual([
      'local2',
      'local1',
    ]);

    writeFileSync(file, 'garbage');
    expect(() => resolveWebhookSecretKeys({ configured: undefined, embedded: true, dataDir })).toThrow(file);
  });
});
