import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { encodeFile, etagFor, negotiateEncoding } from './encodings';

describe('negotiateEncoding (Accept-Encoding → br, gzip or identity)', () => {
  it.each([
    [undefined, 'identity'],
    ['', 'identity'],
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip, deflate', 'gzip'],
    ['br', 'br'],
    ['BR;Q=1', 'br'],
    ['x-gzip', 'gzip'],
    ['deflate', 'identity'],
    ['zstd, deflate', 'identity'],
    ['gzip;q=1, br;q=0.5', 'gzip'],
    ['br;q=0.2, gzip;q=0.8, identity;q=0.9', 'identity'],
    ['gzip;q=0, br;q=0', 'identity'],
    ['*', 'br'],
    ['*;q=0.5, br;q=0', 'gzip'],
    ['gzip;q=0.5', 'gzip'],
    ['identity;q=0, gzip', 'gzip'],
    ['*;q=0, identity', 'identity'],
    ['identity;q=0, *;q=0', 'identity'],
    ['identity;q=0', 'identity'],
    ['br;q=abc, gzip', 'gzip'],
    ['br;q=1.5, gzip', 'gzip'],
    [' gzip ; q=0.9 , br ; q=0.9 ', 'br'],
  ])('%j → %s', (header, expected) => {
    expect(negotiateEncoding(header)).toBe(expected);
  });
});

describe('encodeFile', () => {
  const bytes = Buffer.from('(()=>{window.SvcWidget={version:"1.2.3"}})();\n'.repeat(20));

  it('compresses bytes that have no twins, and both twins decode to exactly the bytes', () => {
    const file = encodeFile(bytes);
    expect(brotliDecompressSync(file.br).equals(bytes)).toBe(true);
    expect(gunzipSync(file.gzip).equals(bytes)).toBe(true);
  });

  it('keeps a twin that decodes to the bytes, and replaces a stale or corrupt one', () => {
    const built = gzipSync(bytes, { level: 1 });
    expect(encodeFile(bytes, { gzip: built }).gzip).toBe(built);
    const stale = encodeFile(bytes, { gzip: gzipSync('an older build'), br: Buffer.from('not brotli') });
    expect(gunzipSync(stale.gzip).equals(bytes)).toBe(true);
    expect(brotliDecompressSync(stale.br).equals(bytes)).toBe(true);
  });

  it('tags each encoding: the identity sha256, with -br / -gz', () => {
    const file = encodeFile(bytes);
    expect(file.etag).toMatch(/^"[0-9a-f]{64}"$/);
    expect(etagFor(file, 'identity')).toBe(file.etag);
    expect(etagFor(file, 'br')).toBe(`${file.etag.slice(0, -1)}-br"`);
    expect(etagFor(file, 'gzip')).toBe(`${file.etag.slice(0, -1)}-gz"`);
  });
});
