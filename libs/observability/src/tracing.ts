import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  context,
  isSpanContextValid,
  propagation,
  trace,
  type Attributes,
  type Context,
  type Tracer,
} from '@opentelemetry/api';
import type { RequestHandler } from 'express';
import type { SpanExporter } from '@opentelemetry/sdk-trace';
import { routeTemplate } from './http';

/**
 * Tracing is OFF unless `OTEL_EXPORTER_OTLP_ENDPOINT` is set. Off means: the SDK is never loaded (it is `require`d
 * inside `startTracing`), no middleware is mounted, and every helper below returns after one `undefined` check — no
 * span objects, no context switches. `@opentelemetry/api` alone is a few no-op functions.
 *
 * The one piece of module state is the tracer itself, like OpenTelemetry's own global provider: a process traces or
 * it does not, and the libs on the money path (payments, fulfillment, the dispatcher) must not need it threaded
 * through every signature to read the current trace.
 */
let tracer: Tracer | undefined;

export interface TracingSettings {
  /** `service.name` of the resource (the app, or `expedition` for the all-in-one launcher). */
  serviceName: string;
  /** OTLP/HTTP base URL; spans are POSTed to `<endpoint>/v1/traces`. Absent: tracing stays off. */
  endpoint?: string;
  /** Extra export headers (e.g. an API key of the collector). */
  headers?: Record<string, string>;
  /** Tests: export here instead of OTLP (still only when `endpoint` is set or this is given). */
  exporter?: SpanExporter;
  /** How often batched spans are exported; default 1 s. */
  exportDelayMs?: number;
}

export interface Tracing {
  readonly enabled: boolean;
  /** Exports what is buffered now. */
  forceFlush(): Promise<void>;
  /** Flushes and stops; afterwards the process is untraced again. */
  shutdown(): Promise<void>;
}

const OFF: Tracing = { enabled: false, forceFlush: async () => undefined, shutdown: async () => undefined };

/** Turns tracing on for this process when an endpoint (or a test exporter) is given; otherwise returns the no-op. */
export function startTracing(settings: TracingSettings): Tracing {
  if (!settings.endpoint && !settings.exporter) return OFF;
  if (tracer) throw new Error('tracing is already started in this process');
  // Loaded here, only when tracing is on: an untraced process never evaluates the SDK.
  const sdk = require('@opentelemetry/sdk-trace') as typeof import('@opentelemetry/sdk-trace');
  const { W3CTraceContextPropagator } = require('@opentelemetry/core') as typeof import('@opentelemetry/core');
  const { resourceFromAttributes } = require('@opentelemetry/resources') as typeof import('@opentelemetry/resources');
  const { AsyncLocalStorageContextManager } =
    require('@opentelemetry/context-async-hooks') as typeof import('@opentelemetry/context-async-hooks');
  const exporter =
    settings.exporter ??
    new (
      require('@opentelemetry/exporter-trace-otlp-http') as typeof import('@opentelemetry/exporter-trace-otlp-http')
    ).OTLPTraceExporter({
      url: `${(settings.endpoint ?? '').replace(/\/+$/, '')}/v1/traces`,
      headers: settings.headers,
    });

  const provider = new sdk.TracerProvider({
    resource: resourceFromAttributes({ 'service.name': settings.serviceName }),
    spanProcessors: [new sdk.BatchSpanProcessor({ exporter, scheduledDelayMillis: settings.exportDelayMs ?? 1_000 })],
  });
  const contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  tracer = provider.getTracer('@expedition/observability');

  return {
    enabled: true,
    forceFlush: () => provider.forceFlush(),
    async shutdown() {
      tracer = undefined;
      try {
        await provider.shutdown();
      } finally {
        trace.disable();
        propagation.disable();
        context.disable();
      }
    },
  };
}

/** True when this process traces. */
export function tracingEnabled(): boolean {
  return tracer !== undefined;
}

/** The W3C `traceparent` of the current span, or undefined (tracing off, or no span active). */
export function activeTraceparent(): string | undefined {
  if (!tracer) return undefined;
  const span = trace.getSpan(context.active());
  if (!span) return undefined;
  const sc = span.spanContext();
  if (!isSpanContextValid(sc)) return undefined;
  return `00-${sc.traceId}-${sc.spanId}-0${sc.traceFlags & 1}`;
}

export type SpanRole = 'server' | 'client' | 'internal' | 'consumer' | 'producer';
const KINDS: Record<SpanRole, SpanKind> = {
  server: SpanKind.SERVER,
  client: SpanKind.CLIENT,
  internal: SpanKind.INTERNAL,
  consumer: SpanKind.CONSUMER,
  producer: SpanKind.PRODUCER,
};

export interface SpanOptions {
  kind?: SpanRole;
  /**
   * A `traceparent` to continue (from a stored row or an event's metadata). Absent: the current span is the parent
   * (or a new trace starts). A malformed value is ignored (a new trace starts rather than failing the work).
   */
  parent?: string | null;
  attributes?: Attributes;
}

/** Runs `work` inside a span when tracing is on; otherwise just runs it. The span records a thrown error. */
export async function inSpan<T>(name: string, options: SpanOptions, work: () => Promise<T>): Promise<T> {
  if (!tracer) return work();
  const parent = options.parent ? contextFrom(options.parent) : context.active();
  const span = tracer.startSpan(
    name,
    { kind: KINDS[options.kind ?? 'internal'], attributes: options.attributes },
    parent,
  );
  try {
    return await context.with(trace.setSpan(parent, span), work);
  } catch (err) {
    span.recordException(err instanceof Error ? err : String(err));
    span.setStatus({ code: SpanStatusCode.ERROR });
    throw err;
  } finally {
    span.end();
  }
}

function contextFrom(traceparent: string): Context {
  return propagation.extract(ROOT_CONTEXT, { traceparent });
}

/**
 * One SERVER span per request, continuing the caller's `traceparent` header when it sends one (the widget iframe,
 * another service) and starting a trace otherwise. Named `METHOD /route/template` when the response finishes. Health
 * probes are not traced. Mount only when tracing is on (see `observe`).
 */
export function requestTracing(app: string): RequestHandler {
  return (req, res, next) => {
    if (!tracer || req.path === '/healthz' || req.path === '/readyz') return next();
    const parent = propagation.extract(ROOT_CONTEXT, req.headers);
    const span = tracer.startSpan(
      req.method,
      { kind: SpanKind.SERVER, attributes: { 'http.request.method': req.method, 'service.app': app } },
      parent,
    );
    res.once('finish', () => {
      const route = routeTemplate(req);
      span.updateName(`${req.method} ${route}`);
      span.setAttribute('http.route', route);
      span.setAttribute('http.response.status_code', res.statusCode);
      if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    });
    context.with(trace.setSpan(parent, span), next);
  };
}
