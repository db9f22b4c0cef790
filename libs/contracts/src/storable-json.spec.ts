import { findUnstorableJson, isStorableString, JSON_MAX_DEPTH } from './storable-json';

function nested(depth: number): unknown {
  let value: unknown = 'leaf';
  for (let i = 0; i < depth; i++) value = i % 2 ? { a: value } : [value];
  return value;
}

describe('isStorableString', () => {
  it('refuses NUL and unpaired surrogates, accepts every other text', () => {
    expect(isStorableString('Ana Ruiz — Åsa Øberg 🐧 日本')).toBe(true);
    expect(isStorableString('')).toBe(true);
    expect(isStorableString('a\u0000b')).toBe(false);
    expect(isStorableString('\uD800')).toBe(false);
    expect(isStorableString('x\uDC00')).toBe(false);
    expect(isStorableString('\uDC00\uD800')).toBe(false);
    expect(isStorableString('\uD83D\uDC27')).toBe(true);
  });
});

describe('findUnstorableJson', () => {
  it('finds nothing in ordinary bodies and scalars', () => {
    expect(findUnstorableJson({ operator: 'Polar', guestNames: ['A', 'B'], n: 1, ok: true, none: null })).toBeNull();
    expect(findUnstorableJson(undefined)).toBeNull();
    expect(findUnstorableJson(42)).toBeNull();
  });

  it('names the first path holding NUL or a lone surrogate', () => {
    expect(findUnstorableJson({ operator: 'a\u0000' })).toMatchObject({ path: 'operator' });
    expect(findUnstorableJson({ guestNames: ['ok', 'b\uD800'] })).toMatchObject({ path: 'guestNames.1' });
    expect(findUnstorableJson('\u0000')).toMatchObject({ path: '(body)' });
  });

  it('refuses object keys that cannot be stored, printing them harmlessly', () => {
    expect(findUnstorableJson({ 'a\u0000b': 1 })).toEqual({ path: 'a\uFFFDb', message: expect.stringMatching(/key/) });
  });

  it(`allows ${JSON_MAX_DEPTH} levels of nesting and refuses one more`, () => {
    expect(findUnstorableJson(nested(JSON_MAX_DEPTH))).toBeNull();
    expect(findUnstorableJson(nested(JSON_MAX_DEPTH + 1))?.message).toBe(`nests deeper than ${JSON_MAX_DEPTH} levels`);
    expect(findUnstorableJson(nested(100_000))).not.toBeNull();
  });
});
