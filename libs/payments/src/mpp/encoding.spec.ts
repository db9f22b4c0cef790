import { base64UrlDecode, base64UrlEncode, decodeBase64UrlJson, encodeJcsBase64Url, jcsCanonicalize } from './encoding';

describe('jcsCanonicalize', () => {
  it('sorts keys recursively and emits no whitespace', () => {
    const value = {
      methodDetails: { paymentMethodTypes: ['card'], networkId: 'profile_1' },
      currency: 'usd',
      amount: '1234',
    };
    expect(jcsCanonicalize(value)).toBe(
      '{"amount":"1234","currency":"usd","methodDetails":{"networkId":"profile_1","paymentMethodTypes":["card"]}}',
    );
  });

  it('orders keys by UTF-16 code units (uppercase before lowercase, digits first)', () => {
    expect(jcsCanonicalize({ b: 1, a: 2, B: 3, '1': 4, é: 5 })).toBe('{"1":4,"B":3,"a":2,"b":1,"é":5}');
  });

  it('matches the RFC 8785 sample key order for non-BMP and accented keys', () => {
    // From RFC 8785 §3.2.3: sorted by UTF-16 code units, so U+1F600 (surrogate pair D83D…) precedes U+FB33.
    const input = {
      '\u20ac': 'Euro Sign',
      '\r': 'Carriage Return',
      '\ufb33': 'Hebrew Letter Dalet With Dagesh',
      '1': 'One',
      '\ud83d\ude00': 'Emoji: Grinning Face',
      '\u0080': 'Control',
      '\u00f6': 'Latin Small Letter O With Diaeresis',
    };
    const order = ['\r', '1', '\u0080', '\u00f6', '\u20ac', '\ud83d\ude00', '\ufb33'] as const;
    const expected = `{${order.map((k) => `${JSON.stringify(k)}:${JSON.stringify(input[k])}`).join(',')}}`;
    expect(jcsCanonicalize(input)).toBe(expected);
  });

  it('serializes primitives like ES JSON and drops undefined members', () => {
    expect(jcsCanonicalize({ n: 1e21, f: 0.1, z: -0, t: true, x: null, u: undefined, s: 'a"\n' })).toBe(
      '{"f":0.1,"n":1e+21,"s":"a\\"\\n","t":true,"x":null,"z":0}',
    );
    expect(jcsCanonicalize([1, undefined, 'x'])).toBe('[1,null,"x"]');
  });

  it('refuses values JSON cannot carry', () => {
    expect(() => jcsCanonicalize(Number.NaN)).toThrow(TypeError);
    expect(() => jcsCanonicalize(Infinity)).toThrow(TypeError);
    expect(() => jcsCanonicalize(10n)).toThrow(TypeError);
  });
});

describe('base64url', () => {
  it('encodes without padding and with the URL alphabet', () => {
    expect(base64UrlEncode(Buffer.from([0xfb, 0xff]))).toBe('-_8');
    expect(base64UrlEncode('a')).toBe('YQ');
    expect(base64UrlEncode('ab')).toBe('YWI');
  });

  it('round-trips arbitrary bytes', () => {
    const bytes = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
    expect(base64UrlDecode(base64UrlEncode(bytes)).equals(bytes)).toBe(true);
  });

  it('tolerates padding but rejects characters outside the alphabet', () => {
    expect(base64UrlDecode('YQ==').toString()).toBe('a');
    expect(() => base64UrlDecode('YW+i')).toThrow(TypeError);
    expect(() => base64UrlDecode('YW/i')).toThrow(TypeError);
    expect(() => base64UrlDecode('YW I')).toThrow(TypeError);
    expect(() => base64UrlDecode('Y')).toThrow(TypeError);
  });

  it('encodes JCS JSON and decodes it back', () => {
    const encoded = encodeJcsBase64Url({ b: '2', a: '1' });
    expect(Buffer.from(encoded, 'base64url').toString()).toBe('{"a":"1","b":"2"}');
    expect(decodeBase64UrlJson(encoded)).toEqual({ a: '1', b: '2' });
    expect(() => decodeBase64UrlJson(base64UrlEncode('not json'))).toThrow(TypeError);
  });
});
