import { createHash } from 'node:crypto';
import { rmSync, utimesSync } from 'node:fs';
import path from 'node:path';
import { PLATFORM_ICON_SVG } from '@expedition/http-kit';
import request from 'supertest';
import { loadPinnedReleases } from '../src/loader-channels';
import { createBuildDirs, createHarness, PINNED_SOURCE, ROLLING_SOURCE, type Harness } from './harness';

let h: Harness;
beforeAll(async () => {
  const dirs = createBuildDirs();
  dirs.publish('1.0.0', PINNED_SOURCE);
  h = await createHarness({ dirs });
});
afterAll(() => h.close());

const sha = (text: string) => `"${createHash('sha256').update(text).digest('hex')}"`;
/** supertest asks for gzip by default; the identity representation's headers are checked here (encodings: encodings.api.spec.ts). */
const get = (url: string) => request(h.app).get(url).set('Accept-Encoding', 'identity');

describe('GET /widget.js (rolling channel)', () => {
  it('serves the current build, revalidated on every load, with a strong sha256 ETag', async () => {
    const res = await get('/widget.js');
    expect(res.status).toBe(200);
    expect(res.text).toBe(ROLLING_SOURCE);
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['etag']).toBe(sha(ROLLING_SOURCE));
    expect(res.headers['etag']).not.toMatch(/^W\//);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
  });

  it('answers 304 without a body to a matching If-None-Match (also in a list, also weak), 200 otherwise', async () => {
    const etag = sha(ROLLING_SOURCE);
    const same = await get('/widget.js').set('If-None-Match', etag);
    expect(same.status).toBe(304);
    expect(same.text).toBe('');
    expect(same.headers['etag']).toBe(etag);
    expect(same.headers['cache-control']).toBe('no-cache');
    expect((await get('/widget.js').set('If-None-Match', `"other", W/${etag}`)).status).toBe(304);
    const stale = await get('/widget.js').set('If-None-Match', '"0000"');
    expect(stale.status).toBe(200);
    expect(stale.text).toBe(ROLLING_SOURCE);
  });

  it('serves a rebuilt loader at once, with a new ETag (the old one no longer matches)', async () => {
    const old = sha(ROLLING_SOURCE);
    const rebuilt = `${ROLLING_SOURCE}/* rebuilt */\n`;
    h.dirs.writeRolling(rebuilt);
    // A rebuild in the same millisecond with the same size would keep the stamp; a real rebuild changes the mtime.
    const later = new Date(Date.now() + 5_000);
    utimesSync(path.join(h.dirs.loaderDir, 'widget.js'), later, later);
    const res = await get('/widget.js').set('If-None-Match', old);
    expect(res.status).toBe(200);
    expect(res.text).toBe(rebuilt);
    expect(res.headers['etag']).toBe(sha(rebuilt));
    h.dirs.writeRolling(ROLLING_SOURCE);
  });

  it('answers 503 (not cached) while the loader is not built, and /readyz is not ready', async () => {
    const dirs = createBuildDirs();
    rmSync(path.join(dirs.loaderDir, 'widget.js'));
    const app = h.rebuild({ loaderDir: dirs.loaderDir });
    const res = await request(app).get('/widget.js');
    expect(res.status).toBe(503);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['retry-after']).toBe('5');
    expect((await request(app).get('/readyz')).status).toBe(503);
    dirs.remove();
  });
});

describe('GET /widget/<x.y.z>.js (pinned channel)', () => {
  it('serves the published bytes, immutable, with their sha256 as ETag', async () => {
    const res = await get('/widget/1.0.0.js');
    expect(res.status).toBe(200);
    expect(res.text).toBe(PINNED_SOURCE);
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['etag']).toBe(sha(PINNED_SOURCE));
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect((await get('/widget/1.0.0.js').set('If-None-Match', sha(PINNED_SOURCE))).status).toBe(304);
  });

  it('is not the rolling build', async () => {
    expect((await request(h.app).get('/widget/1.0.0.js')).text).not.toBe((await request(h.app).get('/widget.js')).text);
  });

  it.each([
    '/widget/1.0.1.js',
    '/widget/2.0.0.js',
    '/widget/1.0.js',
    '/widget/1.0.0.0.js',
    '/widget/01.0.0.js',
    '/widget/1.0.0-beta.js',
    '/widget/1.0.0',
    '/widget/latest.js',
    '/widget/..%2Fmanifest.json',
    '/widget/%2e%2e%2freleases%2fmanifest.json',
    '/widget/manifest.json',
    '/widget/widget-1.0.0.js',
  ])('answers 404 for %s', async (url) => {
    const res = await request(h.app).get(url);
    expect(res.status).toBe(404);
    expect(String(res.headers['cache-control'] ?? '')).not.toMatch(/immutable/);
  });
});

describe('pinned checksum verification (at start)', () => {
  it('refuses a version whose bytes differ from the manifest: 404, logged, /readyz not ready; others still served', async () => {
    const dirs = createBuildDirs();
    dirs.publish('1.0.0', PINNED_SOURCE);
    dirs.publish('1.1.0', '/* 1.1.0 */\n');
    dirs.tamper('1.0.0', PINNED_SOURCE.replace('1.0.0', '6.6.6'));
    const errors: unknown[] = [];
    const releases = loadPinnedReleases(dirs.releasesDir, {
      warn: () => undefined,
      error: (fields: unknown) => void errors.push(fields),
    });
    expect(releases.refused).toEqual([{ version: '1.0.0', reason: expect.stringContaining('sha256') }]);
    expect(errors).toHaveLength(1);
    const app = h.rebuild({ releases });
    expect((await request(app).get('/widget/1.0.0.js')).status).toBe(404);
    expect((await request(app).get('/widget/1.1.0.js')).text).toBe('/* 1.1.0 */\n');
    expect((await request(app).get('/readyz')).status).toBe(503);
    dirs.remove();
  });

  it('refuses a version whose file disappeared', async () => {
    const dirs = createBuildDirs();
    dirs.publish('1.0.0', PINNED_SOURCE);
    rmSync(path.join(dirs.releasesDir, 'widget-1.0.0.js'));
    const releases = loadPinnedReleases(dirs.releasesDir);
    expect(releases.versions.size).toBe(0);
    expect(releases.refused[0]).toEqual({ version: '1.0.0', reason: expect.stringContaining('missing') });
    dirs.remove();
  });

  it('no releases yet: nothing pinned, still ready', async () => {
    const dirs = createBuildDirs();
    const app = h.rebuild({
      releases: loadPinnedReleases(dirs.releasesDir),
      loaderDir: dirs.loaderDir,
      frameDir: dirs.frameDir,
    });
    expect((await request(app).get('/widget/1.0.0.js')).status).toBe(404);
    expect((await request(app).get('/readyz')).body).toEqual({ status: 'ready' });
    dirs.remove();
  });
});

describe('platform routes', () => {
  it('serves /healthz, /readyz and a JSON index', async () => {
    expect((await request(h.app).get('/healthz')).body).toEqual({ status: 'ok' });
    expect((await request(h.app).get('/readyz')).body).toEqual({ status: 'ready' });
    const index = await request(h.app).get('/');
    expect(index.body).toMatchObject({ service: 'widget-iframe', pinnedVersions: ['1.0.0'], currentVersion: '1.0.0' });
  });

  it('answers /favicon.ico with the platform icon, cached for 30 days, instead of a 404', async () => {
    const res = await get('/favicon.ico');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(res.headers['cache-control']).toBe('public, max-age=2592000');
    expect(res.body.toString()).toBe(PLATFORM_ICON_SVG);
  });

  it('answers unknown paths with the JSON 404', async () => {
    const res = await request(h.app).get('/nope');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 'not_found' });
  });
});
