import { hashToken, isUuid, randomToken } from './ids';

describe('ids and tokens', () => {
  it('mints prefixed 32-byte base64url tokens', () => {
    expect(randomToken('cs')).toMatch(/^cs_[A-Za-z0-9_-]{43}$/);
    expect(randomToken('cs')).not.toBe(randomToken('cs'));
  });

  it('hashes a token to sha256 hex, the only form stored', () => {
    expect(hashToken('cs_abc')).toMatch(/^[0-9a-f]{64}$/);
    expect(hashToken('cs_abc')).toBe(hashToken('cs_abc'));
    expect(hashToken('cs_abc')).not.toBe(hashToken('cs_abd'));
  });

  it('recognises UUIDs and nothing else', () => {
    expect(isUuid('7d1f2c3a-1111-4222-8333-944455556666')).toBe(true);
    expect(isUuid("1' OR 1=1")).toBe(false);
    expect(isUuid('7d1f2c3a11114222833394445555666')).toBe(false);
  });
});
