import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import http, { type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import {
  createBuildDirs,
  createHarness,
  FRAME_CHUNK,
  FRAME_CSS,
  FRAME_SCRIPT,
  PINNED_SOURCE,
  ROLLING_SOURCE,
  type Harness,
} from './harness';

/**
 * The loader channels and the frame's hashed assets on the wire: brotli and gzip twins negotiated by Accept-Encoding,
 * each decoding to exactly the identity bytes, with Vary, Content-Length, an ETag per encoding and the channel's
 * caching. Raw node:http requests (no client-side decoding, no default Accept-Encoding), so what is checked is what
 * a browser receives.
 */
let h: Harness;
let server: Server;
let base: string;
beforeAll(async () => {
  const dirs = createBuildDirs();
  dirs.publish('1.0.0', PINNED_SOURCE);
  h = await createHarness({ dirs });
  server = h.app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await h.close();
});

interface Raw {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

function raw(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${url}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

function decoded(res: Raw): Buffer {
  const coding = res.headers['content-encoding'];
  if (coding === 'br') return brotliDecompressSync(res.body);
  if (coding === 'gzip') return gunzipSync(res.body);
  if (coding === undefined) return res.body;
  throw new Error(`unexpected Content-Encoding ${coding}`);
}

const sha = (bytes: Buffer | string) => `"${createHash('sha256').update(bytes).digest('hex')}"`;
const IMMUTABLE = 'public, max-age=31536000, immutable';

const channels = () => [
  { name: 'rolling /widget.js', url: '/widget.js', identity: Buffer.from(ROLLING_SOURCE), cacheControl: 'no-cache' },
  {
    name: 'pinned /widget/1.0.0.js',
    url: '/widget/1.0.0.js',
    identity: Buffer.from(PINNED_SOURCE),
    cacheControl: IMMUTABLE,
  },
  {
    name: 'frame entry script',
    url: `/assets/${FRAME_SCRIPT}`,
    identity: readFileSync(path.join(h.dirs.frameDir, FRAME_SCRIPT)),
    cacheControl: IMMUTABLE,
  },
  {
    name: 'frame lazy chunk',
    url: `/assets/${FRAME_CHUNK}`,
    identity: readFileSync(path.join(h.dirs.frameDir, FRAME_CHUNK)),
    cacheControl: IMMUTABLE,
  },
  {
    name: 'frame stylesheet',
    url: `/assets/${FRAME_CSS}`,
    identity: readFileSync(path.join(h.dirs.frameDir, FRAME_CSS)),
    cacheControl: IMMUTABLE,
  },
];
const CHANNELS = [
  'rolling /widget.js',
  'pinned /widget/1.0.0.js',
  'frame entry script',
  'frame lazy chunk',
  'frame stylesheet',
];
const channel = (name: string) => channels().find((c) => c.name === name)!;

describe.each(CHANNELS)('%s', (name) => {
  it.each([
    ['no Accept-Encoding', undefined, undefined, ''],
    ['a browser (gzip, deflate, br, zstd)', 'gzip, deflate, br, zstd', 'br', '-br'],
    ['gzip only', 'gzip, deflate', 'gzip', '-gz'],
    ['gzip preferred by q-value', 'br;q=0.5, gzip', 'gzip', '-gz'],
    ['identity only', 'identity', undefined, ''],
    ['nothing it can use', 'zstd, deflate', undefined, ''],
  ])(
    '%s: the right encoding, decoding to exactly the identity bytes, with its own ETag',
    async (_label, acceptEncoding, coding, suffix) => {
      const { url, identity, cacheControl } = channel(name);
      const res = await raw(url, acceptEncoding === undefined ? {} : { 'Accept-Encoding': acceptEncoding });
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBe(coding);
      expect(decoded(res).equals(identity)).toBe(true);
      expect(res.headers['content-length']).toBe(String(res.body.length));
      expect(res.headers['vary']).toMatch(/\bAccept-Encoding\b/i);
      expect(res.headers['etag']).toBe(`${sha(identity).slice(0, -1)}${suffix}"`);
      expect(res.headers['cache-control']).toBe(cacheControl);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    },
  );

  it('HEAD: the same headers as GET (Content-Length of the encoded body), no body', async () => {
    const { url } = channel(name);
    for (const acceptEncoding of ['br', 'gzip', 'identity']) {
      const get = await raw(url, { 'Accept-Encoding': acceptEncoding });
      const head = await raw(url, { 'Accept-Encoding': acceptEncoding }, 'HEAD');
      expect(head.status).toBe(200);
      expect(head.body.length).toBe(0);
      for (const header of ['content-encoding', 'content-length', 'content-type', 'etag', 'vary', 'cache-control'])
        expect(head.headers[header]).toBe(get.headers[header]);
    }
  });

  it("304 on the encoding's own ETag (Vary and ETag kept); another encoding's ETag does not match", async () => {
    const { url } = channel(name);
    const br = await raw(url, { 'Accept-Encoding': 'br' });
    const again = await raw(url, { 'Accept-Encoding': 'br', 'If-None-Match': String(br.headers['etag']) });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers['etag']).toBe(br.headers['etag']);
    expect(again.headers['vary']).toMatch(/\bAccept-Encoding\b/i);
    const identityTag = (await raw(url)).headers['etag'];
    const switched = await raw(url, { 'Accept-Encoding': 'br', 'If-None-Match': String(identityTag) });
    expect(switched.status).toBe(200);
    expect(switched.headers['content-encoding']).toBe('br');
    const gz = await raw(url, { 'Accept-Encoding': 'gzip', 'If-None-Match': String(br.headers['etag']) });
    expect(gz.status).toBe(200);
  });
});

describe('build twins (<file>.br, <file>.gz written by the bundle step)', () => {
  it('are sent as built when they decode to the file; a stale twin is never sent (the server compresses instead)', async () => {
    const dirs = createBuildDirs();
    const file = path.join(dirs.loaderDir, 'widget.js');
    const built = gzipSync(readFileSync(file), { level: 1 }); // not what the server would produce itself (level 9)
    writeFileSync(`${file}.gz`, built);
    writeFileSync(`${file}.br`, Buffer.from('a twin of an older build'));
    const local = h.rebuild({ loaderDir: dirs.loaderDir }).listen(0, '127.0.0.1');
    await new Promise((resolve) => local.once('listening', resolve));
    try {
      const at = `http://127.0.0.1:${(local.address() as AddressInfo).port}`;
      const get = (acceptEncoding: string) =>
        new Promise<Raw>((resolve, reject) =>
          http
            .get(`${at}/widget.js`, { headers: { 'Accept-Encoding': acceptEncoding } }, (res) => {
              const chunks: Buffer[] = [];
              res.on('data', (c: Buffer) => chunks.push(c));
              res.on('end', () =>
                resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
              );
            })
            .on('error', reject),
        );
      const gz = await get('gzip');
      expect(gz.body.equals(built)).toBe(true);
      const br = await get('br');
      expect(br.headers['content-encoding']).toBe('br');
      expect(brotliDecompressSync(br.body).toString()).toBe(ROLLING_SOURCE);
    } finally {
      await new Promise((resolve) => local.close(resolve));
      dirs.remove();
    }
  });
});
