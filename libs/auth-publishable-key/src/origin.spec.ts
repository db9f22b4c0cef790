import { normalizeOrigin, normalizeOrigins } from './origin';

describe('normalizeOrigin', () => {
  it.each([
    ['https://shop.example.com', 'https://shop.example.com'],
    ['HTTPS://Shop.Example.COM', 'https://shop.example.com'],
    ['https://shop.example.com:443', 'https://shop.example.com'],
    ['http://shop.example.com:80', 'http://shop.example.com'],
    ['http://localhost:4200', 'http://localhost:4200'],
    ['https://shop.example.com:8443', 'https://shop.example.com:8443'],
    ['https://shop.example.com/', 'https://shop.example.com'],
    ['  https://shop.example.com  ', 'https://shop.example.com'],
    ['https://bücher.example', 'https://xn--bcher-kva.example'],
    ['http://[::1]:3003', 'http://[::1]:3003'],
    ['http://127.0.0.1:3003', 'http://127.0.0.1:3003'],
  ])('%s -> %s', (input, expected) => {
    expect(normalizeOrigin(input)).toBe(expected);
  });

  it.each([
    ['the opaque origin', 'null'],
    ['empty', ''],
    ['no scheme', 'shop.example.com'],
    ['ftp', 'ftp://shop.example.com'],
    ['file', 'file:///etc/passwd'],
    ['javascript', 'javascript:alert(1)'],
    ['a path', 'https://shop.example.com/checkout'],
    ['a query', 'https://shop.example.com?x=1'],
    ['an empty query', 'https://shop.example.com?'],
    ['a fragment', 'https://shop.example.com#top'],
    ['userinfo', 'https://user:pw@shop.example.com'],
    ['empty userinfo', 'https://@shop.example.com'],
    ['two origins', 'https://a.example, https://b.example'],
    ['a wildcard', 'https://*.example.com'],
    ['garbage', 'not a url'],
  ])('rejects %s', (_label, input) => {
    expect(normalizeOrigin(input)).toBeNull();
  });

  it('rejects non-strings', () => {
    expect(normalizeOrigin(undefined)).toBeNull();
    expect(normalizeOrigin(['https://a.example'])).toBeNull();
  });

  it('normalizes a list, dropping invalid entries and duplicates', () => {
    expect(normalizeOrigins(['https://A.example', 'https://a.example:443', 'null', 'http://b.example'])).toEqual([
      'https://a.example',
      'http://b.example',
    ]);
  });
});
