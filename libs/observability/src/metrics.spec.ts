import express, { Router, type RequestHandler } from 'express';
import request from 'supertest';
import { countGateDecisions, countQuotesCreated, requestMetrics, startMetricsServer, UNMATCHED_ROUTE } from './http';
import { createMetrics, type Metrics } from './metrics';
import { observe } from './observability';
import { seriesValue as series } from './testing';

const fresh = () => createMetrics({ service: 'test-app', defaultMetrics: false });
const text = (m: Metrics) => m.registry.metrics();

function appWith(metrics: Metrics) {
  const app = express();
  app.use(requestMetrics(metrics, 'demo'));
  app.get('/healthz', (_req, res) => void res.json({ status: 'ok' }));
  app.get('/api/v1/quotes/:quoteId', (req, res) => void res.json({ id: req.params.quoteId }));
  const mounted = Router();
  mounted.get('/things/:thingId', (_req, res) => void res.status(201).end());
  app.use('/api/embed', mounted);
  app.post(['/processor/events', '/stripe/webhook'], (_req, res) => void res.status(202).end());
  return app;
}

describe('request metrics', () => {
  it('labels durations by route template and status, never by the raw path', async () => {
    const m = fresh();
    const app = appWith(m);
    await request(app).get('/api/v1/quotes/q_secret123').expect(200);
    await request(app).get('/api/embed/things/cs_token_abc').expect(201);
    await request(app).get('/nope/pk_test_leaky').expect(404);
    await request(app).post('/stripe/webhook').expect(202);
    const out = await text(m);
    expect(
      series(out, 'http_request_duration_seconds_count', {
        app: 'demo',
        method: 'GET',
        route: '/api/v1/quotes/:quoteId',
        status: '200',
        service: 'test-app',
      }),
    ).toBe(1);
    expect(
      series(out, 'http_request_duration_seconds_count', { route: '/api/embed/things/:thingId', status: '201' }),
    ).toBe(1);
    expect(series(out, 'http_request_duration_seconds_count', { route: UNMATCHED_ROUTE, status: '404' })).toBe(1);
    expect(
      series(out, 'http_request_duration_seconds_count', { route: '/processor/events|/stripe/webhook', status: '202' }),
    ).toBe(1);
    for (const raw of ['q_secret123', 'cs_token_abc', 'pk_test_leaky', '/nope']) expect(out).not.toContain(raw);
  });

  it('observe() mounts nothing when neither metrics nor tracing is on', () => {
    expect(observe(undefined, 'x')).toEqual([]);
    expect(
      observe(
        {
          metrics: undefined,
          tracing: { enabled: false, forceFlush: async () => undefined, shutdown: async () => undefined },
        },
        'x',
      ),
    ).toEqual([]);
    expect(observe({ metrics: fresh() }, 'x')).toHaveLength(1);
  });
});

describe('embed gate decisions', () => {
  /** A stand-in gate with the real gate's contract: next() to admit, a bare status otherwise. */
  const gate: RequestHandler = async (req, res, next) => {
    const key = req.get('x-key');
    if (!key) return void res.status(401).send('Unauthorized');
    if (key === 'wrong-origin') return void res.status(403).send('Forbidden');
    if (key === 'busy') return void res.status(429).send('Too Many Requests');
    next();
  };

  it('counts 401, 403, 429 and admitted requests; preflights are not decisions', async () => {
    const m = fresh();
    const app = express();
    app.use(countGateDecisions(gate, m));
    app.all('/x', (_req, res) => void res.status(200).end());
    await request(app).get('/x').expect(401);
    await request(app).get('/x').set('x-key', 'wrong-origin').expect(403);
    await request(app).get('/x').set('x-key', 'busy').expect(429);
    await request(app).get('/x').set('x-key', 'busy').expect(429);
    await request(app).get('/x').set('x-key', 'ok').expect(200);
    await request(app).options('/x');
    const out = await text(m);
    expect(series(out, 'embed_gate_decisions_total', { outcome: '401', service: 'test-app' })).toBe(1);
    expect(series(out, 'embed_gate_decisions_total', { outcome: '403', service: 'test-app' })).toBe(1);
    expect(series(out, 'embed_gate_decisions_total', { outcome: '429', service: 'test-app' })).toBe(2);
    expect(series(out, 'embed_gate_decisions_total', { outcome: 'admitted', service: 'test-app' })).toBe(1);
  });

  it('returns the gate itself when metrics are off', () => {
    expect(countGateDecisions(gate, undefined)).toBe(gate);
  });
});

describe('domain counters', () => {
  it('counts created quotes only on the success statuses', async () => {
    const m = fresh();
    const app = express();
    app.post(
      '/q',
      ...countQuotesCreated(m, 'embed', [200]),
      (req, res) => void res.status(req.query['bad'] ? 400 : 200).end(),
    );
    await request(app).post('/q').expect(200);
    await request(app).post('/q?bad=1').expect(400);
    expect(series(await text(m), 'quotes_created_total', { source: 'embed' })).toBe(1);
  });

  it('keeps payment channel labels bounded and records options lag and delivery outcomes', async () => {
    const m = fresh();
    m.paymentOutcome('embed', 'succeeded', 'live');
    m.paymentOutcome('<script>', 'failed', 'test');
    m.fulfillment('policy_issued', 'live');
    m.optionsReady(0.3);
    m.deliveryAttempt('retry', 'op_1');
    const out = await text(m);
    expect(
      series(out, 'payment_outcomes_total', {
        channel: 'embed',
        outcome: 'succeeded',
        mode: 'live',
        service: 'test-app',
      }),
    ).toBe(1);
    expect(
      series(out, 'payment_fulfillments_total', { result: 'policy_issued', mode: 'live', service: 'test-app' }),
    ).toBe(1);
    expect(series(out, 'payment_outcomes_total', { channel: 'other', outcome: 'failed', service: 'test-app' })).toBe(1);
    expect(out).not.toContain('<script>');
    expect(series(out, 'quote_options_lag_seconds_bucket', { le: '0.5', service: 'test-app' })).toBe(1);
    expect(
      series(out, 'webhook_delivery_attempts_total', { outcome: 'retry', operator: 'op_1', service: 'test-app' }),
    ).toBe(1);
  });

  it('reports a Redis fallback while it lasts', async () => {
    const m = fresh();
    expect(series(await text(m), 'redis_fallback_active', { service: 'test-app' })).toBe(0);
    m.redisFallback(true);
    expect(series(await text(m), 'redis_fallback_active', { service: 'test-app' })).toBe(1);
    m.redisFallback(false);
    expect(series(await text(m), 'redis_fallback_active', { service: 'test-app' })).toBe(0);
  });

  it('pings the database at scrape time: 1 when it answers, 0 when it fails; a second watch is ignored', async () => {
    const m = fresh();
    let down = false;
    m.watchDatabase(() => (down ? Promise.reject(new Error('ECONNREFUSED')) : Promise.resolve()));
    m.watchDatabase(() => Promise.reject(new Error('never asked')));
    expect(series(await text(m), 'database_up', { service: 'test-app' })).toBe(1);
    down = true;
    expect(series(await text(m), 'database_up', { service: 'test-app' })).toBe(0);
  });

  it('samples the backlog once per scrape for every gauge, and keeps the last values when sampling fails', async () => {
    const m = fresh();
    let calls = 0;
    let fail = false;
    const errors: unknown[] = [];
    m.sampleBacklog(
      async () => {
        calls += 1;
        if (fail) throw new Error('db down');
        return {
          webhooks: { depth: 7, oldestPendingAgeSec: 42.5 },
          mails: { depth: 2, oldestPendingAgeSec: 30 },
          paymentsWithoutPolicy: 1,
          refunds: { pending: 3, failed: 4 },
        };
      },
      (err) => errors.push(err),
    );
    const out = await text(m);
    expect(series(out, 'webhook_outbox_depth', { service: 'test-app' })).toBe(7);
    expect(series(out, 'webhook_outbox_oldest_pending_age_seconds', { service: 'test-app' })).toBe(42.5);
    expect(series(out, 'policy_mail_outbox_depth', { service: 'test-app' })).toBe(2);
    expect(series(out, 'policy_mail_oldest_pending_age_seconds', { service: 'test-app' })).toBe(30);
    expect(series(out, 'payments_succeeded_without_policy', { service: 'test-app' })).toBe(1);
    expect(series(out, 'payment_refunds_pending', { service: 'test-app' })).toBe(3);
    expect(series(out, 'payment_refunds_failed', { service: 'test-app' })).toBe(4);
    expect(calls).toBe(1);
    fail = true;
    await new Promise((r) => setImmediate(r));
    const after = await text(m);
    expect(calls).toBe(2);
    expect(series(after, 'webhook_outbox_depth', { service: 'test-app' })).toBe(7);
    expect(errors).toHaveLength(1);
  });
});

describe('metrics server', () => {
  it('serves GET /metrics in Prometheus text on its own port, and nothing else', async () => {
    const m = createMetrics({ service: 'served' });
    const server = await startMetricsServer(m, { port: 0, host: '127.0.0.1' });
    try {
      const res = await fetch(server.url);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/plain');
      const body = await res.text();
      expect(body).toContain('# TYPE process_cpu_user_seconds_total counter');
      expect(body).toContain('# TYPE http_request_duration_seconds histogram');
      expect((await fetch(server.url.replace('/metrics', '/'))).status).toBe(404);
      expect((await fetch(server.url, { method: 'POST' })).status).toBe(404);
    } finally {
      await server.close();
    }
  });
});
