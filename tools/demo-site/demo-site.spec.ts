import request from 'supertest';
import { createDemoSite, FAVICON_SVG } from './demo-site';

describe('demo operator site', () => {
  const logger = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined };
  const { app } = createDemoSite({
    embedUrl: 'http://localhost:3002',
    publishableKey: 'pk_op_test_' + '0'.repeat(48),
    webhookSecret: 'whsec_demo',
    operatorName: 'Polar Horizons Expeditions (demo)',
    logger: logger as never,
  });

  it('answers /favicon.ico with its icon instead of a 404', async () => {
    const res = await request(app).get('/favicon.ico');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(res.body.toString()).toBe(FAVICON_SVG);
  });

  it('links the same icon from its page, so browsers need no request for it', async () => {
    const res = await request(app).get('/');
    expect(res.status).toBe(200);
    expect(res.text).toContain(`<link rel="icon" type="image/svg+xml" href="data:image/svg+xml,${encodeURIComponent(FAVICON_SVG)}">`);
  });
});
