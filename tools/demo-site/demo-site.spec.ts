import request from 'supertest';
import { signPayload } from '@expedition/webhook-signature';
import { createDemoSite, demoCsp, DEMO_WEBHOOK_PATH, FAVICON_SVG } from './demo-site';

describe('demo operator site', () => {
  const logger = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined };
  const KEY = 'pk_op_test_' + '0'.repeat(48);
  const { app } = createDemoSite({
    widgetUrl: 'http://localhost:3003',
    publishableKey: KEY,
    webhookSecret: 'whsec_demo',
    operatorName: 'Polar Horizons Expeditions (demo)',
    logger: logger as never,
    now: () => new Date('2026-11-23T10:00:00Z'),
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
    expect(res.text).toContain(
      `<link rel="icon" type="image/svg+xml" href="data:image/svg+xml,${encodeURIComponent(FAVICON_SVG)}">`,
    );
  });

  it('sends the CSP we document for operators: the widget origin in script-src and frame-src, nothing inline', async () => {
    const res = await request(app).get('/');
    expect(res.headers['content-security-policy']).toBe(demoCsp('http://localhost:3003'));
    expect(res.headers['content-security-policy']).toContain("script-src 'self' http://localhost:3003;");
    expect(res.headers['content-security-policy']).toContain('frame-src http://localhost:3003;');
    expect(res.headers['content-security-policy']).not.toMatch(/unsafe-inline|unsafe-eval/);
    expect(res.headers['cache-control']).toBe('no-store');
    // Every script has a src, except the one non-executable JSON data block; no <style> element, no style attribute.
    const scripts = [...res.text.matchAll(/<script([^>]*)>/g)].map((m) => m[1]!.trim());
    expect(scripts).toEqual([
      'type="application/json" id="demo-config"',
      'src="http://localhost:3003/widget.js"',
      'src="/assets/demo.js" defer',
    ]);
    expect(res.text).not.toMatch(/<style|\sstyle=|\son[a-z]+=/i);
  });

  it('says as many nights as checkout counts days, and its itinerary runs from the departure to the return date', async () => {
    const { text } = await request(app).get('/');
    // 2026-11-23 + 60 days → 2027-01-22; returns 2027-02-02: checkout counts end − start = 11 days.
    expect(text).toContain('<dd>Fri, 22 Jan 2027</dd>');
    expect(text).toContain('<dd>Tue, 2 Feb 2027</dd>');
    expect(text).toContain('<p class="lede">11 nights aboard');
    expect(text).not.toMatch(/twelve days/i);
    const days = [...text.matchAll(/<strong>Days? (?:\d+–)?(\d+)<\/strong>/g)].map((m) => Number(m[1]));
    expect(Math.max(...days)).toBe(12);
  });

  it('mounts the real widget at Tier 3 by default, Tier 2 on ?tier=2, prefilled with the voyage', async () => {
    const config = (text: string) =>
      JSON.parse(/<script type="application\/json" id="demo-config">(.*?)<\/script>/s.exec(text)![1]!);
    const tier3 = await request(app).get('/');
    expect(config(tier3.text)).toEqual({
      tier: 3,
      widgetUrl: 'http://localhost:3003',
      publishableKey: KEY,
      prefill: {
        destination: 'antarctica',
        startDate: '2027-01-22',
        endDate: '2027-02-02',
        travelers: 2,
        travelerAges: [46, 71],
        tripCost: 29800,
        residence: 'GB',
        email: 'traveler@example.com',
        currency: 'USD',
      },
    });
    expect(tier3.text).toContain('<div id="svc-widget"');
    expect(tier3.text).toContain('<a href="/?tier=3" aria-current="page">');
    const tier2 = await request(app).get('/?tier=2');
    expect(config(tier2.text).tier).toBe(2);
    expect(tier2.text).toContain('<a href="/?tier=2" aria-current="page">');
    expect(config((await request(app).get('/?tier=9')).text).tier).toBe(3);
  });

  it('Tier 1 is a plain link to the hosted quote page, with no widget script', async () => {
    const res = await request(app).get('/?tier=1');
    expect(res.text).not.toContain('/widget.js');
    expect(res.text).not.toContain('id="svc-widget"');
    const href = /id="hosted-quote" href="([^"]+)"/.exec(res.text)![1]!.replace(/&#38;/g, '&');
    const url = new URL(href);
    expect(url.origin + url.pathname).toBe('http://localhost:3003/quote');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      pk: KEY,
      destination: 'antarctica',
      startDate: '2027-01-22',
      endDate: '2027-02-02',
      travelers: '2',
      tripCost: '29800',
      residence: 'GB',
    });
  });

  it('serves its script and stylesheet', async () => {
    const js = await request(app).get('/assets/demo.js');
    expect(js.status).toBe(200);
    expect(js.headers['content-type']).toMatch(/javascript/);
    expect(js.text).toContain("window.SvcWidget.mount('#svc-widget'");
    const css = await request(app).get('/assets/demo.css');
    expect(css.status).toBe(200);
    expect(css.headers['content-type']).toMatch(/^text\/css/);
  });

  it('accepts a policy.issued webhook only with a valid signature over the raw body, and deduplicates on eventId', async () => {
    const body = JSON.stringify({
      eventId: 'evt_1',
      type: 'policy.issued',
      policyNumber: 'POL-2026-ABCDEF',
      quoteId: 'q_1',
    });
    const bad = await request(app)
      .post(DEMO_WEBHOOK_PATH)
      .set('Content-Type', 'application/json')
      .set('X-SVC-Signature', 't=1,v1=00')
      .send(body);
    expect(bad.status).toBe(400);
    const header = signPayload(Buffer.from(body), 'whsec_demo', Math.floor(Date.now() / 1000));
    for (let i = 0; i < 2; i++) {
      const ok = await request(app)
        .post(DEMO_WEBHOOK_PATH)
        .set('Content-Type', 'application/json')
        .set('X-SVC-Signature', header)
        .send(body);
      expect(ok.status).toBe(200);
    }
    const list = await request(app).get('/webhooks/received');
    expect(list.body.events).toEqual([expect.objectContaining({ eventId: 'evt_1', deliveries: 2 })]);
  });
});
