import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import request from 'supertest';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace';
import { observe } from './observability';
import { activeTraceparent, inSpan, startTracing, tracingEnabled, type Tracing } from './tracing';

const CALLER = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-0[01]$/;

function tracedApp(tracing: Tracing) {
  const app = express();
  for (const h of observe({ tracing }, 'demo')) app.use(h);
  app.get('/healthz', (_req, res) => void res.json({ status: 'ok' }));
  app.get('/api/things/:id', async (_req, res) => {
    // Work done deeper in the request (a lib, after an await) sees the request's span.
    await new Promise((r) => setImmediate(r));
    const inner = await inSpan('lookup', {}, async () => activeTraceparent());
    res.json({ current: activeTraceparent(), inner });
  });
  return app;
}

describe('tracing off (no OTEL_EXPORTER_OTLP_ENDPOINT)', () => {
  it('loads no SDK, mounts no middleware and creates no spans', async () => {
    jest.isolateModules(() => {
      for (const sdk of [
        '@opentelemetry/sdk-trace',
        '@opentelemetry/exporter-trace-otlp-http',
        '@opentelemetry/context-async-hooks',
      ]) {
        jest.doMock(sdk, () => {
          throw new Error(`${sdk} was loaded while tracing is off`);
        });
      }
      const isolated = require('./tracing') as typeof import('./tracing');
      const off = isolated.startTracing({ serviceName: 'x', endpoint: undefined });
      expect(off.enabled).toBe(false);
      expect(isolated.tracingEnabled()).toBe(false);
    });
    for (const sdk of [
      '@opentelemetry/sdk-trace',
      '@opentelemetry/exporter-trace-otlp-http',
      '@opentelemetry/context-async-hooks',
    ])
      jest.dontMock(sdk);
    const off = startTracing({ serviceName: 'x' });
    expect(observe({ tracing: off }, 'demo')).toEqual([]);
    const res = await request(tracedApp(off)).get('/api/things/1').set('traceparent', CALLER).expect(200);
    expect(res.body).toEqual({});
    expect(await inSpan('work', { parent: CALLER }, async () => activeTraceparent())).toBeUndefined();
  });
});

describe('tracing on', () => {
  let exporter: InMemorySpanExporter;
  let tracing: Tracing;
  beforeEach(() => {
    exporter = new InMemorySpanExporter();
    tracing = startTracing({ serviceName: 'test', exporter });
  });
  afterEach(() => tracing.shutdown());

  it("continues the caller's traceparent in a server span named by route template, visible to nested work", async () => {
    expect(tracingEnabled()).toBe(true);
    const res = await request(tracedApp(tracing)).get('/api/things/secret-id').set('traceparent', CALLER).expect(200);
    await tracing.forceFlush();
    const spans = exporter.getFinishedSpans();
    const server = spans.find((s) => s.name === 'GET /api/things/:id')!;
    expect(server).toBeDefined();
    expect(server.spanContext().traceId).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
    expect(server.parentSpanContext?.spanId).toBe('00f067aa0ba902b7');
    expect(server.attributes['http.route']).toBe('/api/things/:id');
    expect(res.body.current).toBe(`00-${server.spanContext().traceId}-${server.spanContext().spanId}-01`);
    const lookup = spans.find((s) => s.name === 'lookup')!;
    expect(lookup.parentSpanContext?.spanId).toBe(server.spanContext().spanId);
    expect(spans.map((s) => s.name).join(' ')).not.toContain('secret-id');
  });

  it('starts a new trace when the caller sends none (or a malformed one), and does not trace health probes', async () => {
    const app = tracedApp(tracing);
    const a = await request(app).get('/api/things/1').expect(200);
    const b = await request(app).get('/api/things/2').set('traceparent', 'garbage').expect(200);
    await request(app).get('/healthz').expect(200);
    expect(a.body.current).toMatch(TRACEPARENT);
    expect(b.body.current).toMatch(TRACEPARENT);
    expect(TRACEPARENT.exec(a.body.current)![1]).not.toBe(TRACEPARENT.exec(b.body.current)![1]);
    await tracing.forceFlush();
    expect(exporter.getFinishedSpans().filter((s) => s.name.includes('healthz'))).toEqual([]);
  });

  it("continues a stored traceparent (an outbox row, an event's metadata) in a new span and records errors", async () => {
    const seen = await inSpan('deliver', { parent: CALLER, kind: 'client' }, async () => activeTraceparent());
    expect(TRACEPARENT.exec(seen!)![1]).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
    await expect(inSpan('boom', {}, async () => Promise.reject(new Error('nope')))).rejects.toThrow('nope');
    await tracing.forceFlush();
    const boom = exporter.getFinishedSpans().find((s) => s.name === 'boom')!;
    expect(boom.status.code).toBe(2);
    expect(boom.events.map((e) => e.name)).toContain('exception');
  });
});

describe('OTLP/HTTP export', () => {
  let receiver: Server;
  const posts: { path: string; body: Record<string, unknown> }[] = [];
  beforeAll(async () => {
    receiver = createServer((req, res) => {
      let raw = '';
      req.on('data', (d) => (raw += d));
      req.on('end', () => {
        posts.push({ path: req.url ?? '', body: JSON.parse(raw) });
        res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((r) => receiver.listen(16600, '127.0.0.1', r));
  });
  afterAll(() => new Promise<void>((r) => receiver.close(() => r())));

  it('POSTs the spans as OTLP JSON to <endpoint>/v1/traces with service.name', async () => {
    const { port } = receiver.address() as AddressInfo;
    const tracing = startTracing({ serviceName: 'embed-api', endpoint: `http://127.0.0.1:${port}/` });
    try {
      await inSpan('exported', { parent: CALLER }, async () => undefined);
      await tracing.forceFlush();
    } finally {
      await tracing.shutdown();
    }
    expect(posts.map((p) => p.path)).toContain('/v1/traces');
    const text = JSON.stringify(posts.map((p) => p.body));
    expect(text).toContain('"stringValue":"embed-api"');
    expect(text).toContain('"name":"exported"');
    expect(text).toContain('4bf92f3577b34da6a3ce929d0e0e4736');
  });
});

describe('shutdown with the collector down', () => {
  it("does not fail the process's shutdown (spans are best effort)", async () => {
    const { startObservability } = await import('./observability');
    // Port 16601: nothing listens there during this suite.
    const obs = startObservability('quote-api', { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:16601' });
    expect(obs.observability.tracing?.enabled).toBe(true);
    await inSpan('lost', {}, async () => undefined);
    await expect(obs.close()).resolves.toBeUndefined();
    expect(tracingEnabled()).toBe(false);
  });
});
