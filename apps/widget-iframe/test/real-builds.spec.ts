import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import request from 'supertest';
import { noteSkippedSuite } from '@expedition/platform/testing';
import { defaultAssetDirs } from '../src/config';
import { loadPinnedReleases } from '../src/loader-channels';
import { createHarness, scriptTags, seedKey, seedOperator, SITE_ORIGIN, type Harness } from './harness';

/**
 * The server against the REAL builds of this repository: the published releases (apps/widget-iframe/releases), the
 * loader build and the frame build (dist/browser/…; the test target depends on both bundle targets). Proves the
 * manifest formats the loader, frame and release tooling write are the ones this server reads.
 */
const dirs = defaultAssetDirs(path.join(__dirname, '..', 'src'));
const built =
  existsSync(path.join(dirs.frameDir, 'manifest.json')) && existsSync(path.join(dirs.loaderDir, 'widget.js'));
if (!built && process.env['REQUIRE_SERVICES'] === '1') {
  throw new Error(
    'dist/browser/widget-frame or widget-loader is missing (REQUIRE_SERVICES=1): npx nx run-many -t bundle',
  );
}
if (!built) noteSkippedSuite('the browser bundles are not built (npx nx run-many -t bundle)');
const describeBuilt = built ? describe : describe.skip;

describe('published releases (apps/widget-iframe/releases)', () => {
  it('every published version matches its manifest and is served byte for byte', async () => {
    const releases = loadPinnedReleases(dirs.releasesDir);
    expect(releases.refused).toEqual([]);
    const manifest = JSON.parse(readFileSync(path.join(dirs.releasesDir, 'manifest.json'), 'utf8')) as {
      current: string;
      versions: Record<string, { file: string }>;
    };
    expect(releases.current).toBe(manifest.current);
    expect(Object.keys(manifest.versions)).toContain('1.0.0');
    const h = await createHarness({ deps: { releases } });
    try {
      for (const [version, entry] of Object.entries(manifest.versions)) {
        const res = await request(h.app)
          .get(`/widget/${version}.js`)
          .buffer(true)
          .parse((r, done) => {
            const chunks: Buffer[] = [];
            r.on('data', (c: Buffer) => chunks.push(c));
            r.on('end', () => done(null, Buffer.concat(chunks)));
          });
        expect(res.status).toBe(200);
        expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
        expect(Buffer.compare(res.body as Buffer, readFileSync(path.join(dirs.releasesDir, entry.file)))).toBe(0);
      }
    } finally {
      await h.close();
    }
  });
});

describeBuilt('the real loader and frame builds', () => {
  let h: Harness;
  let key: string;
  beforeAll(async () => {
    h = await createHarness({
      deps: { loaderDir: dirs.loaderDir, frameDir: dirs.frameDir, releases: loadPinnedReleases(dirs.releasesDir) },
    });
    key = await seedKey(h.prisma, await seedOperator(h.prisma), 'test');
  });
  afterAll(() => h.close());

  it('serves the loader build on the rolling channel', async () => {
    const res = await request(h.app).get('/widget.js');
    expect(res.status).toBe(200);
    expect(res.text).toBe(readFileSync(path.join(dirs.loaderDir, 'widget.js'), 'utf8'));
  });

  it('the frame document links assets that exist, and every manifest file is served immutable', async () => {
    const doc = await request(h.app).get(`/frame?pk=${key}&instance=w1&parent=${encodeURIComponent(SITE_ORIGIN)}`);
    expect(doc.status).toBe(200);
    const srcs = scriptTags(doc.text).flatMap((tag) => /src="([^"]+)"/.exec(tag)?.[1] ?? []);
    const hrefs = [...doc.text.matchAll(/<link rel="stylesheet" href="([^"]+)">/g)].map((m) => m[1]!);
    expect(srcs).toHaveLength(1);
    expect(hrefs.length).toBeGreaterThan(0);
    for (const url of [...srcs, ...hrefs]) {
      const res = await request(h.app).get(url);
      expect(res.status).toBe(200);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    }
    const manifest = JSON.parse(readFileSync(path.join(dirs.frameDir, 'manifest.json'), 'utf8')) as {
      files: Record<string, unknown>;
    };
    for (const file of Object.keys(manifest.files))
      expect((await request(h.app).get(`/assets/${file}`)).status).toBe(200);
    expect((await request(h.app).get('/readyz')).body).toEqual({ status: 'ready' });
  });

  it("the frame document preloads its language's texts and every module they import, read from the built code", async () => {
    const doc = await request(h.app)
      .get(`/frame?pk=${key}&instance=w1&parent=${encodeURIComponent(SITE_ORIGIN)}`)
      .set('Accept-Language', 'de');
    const preloaded = [...doc.text.matchAll(/<link rel="modulepreload" href="\/assets\/([^"]+)">/g)].map((m) => m[1]!);
    const texts = preloaded.find((file) => /^widget\.de-/.test(file));
    expect(texts).toBeDefined();
    // The static imports in the built files themselves (`from"./x.js"`, `import"./x.js"`), not the manifest's word.
    const needed = new Set<string>();
    const visit = (file: string) => {
      const code = readFileSync(path.join(dirs.frameDir, file), 'utf8');
      for (const m of code.matchAll(/(?:\bfrom|\bimport)\s*["']\.\/([^"']+\.js)["']/g)) {
        if (needed.has(m[1]!)) continue;
        needed.add(m[1]!);
        visit(m[1]!);
      }
    };
    visit(texts!);
    expect(needed.size).toBeGreaterThan(0); // libs/i18n's plural rules, shared by every language: one chunk apart
    for (const file of needed) expect(preloaded).toContain(file);
  });

  it('the bundle step wrote brotli and gzip twins of every .js and .css, smaller, decoding to the file, and they are what is sent', async () => {
    const built = [
      ...readdirSync(dirs.loaderDir)
        .filter((f) => /\.(js|css)$/.test(f))
        .map((f) => ({ dir: dirs.loaderDir, file: f, url: `/${f}` })),
      ...readdirSync(dirs.frameDir)
        .filter((f) => /\.(js|css)$/.test(f))
        .map((f) => ({ dir: dirs.frameDir, file: f, url: `/assets/${f}` })),
    ];
    expect(built.map((b) => b.url)).toContain('/widget.js');
    for (const { dir, file, url } of built) {
      const identity = readFileSync(path.join(dir, file));
      const br = readFileSync(path.join(dir, `${file}.br`));
      const gz = readFileSync(path.join(dir, `${file}.gz`));
      expect(brotliDecompressSync(br).equals(identity)).toBe(true);
      expect(gunzipSync(gz).equals(identity)).toBe(true);
      expect(br.length).toBeLessThan(gz.length);
      expect(gz.length).toBeLessThan(identity.length);
      for (const [encoding, twin] of [
        ['br', br],
        ['gzip', gz],
      ] as const) {
        const res = await request(h.app)
          .get(url)
          .set('Accept-Encoding', encoding)
          .buffer(true)
          .parse((r, done) => {
            const chunks: Buffer[] = [];
            r.on('data', (c: Buffer) => chunks.push(c));
            r.on('end', () => done(null, Buffer.concat(chunks)));
          });
        expect(res.headers['content-encoding']).toBe(encoding);
        expect(res.headers['content-length']).toBe(String(twin.length));
      }
    }
  });
});
