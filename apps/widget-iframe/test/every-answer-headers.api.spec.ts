import request from 'supertest';
import { createBuildDirs, createHarness, PINNED_SOURCE, SITE_ORIGIN, type Harness } from './harness';

/** Every answer carries X-Content-Type-Options: nosniff (libs/http-kit security-headers.ts; docs/security.md). */

let h: Harness;
beforeAll(async () => {
  const dirs = createBuildDirs();
  dirs.publish('1.0.0', PINNED_SOURCE);
  h = await createHarness({ dirs });
});
afterAll(() => h.close());

describe('X-Content-Type-Options on every widget-iframe answer', () => {
  it.each([
    ['/widget.js', 200],
    ['/widget/1.0.0.js', 200],
    ['/widget/9.9.9.js', 404],
    [`/frame?pk=pk_test_unknown&instance=w1&parent=${encodeURIComponent(SITE_ORIGIN)}`, 200],
    ['/', 200],
    ['/healthz', 200],
    ['/no-such-route', 404],
  ] as const)('GET %s (%i) carries nosniff', async (path, status) => {
    const res = await request(h.app).get(path);
    expect(res.status).toBe(status);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });
});
