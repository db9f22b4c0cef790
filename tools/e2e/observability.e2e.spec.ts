import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { seriesValue } from '@expedition/observability/testing';
import { launch, waitForPolicyIssued, type Launched } from './launcher-harness';
import { freePort } from '@expedition/platform/testing';

/**
 * Metrics and traces on the all-in-one launcher (`npm start`) with METRICS_PORT and OTEL_EXPORTER_OTLP_ENDPOINT set:
 * a local OTLP/HTTP receiver (this test) captures the exported spans. One Tier 3 sale, its embed calls carrying the
 * widget's `traceparent`, must produce spans of ONE trace from the embed request to the policy.issued delivery; and
 * /metrics (its own port) must show each action. Every port is one the OS picks.
 */
const TRACE_ID = '0af7651916cd43dd8448eb211c80319c';
const WIDGET_TRACEPARENT = `00-${TRACE_ID}-b7ad6b7169203331-01`;

interface ExportedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
}

let receiver: Server;
const spans: ExportedSpan[] = [];
let platform: Launched;
let metricsPort: number;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let raw = '';
    req.on('data', (d) => (raw += d));
    req.on('end', () => {
      if (req.url === '/v1/traces') {
        const body = JSON.parse(raw) as { resourceSpans?: { scopeSpans?: { spans?: ExportedSpan[] }[] }[] };
        for (const rs of body.resourceSpans ?? [])
          for (const ss of rs.scopeSpans ?? []) spans.push(...(ss.spans ?? []));
      }
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const receiverPort = (receiver.address() as AddressInfo).port;
  metricsPort = await freePort();
  platform = await launch({
    env: { OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${receiverPort}`, METRICS_PORT: String(metricsPort) },
  });
}, 120_000);
afterAll(async () => {
  if (platform) expect(await platform.stop()).toBe(0);
  await new Promise<void>((r) => receiver.close(() => r()));
});

const metrics = async () => (await fetch(`http://localhost:${metricsPort}/metrics`)).text();

async function waitForSpan(name: string, timeoutMs = 20_000): Promise<ExportedSpan> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = spans.find((s) => s.name === name && s.traceId === TRACE_ID);
    if (found) return found;
    if (Date.now() > deadline)
      throw new Error(
        `no span "${name}" in trace ${TRACE_ID}; got: ${spans.map((s) => `${s.name}@${s.traceId}`).join(', ')}`,
      );
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('observability on npm start', () => {
  it('one Tier 3 sale is one trace: embed requests → processor event → policy.issued delivery', async () => {
    const headers = {
      'Content-Type': 'application/json',
      Origin: platform.urls.demo,
      'X-SVC-Publishable-Key': platform.demo.publishableKey,
      traceparent: WIDGET_TRACEPARENT,
    };
    const post = (path: string, body: unknown) =>
      fetch(`${platform.urls.embed}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
    const year = new Date().getUTCFullYear() + 1;
    const created = await post('/api/embed/quote', {
      destination: 'galapagos',
      tripCost: 9000,
      travelers: 1,
      travelerAges: [38],
      residence: 'DE',
      email: 'traveler@example.com',
      startDate: `${year}-03-01`,
      endDate: `${year}-03-11`,
    });
    expect(created.status).toBe(200);
    const quote = (await created.json()) as { quoteId: string };
    let ready: { options: { planId: string; isRecommended: boolean }[]; pending?: boolean } = {
      options: [],
      pending: true,
    };
    for (let i = 0; i < 50 && ready.pending; i++) {
      ready = await (
        await fetch(`${platform.urls.embed}/api/embed/options?quoteId=${quote.quoteId}`, { headers })
      ).json();
      if (ready.pending) await new Promise((r) => setTimeout(r, 200));
    }
    const option = ready.options.find((o) => o.isRecommended)!;
    const started = await post('/api/embed/payments', { quoteId: quote.quoteId, planId: option.planId });
    expect(started.status).toBe(200);
    const { paymentId } = (await started.json()) as { paymentId: string };
    const confirmed = await post('/api/embed/payments/confirm', { paymentId, paymentMethod: '4242424242424242' });
    expect((await confirmed.json()).status).toBe('succeeded');
    await waitForPolicyIssued(platform.urls.demo, quote.quoteId);

    const quoteSpan = await waitForSpan('POST /api/embed/quote');
    const paymentSpan = await waitForSpan('POST /api/embed/payments');
    const eventSpan = await waitForSpan('processor.event payment_intent.succeeded');
    const delivery = await waitForSpan('policy.issued delivery');
    // The widget's span is the parent of each embed request; the event continues the payment request's trace.
    expect(quoteSpan.parentSpanId).toBe('b7ad6b7169203331');
    expect(paymentSpan.parentSpanId).toBe('b7ad6b7169203331');
    expect(spans.filter((s) => s.traceId === TRACE_ID).map((s) => s.spanId)).toContain(eventSpan.parentSpanId);
    expect(delivery.parentSpanId).toBeTruthy();
    expect(spans.filter((s) => s.traceId === TRACE_ID).map((s) => s.spanId)).toContain(delivery.parentSpanId);
  });

  it('serves /metrics on METRICS_PORT with each action counted, routes as templates', async () => {
    const before = await metrics();
    const gate401 = seriesValue(before, 'embed_gate_decisions_total', { outcome: '401' }) ?? 0;
    const refused = await fetch(
      `${platform.urls.embed}/api/embed/options?quoteId=00000000-0000-0000-0000-000000000000`,
      { headers: { Origin: platform.urls.demo } },
    );
    expect(refused.status).toBe(401);
    const text = await metrics();
    expect(seriesValue(text, 'embed_gate_decisions_total', { outcome: '401' })).toBe(gate401 + 1);
    expect(seriesValue(text, 'embed_gate_decisions_total', { outcome: 'admitted' })).toBeGreaterThanOrEqual(4);
    expect(seriesValue(text, 'quotes_created_total', { source: 'embed' })).toBeGreaterThanOrEqual(1);
    expect(seriesValue(text, 'quote_options_lag_seconds_count')).toBeGreaterThanOrEqual(1);
    expect(
      seriesValue(text, 'payment_outcomes_total', { channel: 'embed', outcome: 'succeeded' }),
    ).toBeGreaterThanOrEqual(1);
    expect(seriesValue(text, 'webhook_delivery_attempts_total', { outcome: 'delivered' })).toBeGreaterThanOrEqual(1);
    expect(seriesValue(text, 'webhook_outbox_depth')).toBeGreaterThanOrEqual(0);
    expect(seriesValue(text, 'webhook_outbox_oldest_pending_age_seconds')).toBeGreaterThanOrEqual(0);
    expect(
      seriesValue(text, 'http_request_duration_seconds_count', {
        app: 'embed-api',
        route: '/api/embed/options',
        status: '401',
      }),
    ).toBeGreaterThanOrEqual(1);
    expect(text).not.toContain('00000000-0000-0000-0000-000000000000');
    expect(text).toContain('nodejs_eventloop_lag_seconds');
    // The app ports do not serve it: the public Ingress routes only those.
    expect((await fetch(`${platform.urls.embed}/metrics`)).status).toBe(404);
  });
});
