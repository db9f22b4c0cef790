import { mintPublishableKey, parsePublishableKey, redactKey } from './publishable-key';
import { hashSecretKey, isSecretKeyFormat, mintSecretKey, secretKeyMatchesHash } from './secret-key';
import { createHash } from 'node:crypto';

const HEX48 = 'ab'.repeat(24);

describe('publishable keys', () => {
  it('mints test keys as pk_op_test_ + 48 lowercase hex from 24 random bytes', () => {
    const key = mintPublishableKey('test', (n) => new Uint8Array(n).fill(0xab));
    expect(key).toBe(`pk_op_test_${HEX48}`);
  });

  it('mints live keys as pk_op_ + 48 lowercase hex', () => {
    expect(mintPublishableKey('live')).toMatch(/^pk_op_[0-9a-f]{48}$/);
  });

  it('mints different keys from the default crypto source', () => {
    expect(mintPublishableKey('test')).not.toBe(mintPublishableKey('test'));
  });

  it('refuses a randomness source that returns the wrong number of bytes', () => {
    expect(() => mintPublishableKey('test', () => new Uint8Array(8))).toThrow(/expected 24/);
  });

  it('parses both formats with their mode', () => {
    expect(parsePublishableKey(`pk_op_test_${HEX48}`)).toEqual({ key: `pk_op_test_${HEX48}`, mode: 'test' });
    expect(parsePublishableKey(`pk_op_${HEX48}`)).toEqual({ key: `pk_op_${HEX48}`, mode: 'live' });
  });

  it.each([
    ['empty', ''],
    ['upper-case hex', `pk_op_test_${HEX48.toUpperCase()}`],
    ['47 hex', `pk_op_${HEX48.slice(1)}`],
    ['49 hex', `pk_op_${HEX48}a`],
    ['non-hex', `pk_op_${'g'.repeat(48)}`],
    ['surrounding space', ` pk_op_${HEX48}`],
    ['secret key', `sk_op_test_${'ab'.repeat(32)}`],
    ['wrong prefix', `pk_test_${HEX48}`],
    ['test prefix without test body', `pk_op_test_${HEX48.slice(5)}`],
  ])('rejects %s', (_label, input) => {
    expect(parsePublishableKey(input)).toBeNull();
  });

  it('rejects non-strings', () => {
    expect(parsePublishableKey(undefined)).toBeNull();
    expect(parsePublishableKey(42)).toBeNull();
  });

  it('redacts keys to prefix and last 4 characters', () => {
    expect(redactKey(`pk_op_test_${HEX48.slice(0, 44)}1234`)).toBe('pk_op_test_…1234');
    expect(redactKey(`pk_op_${HEX48.slice(0, 44)}9f9f`)).toBe('pk_op_…9f9f');
    expect(redactKey('hunter2-password')).toBe('<unrecognized key, 16 chars>');
  });
});

describe('secret keys', () => {
  it('mints sk_op_test_/sk_op_ keys with a sha256 hash and a display prefix', () => {
    const minted = mintSecretKey('test', (n) => new Uint8Array(n).fill(0x01));
    expect(minted.key).toBe(`sk_op_test_${'01'.repeat(32)}`);
    expect(minted.hash).toBe(createHash('sha256').update(minted.key).digest('hex'));
    expect(minted.prefix).toBe('sk_op_test_01010101…');
    expect(mintSecretKey('live').key).toMatch(/^sk_op_[0-9a-f]{64}$/);
  });

  it('hashes deterministically and matches only the right key', () => {
    const { key, hash } = mintSecretKey('live');
    expect(hashSecretKey(key)).toBe(hash);
    expect(secretKeyMatchesHash(key, hash)).toBe(true);
    expect(secretKeyMatchesHash(mintSecretKey('live').key, hash)).toBe(false);
    expect(secretKeyMatchesHash(key, 'not-hex')).toBe(false);
  });

  it('recognises the secret key format and nothing else', () => {
    expect(isSecretKeyFormat(mintSecretKey('test').key)).toBe(true);
    expect(isSecretKeyFormat(mintSecretKey('live').key)).toBe(true);
    expect(isSecretKeyFormat(mintPublishableKey('test'))).toBe(false);
    expect(isSecretKeyFormat(`sk_op_${'AB'.repeat(32)}`)).toBe(false);
    expect(isSecretKeyFormat(null)).toBe(false);
  });
});
