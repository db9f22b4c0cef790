import { mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { createTestClock } from '@expedition/platform/testing';
import { createOutboxMailer } from '../src/mail/mailer';
import { createUiAssets } from '../src/spa/spa.router';
import { API, PortalClient, createPortalHarness, signUp, type PortalHarness } from './harness';

function fakeUiBuild(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'portal-ui-build-'));
  writeFileSync(path.join(dir, 'main-abc123.js'), 'console.log("portal")');
  writeFileSync(path.join(dir, 'portal-def456.css'), 'body{}');
  mkdirSync(path.join(dir, 'chunks'));
  writeFileSync(path.join(dir, 'chunks', 'page-1a2b.js'), 'export {}');
  writeFileSync(path.join(dir, 'secret.txt'), 'not listed');
  writeFileSync(
    path.join(dir, 'manifest.json'),
    JSON.stringify({
      entries: { main: 'main-abc123.js' },
      css: { portal: 'portal-def456.css' },
      files: {
        'main-abc123.js': { bytes: 22 },
        'portal-def456.css': { bytes: 6 },
        'chunks/page-1a2b.js': { bytes: 9 },
      },
    }),
  );
  return dir;
}

describe('the SPA', () => {
  let h: PortalHarness;
  beforeAll(async () => {
    h = await createPortalHarness({ deps: { ui: createUiAssets(fakeUiBuild()) } });
  });
  afterAll(() => h.close());

  it.each(['/', '/keys', '/admin/operators/123', '/verify-email?token=ev_x'])(
    'GET %s → the HTML shell, no-cache, strict CSP',
    async (url) => {
      const res = await request(h.app).get(url).set('Accept', 'text/html');
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers['content-security-policy']).toContain("script-src 'self'");
      expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(res.text).toContain('<script type="module" src="/assets/main-abc123.js"></script>');
      expect(res.text).toContain('<link rel="stylesheet" href="/assets/portal-def456.css">');
      expect(res.text).toContain('<div id="app"></div>');
      expect(res.text).not.toMatch(/<script>|<style|style=/);
    },
  );

  it('/assets/* serves listed files immutable, with the right type', async () => {
    const js = await request(h.app).get('/assets/main-abc123.js');
    expect(js.status).toBe(200);
    expect(js.headers['content-type']).toMatch(/javascript/);
    expect(js.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const css = await request(h.app).get('/assets/portal-def456.css');
    expect(css.headers['content-type']).toMatch(/text\/css/);
    expect((await request(h.app).get('/assets/chunks/page-1a2b.js')).status).toBe(200);
  });

  it('/assets/* is 404 for unlisted files, the manifest and traversal attempts', async () => {
    for (const url of [
      '/assets/secret.txt',
      '/assets/manifest.json',
      '/assets/nope-123.js',
      '/assets/..%2Fmanifest.json',
      '/assets/../package.json',
    ]) {
      const res = await request(h.app).get(url);
      expect(res.status).toBe(404);
      expect(res.headers['cache-control']).not.toMatch(/immutable/);
    }
  });

  it('says so plainly when the UI is not built', async () => {
    const bare = await createPortalHarness({ db: h.db });
    const res = await request(bare.app).get('/').set('Accept', 'text/html');
    expect(res.status).toBe(200);
    expect(res.text).toContain('portal-ui:bundle');
  });

  it('API paths never fall through to the shell', async () => {
    const res = await request(h.app).get(`${API}/unknown`).set('Accept', 'text/html');
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
  });
});

describe('mail outbox (embedded mode)', () => {
  it('writes JSON + EML files (0600) and lists them newest first with their links', async () => {
    const dir = path.join(mkdtempSync(path.join(tmpdir(), 'outbox-')), 'outbox');
    const clock = createTestClock();
    const outbox = createOutboxMailer({ dir, from: 'Portal <no-reply@example.com>', clock });
    await outbox.send({
      to: 'a@example.com',
      subject: 'First',
      text: 'Open http://portal.test/verify-email?token=ev_1 now',
    });
    clock.advance(1000);
    await outbox.send({ to: 'b@example.com', subject: 'Second', text: 'No link' });
    const mails = outbox.list();
    expect(mails.map((m) => m.subject)).toEqual(['Second', 'First']);
    expect(mails[1]!.links).toEqual(['http://portal.test/verify-email?token=ev_1']);
    const json = path.join(dir, `${mails[1]!.id}.json`);
    const eml = path.join(dir, `${mails[1]!.id}.eml`);
    expect(statSync(json).mode & 0o777).toBe(0o600);
    expect(statSync(eml).mode & 0o777).toBe(0o600);
    const rendered = readFileSync(eml, 'utf8');
    expect(rendered).toContain('Subject: First');
    expect(rendered).toContain('To: a@example.com');
  });

  it('GET /dev/outbox (page) and /api/portal/v1/dev/outbox (JSON) list the mails; 404 without an outbox (production)', async () => {
    const dir = path.join(mkdtempSync(path.join(tmpdir(), 'outbox-')), 'outbox');
    const clock = createTestClock();
    const outbox = createOutboxMailer({ dir, from: 'Portal <no-reply@example.com>', clock });
    const h = await createPortalHarness({ deps: { mailer: outbox, outbox: { list: () => outbox.list(), dir } } });
    try {
      const { email } = await signUp(h);
      const json = await request(h.app).get(`${API}/dev/outbox`);
      expect(json.status).toBe(200);
      expect(json.body.mails[0]).toMatchObject({ to: email, subject: 'Confirm your e-mail address' });
      expect(json.body.mails[0].links[0]).toMatch(/\/verify-email\?token=ev_/);

      const page = await request(h.app).get('/dev/outbox');
      expect(page.status).toBe(200);
      expect(page.headers['content-type']).toMatch(/text\/html/);
      // Its own CSP: no script at all, and frames only the mails' HTML parts of this origin.
      expect(page.headers['content-security-policy']).toContain("default-src 'none'");
      expect(page.headers['content-security-policy']).toContain("frame-src 'self'");
      expect(page.headers['content-security-policy']).not.toContain('script-src');
      expect(page.text).toContain(email);
      expect(page.text).toMatch(/<a href="http:\/\/portal\.test:3004\/verify-email\?token=ev_[^"]+">/);
      expect(page.text).not.toMatch(/<script|style=/);

      // The link works: verification through the API with the token from the outbox.
      const token = /token=([A-Za-z0-9_-]+)/.exec(json.body.mails[0].links[0])![1];
      expect((await new PortalClient(h.app).post(`${API}/auth/verify-email`, { token })).status).toBe(200);
    } finally {
      await h.close();
    }
    const production = await createPortalHarness();
    try {
      expect((await request(production.app).get(`${API}/dev/outbox`)).status).toBe(404);
      const page = await request(production.app).get('/dev/outbox').set('Accept', 'application/json');
      expect(page.status).toBe(404);
    } finally {
      await production.close();
    }
  });

  it('escapes mail content on the page', async () => {
    const dir = path.join(mkdtempSync(path.join(tmpdir(), 'outbox-')), 'outbox');
    const outbox = createOutboxMailer({ dir, from: 'p@example.com', clock: createTestClock() });
    await outbox.send({
      to: 'x@example.com',
      subject: '<img src=x onerror=alert(1)>',
      text: '"><script>alert(1)</script>',
    });
    const h = await createPortalHarness({ deps: { outbox: { list: () => outbox.list(), dir } } });
    try {
      const page = await request(h.app).get('/dev/outbox');
      expect(page.text).not.toContain('<img src=x');
      expect(page.text).not.toContain('<script>alert');
      expect(page.text).toContain('&lt;script&gt;');
    } finally {
      await h.close();
    }
  });
});
