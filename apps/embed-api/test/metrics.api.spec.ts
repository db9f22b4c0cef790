import request from 'supertest';
import { createOptionsWorker } from '@expedition/quoting';
import { createMetrics, type Metrics } from '@expedition/observability';
import { seriesValue } from '@expedition/observability/testing';
import { createRateLimiter } from '@expedition/platform';
import { createHarness, fullQuote, OTHER_SITE_ORIGIN, seedTenant, SITE_ORIGIN, type Harness } from './harness';

let h: Harness;
let metrics: Metrics;
let tenant: Awaited<ReturnType<typeof seedTenant>>;

beforeAll(async () => {
  metrics = createMetrics({ service: 'embed-api', defaultMetrics: false });
  // A budget of 3 per key, so a 429 is one request away.
  h = await createHarness({
    rateLimiter: createRateLimiter({ points: 3, durationSec: 60 }),
    deps: { observability: { metrics } },
  });
  tenant = await seedTenant(h.prisma);
});
afterAll(() => h.close());

const value = async (name: string, labels: Record<string, string> = {}) =>
  seriesValue(await metrics.registry.metrics(), name, labels) ?? 0;
const create = (key: string, origin = SITE_ORIGIN) =>
  request(h.app).post('/api/embed/quote').set('X-SVC-Publishable-Key', key).set('Origin', origin).send(fullQuote);

describe('embed-api metrics', () => {
  it('counts each gate decision, the quote created and labels requests by route template', async () => {
    const created = await create(tenant.testKey);
    expect(created.status).toBe(200);
    expect(await value('embed_gate_decisions_total', { outcome: 'admitted' })).toBe(1);
    expect(await value('quotes_created_total', { source: 'embed' })).toBe(1);

    expect((await create('pk_test_unknownunknownunknown12')).status).toBe(401);
    expect(await value('embed_gate_decisions_total', { outcome: '401' })).toBe(1);

    expect((await create(tenant.testKey, OTHER_SITE_ORIGIN)).status).toBe(403);
    expect(await value('embed_gate_decisions_total', { outcome: '403' })).toBe(1);

    const quoteId: string = created.body.quoteId;
    const poll = () =>
      request(h.app)
        .get(`/api/embed/options?quoteId=${quoteId}`)
        .set('X-SVC-Publishable-Key', tenant.testKey)
        .set('Origin', SITE_ORIGIN);
    expect((await poll()).status).toBe(200);
    expect((await poll()).status).toBe(200);
    expect((await poll()).status).toBe(429);
    expect(await value('embed_gate_decisions_total', { outcome: '429' })).toBe(1);
    expect(await value('embed_gate_decisions_total', { outcome: 'admitted' })).toBe(3);
    // Refused by the gate: not a created quote.
    expect(await value('quotes_created_total', { source: 'embed' })).toBe(1);

    const text = await metrics.registry.metrics();
    expect(
      seriesValue(text, 'http_request_duration_seconds_count', {
        app: 'embed-api',
        method: 'GET',
        route: '/api/embed/options',
        status: '429',
      }),
    ).toBe(1);
    expect(text).not.toContain(quoteId);
    expect(text).not.toContain(tenant.testKey);
  });

  it('observes the options lag when the worker makes a quote ready', async () => {
    const other = await seedTenant(h.prisma);
    expect((await create(other.testKey)).status).toBe(200);
    // Quotes are stamped by the database's clock; the worker reads its own, here 1.2 s ahead of it.
    const worker = createOptionsWorker({
      prisma: h.prisma,
      clock: { now: () => new Date(Date.now() + 1_200) },
      onReady: metrics.optionsReady,
    });
    expect((await worker.runOnce()).outcomes.ready).toBeGreaterThanOrEqual(1);
    const text = await metrics.registry.metrics();
    expect(seriesValue(text, 'quote_options_lag_seconds_count')).toBeGreaterThanOrEqual(1);
    expect(seriesValue(text, 'quote_options_lag_seconds_bucket', { le: '1' })).toBe(0);
    expect(seriesValue(text, 'quote_options_lag_seconds_bucket', { le: '30' })).toBeGreaterThanOrEqual(1);
  });
});
