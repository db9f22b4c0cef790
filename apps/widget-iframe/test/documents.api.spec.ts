import { rmSync } from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { mintPublishableKey } from '@expedition/auth-publishable-key';
import {
  bootOf,
  createBuildDirs,
  createHarness,
  cspOf,
  EMBED_ORIGIN,
  EMBED_URL,
  FRAME_CHUNK,
  FRAME_CSS,
  FRAME_SCRIPT,
  OTHER_SITE_ORIGIN,
  PORTAL_ORIGIN,
  scriptTags,
  seedKey,
  seedOperator,
  FRAME_TEXTS_DE,
  FRAME_TEXTS_SHARED,
  SITE_ORIGIN,
  WWW_SITE_ORIGIN,
  type Harness,
} from './harness';

let h: Harness;
let operatorId: string;
let testKey: string;
let liveKey: string;

beforeAll(async () => {
  h = await createHarness();
  operatorId = await seedOperator(h.prisma, { name: 'Polar Voyages', integrationTier: 2 });
  testKey = await seedKey(h.prisma, operatorId, 'test');
  liveKey = await seedKey(h.prisma, operatorId, 'live');
});
afterAll(() => h.close());

function frame(pk: string | undefined, parent: string | undefined = SITE_ORIGIN, instance = 'w1', app = h.app) {
  const query = new URLSearchParams();
  if (pk !== undefined) query.set('pk', pk);
  query.set('instance', instance);
  if (parent !== undefined) query.set('parent', parent);
  return request(app).get(`/frame?${query.toString()}`);
}

function ancestors(res: request.Response): string[] {
  return cspOf(res.headers['content-security-policy']).get('frame-ancestors') ?? [];
}

/** The document rules every answer of /frame and /quote follows, ok or refused. */
function expectDocument(res: request.Response) {
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
  expect(res.headers['cache-control']).toBe('no-store');
  expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  const csp = cspOf(res.headers['content-security-policy']);
  expect(csp.get('default-src')).toEqual(["'none'"]);
  expect(csp.get('script-src')).toEqual(["'self'"]);
  expect(csp.get('style-src')).toEqual(["'self'"]);
  expect(csp.get('img-src')).toEqual(["'self'", 'data:']);
  expect(csp.get('connect-src')).toEqual([EMBED_ORIGIN]);
  expect(csp.get('base-uri')).toEqual(["'none'"]);
  expect(csp.get('form-action')).toEqual(["'none'"]);
  expect(csp.has('frame-src')).toBe(false);
  expect(res.headers['content-security-policy']).not.toMatch(/unsafe-inline|unsafe-eval|nonce-/);
  // No inline script: every <script> is external (src=) or the non-executable JSON boot block; no <style> element.
  const tags = scriptTags(res.text);
  expect(tags).toEqual([
    `<script type="module" src="/assets/${FRAME_SCRIPT}">`,
    '<script type="application/json" id="svc-boot">',
  ]);
  expect(res.text).not.toMatch(/<style|\sstyle=|\son[a-z]+=/i);
  expect(res.text).toContain(`<link rel="stylesheet" href="/assets/${FRAME_CSS}">`);
  expect(res.text).toContain('<div id="svc-root"></div>');
  return bootOf(res.text);
}

describe('GET /frame: allowed', () => {
  it('live key with embedding: frame-ancestors = exactly its allowed origins; boot data ok', async () => {
    const res = await frame(liveKey, WWW_SITE_ORIGIN, 'inst_42');
    const boot = expectDocument(res);
    expect(ancestors(res).sort()).toEqual([SITE_ORIGIN, WWW_SITE_ORIGIN].sort());
    expect(boot).toEqual({
      kind: 'frame',
      locale: 'en',
      state: 'ok',
      publishableKey: liveKey,
      instanceId: 'inst_42',
      parentOrigin: WWW_SITE_ORIGIN,
      embedUrl: EMBED_URL,
      mode: 'live',
      allowedTier: 2,
      payments: { provider: 'simulated' },
      version: '1.0.0',
      operatorName: 'Polar Voyages',
    });
  });

  it('test key: its origins plus the portal (first-party dashboard), and the portal may be the parent', async () => {
    const res = await frame(testKey, PORTAL_ORIGIN);
    const boot = expectDocument(res);
    expect(ancestors(res).sort()).toEqual([PORTAL_ORIGIN, SITE_ORIGIN, WWW_SITE_ORIGIN].sort());
    expect(boot).toMatchObject({ state: 'ok', mode: 'test', parentOrigin: PORTAL_ORIGIN });
  });

  it('normalizes the parent param (case, default port, trailing slash) before comparing', async () => {
    const boot = expectDocument(await frame(testKey, 'HTTPS://Tours.Example:443/'));
    expect(boot).toMatchObject({ state: 'ok', parentOrigin: SITE_ORIGIN });
  });

  it('drops a malformed instance id from the boot data instead of echoing it', async () => {
    const boot = expectDocument(await frame(testKey, SITE_ORIGIN, '"><script>'));
    expect(boot.state).toBe('ok');
    expect(boot.instanceId).toBeUndefined();
  });

  it('the operator name cannot break out of the boot block', async () => {
    const evil = '</script><script>alert(1)</script> & <!--';
    const id = await seedOperator(h.prisma, { name: evil });
    const key = await seedKey(h.prisma, id, 'test');
    const res = await frame(key);
    const boot = expectDocument(res);
    expect(boot.operatorName).toBe(evil);
    expect(res.text).not.toContain('</script><script>alert');
  });

  it('with the Stripe provider: Stripe hosts in script-src, connect-src, frame-src, and the publishable key of the mode', async () => {
    const app = h.rebuild({
      payments: { provider: 'stripe', stripePublishableKeys: { test: 'pk_test_abc', live: 'pk_live_xyz' } },
    });
    const live = await frame(liveKey, SITE_ORIGIN, 'w1', app);
    const csp = cspOf(live.headers['content-security-policy']);
    expect(csp.get('script-src')).toEqual(["'self'", 'https://js.stripe.com']);
    expect(csp.get('connect-src')).toEqual([EMBED_ORIGIN, 'https://api.stripe.com']);
    expect(csp.get('frame-src')).toEqual(['https://js.stripe.com', 'https://hooks.stripe.com']);
    expect(csp.get('default-src')).toEqual(["'none'"]);
    expect(bootOf(live.text).payments).toEqual({ provider: 'stripe', stripePublishableKey: 'pk_live_xyz' });
    expect(bootOf((await frame(testKey, SITE_ORIGIN, 'w1', app)).text).payments).toEqual({
      provider: 'stripe',
      stripePublishableKey: 'pk_test_abc',
    });
  });

  it('allowedTier is the operator integration tier (1 when the provider has not raised it)', async () => {
    const id = await seedOperator(h.prisma, { integrationTier: 1 });
    const key = await seedKey(h.prisma, id, 'test');
    expect(bootOf((await frame(key)).text).allowedTier).toBe(1);
  });
});

describe('GET /frame: refused', () => {
  async function expectUnauthorized(res: request.Response, pk: string) {
    const boot = expectDocument(res);
    // A refusal document shows no data, so any page may frame it and learn why (quote.error to `parent` only).
    expect(ancestors(res)).toEqual(['*']);
    expect(boot).toEqual({
      kind: 'frame',
      locale: 'en',
      state: 'refused',
      refusal: { code: 'unauthorized', message: expect.any(String) },
      publishableKey: pk,
      instanceId: 'w1',
      parentOrigin: SITE_ORIGIN,
      embedUrl: EMBED_URL,
      allowedTier: 1,
      payments: { provider: 'simulated' },
      version: '1.0.0',
    });
    expect(res.text).not.toContain('Polar Voyages');
  }

  it('unknown key', async () => {
    const key = mintPublishableKey('test');
    await expectUnauthorized(await frame(key), key);
  });

  it('missing, blank or malformed key (never echoed)', async () => {
    await expectUnauthorized(await frame(undefined), '');
    await expectUnauthorized(await frame('  '), '');
    await expectUnauthorized(await frame('sk_op_test_0123'), '');
  });

  it('revoked key, and a rotated key past its grace expiry', async () => {
    const revoked = await seedKey(h.prisma, operatorId, 'test', { revokedAt: new Date('2026-01-01T00:00:00Z') });
    const expired = await seedKey(h.prisma, operatorId, 'live', { expiresAt: new Date(h.clock.now().getTime() - 1) });
    await expectUnauthorized(await frame(revoked), revoked);
    await expectUnauthorized(await frame(expired), expired);
  });

  it('suspended or pending operator', async () => {
    for (const status of ['suspended', 'pending'] as const) {
      const id = await seedOperator(h.prisma, { status });
      const key = await seedKey(h.prisma, id, 'test');
      await expectUnauthorized(await frame(key), key);
    }
  });

  it('live key whose operator has embedding disabled (its test key still works)', async () => {
    const id = await seedOperator(h.prisma, { embeddingEnabled: false });
    const live = await seedKey(h.prisma, id, 'live');
    const test = await seedKey(h.prisma, id, 'test');
    await expectUnauthorized(await frame(live), live);
    expect(bootOf((await frame(test)).text).state).toBe('ok');
  });

  it('revocation takes effect within the key cache bound (5 s)', async () => {
    const key = await seedKey(h.prisma, operatorId, 'test');
    expect(bootOf((await frame(key)).text).state).toBe('ok');
    await h.prisma.publishableKey.update({ where: { key }, data: { revokedAt: h.clock.now() } });
    h.clock.advance(5_000);
    await expectUnauthorized(await frame(key), key);
  });

  it('parent not allowed for the key: origin_not_allowed, and frame-ancestors still only the key origins', async () => {
    const res = await frame(liveKey, OTHER_SITE_ORIGIN);
    const boot = expectDocument(res);
    expect(ancestors(res).sort()).toEqual([SITE_ORIGIN, WWW_SITE_ORIGIN].sort());
    expect(boot).toMatchObject({
      state: 'refused',
      refusal: { code: 'origin_not_allowed' },
      parentOrigin: OTHER_SITE_ORIGIN,
      allowedTier: 1,
    });
    expect(boot.mode).toBeUndefined();
    expect(boot.operatorName).toBeUndefined();
  });

  it('a live key is not framed by the portal (dashboard origins are for test keys only)', async () => {
    const res = await frame(liveKey, PORTAL_ORIGIN);
    expect(bootOf(res.text).refusal?.code).toBe('origin_not_allowed');
    expect(ancestors(res)).not.toContain(PORTAL_ORIGIN);
  });

  it('missing or unusable parent: origin_not_allowed', async () => {
    const missing = bootOf((await request(h.app).get(`/frame?pk=${testKey}&instance=w1`)).text);
    expect(missing.refusal?.code).toBe('origin_not_allowed');
    for (const parent of ['', 'null', 'https://tours.example/path', 'javascript:alert(1)']) {
      const boot = bootOf((await frame(testKey, parent)).text);
      expect(boot.refusal?.code).toBe('origin_not_allowed');
      expect(boot.parentOrigin).toBeUndefined();
    }
  });

  it("a key with no allowed origin at all: frame-ancestors 'none'", async () => {
    const id = await seedOperator(h.prisma, { origins: [] });
    const key = await seedKey(h.prisma, id, 'live');
    expect(ancestors(await frame(key))).toEqual(["'none'"]);
  });

  it('an allowed origin that would inject CSP syntax is left out of frame-ancestors', async () => {
    const id = await seedOperator(h.prisma, { origins: [SITE_ORIGIN, 'https://evil.example;script-src'] });
    const key = await seedKey(h.prisma, id, 'live');
    const res = await frame(key);
    expect(ancestors(res)).toEqual([SITE_ORIGIN]);
    expect(cspOf(res.headers['content-security-policy']).get('script-src')).toEqual(["'self'"]);
  });

  it('a key-store outage is a 500, never a refusal that looks like a revoked key', async () => {
    const app = h.rebuild({ resolveKey: () => Promise.reject(new Error('database unavailable')) });
    const res = await frame(testKey, SITE_ORIGIN, 'w1', app);
    expect(res.status).toBe(500);
    expect(res.text).not.toContain('database unavailable');
  });
});

describe('GET /quote (hosted Tier 1 page)', () => {
  it("serves kind 'hosted' with frame-ancestors 'none', X-Frame-Options DENY and the query prefill", async () => {
    const res = await request(h.app).get(
      `/quote?pk=${liveKey}&destination=Antarctica&startDate=2027-01-10&endDate=2027-01-24&travelers=2&tripCost=24000&residence=us&state=ca&currency=usd&ignored=1`,
    );
    const boot = expectDocument(res);
    expect(ancestors(res)).toEqual(["'none'"]);
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.text).toContain('<title>Travel insurance · Polar Voyages</title>');
    expect(boot).toEqual({
      kind: 'hosted',
      locale: 'en',
      state: 'ok',
      publishableKey: liveKey,
      embedUrl: EMBED_URL,
      mode: 'live',
      allowedTier: 2,
      payments: { provider: 'simulated' },
      version: '1.0.0',
      operatorName: 'Polar Voyages',
      prefill: {
        destination: 'Antarctica',
        startDate: '2027-01-10',
        endDate: '2027-01-24',
        travelers: 2,
        tripCost: 24000,
        residence: 'US',
        state: 'CA',
        currency: 'USD',
      },
    });
  });

  it("is in the language of ?locale=, else the browser's Accept-Language, and preloads only that language's texts and what they import", async () => {
    const de = await request(h.app).get(`/quote?pk=${liveKey}&locale=de-AT`).set('Accept-Language', 'fr');
    expect(de.headers['content-language']).toBe('de');
    expect(de.text).toContain('<html lang="de">');
    expect(de.text).toContain('<title>Reiseversicherung · Polar Voyages</title>');
    expect(de.text).toContain(`<link rel="modulepreload" href="/assets/${FRAME_TEXTS_DE}">`);
    // The chunk the texts import (the manifest's `imports`): without it, the first render waits for one more fetch.
    expect(de.text).toContain(`<link rel="modulepreload" href="/assets/${FRAME_TEXTS_SHARED}">`);
    expect(expectDocument(de).locale).toBe('de');
    const fr = await request(h.app).get(`/quote?pk=${liveKey}`).set('Accept-Language', 'fr-CH, de;q=0.5');
    expect(expectDocument(fr).locale).toBe('fr');
    expect(fr.text).toContain('<html lang="fr">');
    expect(fr.text).not.toContain('modulepreload'); // this fake build has German texts only
    const frame = await request(h.app)
      .get(`/frame?pk=${liveKey}&parent=${encodeURIComponent(SITE_ORIGIN)}&instance=w1`)
      .set('Accept-Language', 'es');
    expect(bootOf(frame.text).locale).toBe('es');
  });

  it('drops invalid prefill values rather than failing', async () => {
    const boot = bootOf(
      (
        await request(h.app).get(
          `/quote?pk=${testKey}&travelers=0&tripCost=-5&startDate=2027-13-45&residence=USA&destination=`,
        )
      ).text,
    );
    expect(boot.state).toBe('ok');
    expect(boot.prefill).toBeUndefined();
  });

  it('refuses an unknown or revoked key with a document that shows no data', async () => {
    const res = await request(h.app).get(`/quote?pk=${mintPublishableKey('live')}`);
    const boot = expectDocument(res);
    expect(ancestors(res)).toEqual(["'none'"]);
    expect(boot).toMatchObject({ kind: 'hosted', state: 'refused', refusal: { code: 'unauthorized' }, allowedTier: 1 });
    expect(boot.parentOrigin).toBeUndefined();
  });
});

describe('GET /assets/<file>', () => {
  it('serves files of the frame manifest, immutable, with their content type', async () => {
    const js = await request(h.app).get(`/assets/${FRAME_SCRIPT}`);
    expect(js.status).toBe(200);
    expect(js.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(js.headers['content-type']).toMatch(/^(text|application)\/javascript; charset=utf-8$/);
    expect(js.headers['x-content-type-options']).toBe('nosniff');
    const chunk = await request(h.app).get(`/assets/${FRAME_CHUNK}`);
    expect(chunk.status).toBe(200);
    const css = await request(h.app).get(`/assets/${FRAME_CSS}`);
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(css.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it.each([
    '/assets/unknown-0000000000.js',
    '/assets/manifest.json',
    '/assets/..%2Fsecret.txt',
    '/assets/%2e%2e%2fsecret.txt',
    '/assets/..%5Csecret.txt',
    '/assets/../secret.txt',
    '/assets/.hidden.js',
    `/assets/${FRAME_SCRIPT}.br`,
    `/assets/${FRAME_CSS}.gz`,
    '/assets/',
  ])('answers 404 for %s (unknown names and traversal)', async (url) => {
    const res = await request(h.app).get(url);
    expect(res.status).toBe(404);
    expect(res.text).not.toContain('not an asset');
    expect(String(res.headers['cache-control'] ?? '')).not.toMatch(/immutable/);
  });

  it('a manifest entry whose file is missing is a 404, not a 500', async () => {
    const dirs = createBuildDirs();
    rmSync(path.join(dirs.frameDir, FRAME_CHUNK));
    const res = await request(h.rebuild({ frameDir: dirs.frameDir })).get(`/assets/${FRAME_CHUNK}`);
    expect(res.status).toBe(404);
    dirs.remove();
  });

  it('documents answer 503 while the frame is not built, and /readyz is not ready', async () => {
    const dirs = createBuildDirs();
    rmSync(path.join(dirs.frameDir, 'manifest.json'));
    const app = h.rebuild({ frameDir: dirs.frameDir });
    expect((await frame(testKey, SITE_ORIGIN, 'w1', app)).status).toBe(503);
    expect((await request(app).get(`/quote?pk=${testKey}`)).status).toBe(503);
    expect((await request(app).get('/readyz')).status).toBe(503);
    dirs.remove();
  });
});
