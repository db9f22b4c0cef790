import type { RequestHandler } from 'express';
import { requestMetrics, startMetricsServer, type MetricsServer } from './http';
import { createMetrics, type Metrics } from './metrics';
import { requestTracing, startTracing, type Tracing } from './tracing';

/** What a composition root hands each app: the process's metrics (absent: no /metrics) and whether it traces. */
export interface Observability {
  metrics?: Metrics;
  tracing?: Tracing;
}

/**
 * The request middleware an app mounts first (`for (const h of observe(deps.observability, 'embed-api')) app.use(h)`):
 * nothing at all when neither metrics nor tracing is on, so an unobserved app pays nothing per request.
 */
export function observe(observability: Observability | undefined, app: string): RequestHandler[] {
  const handlers: RequestHandler[] = [];
  if (observability?.metrics) handlers.push(requestMetrics(observability.metrics, app));
  if (observability?.tracing?.enabled) handlers.push(requestTracing(app));
  return handlers;
}

/** Observability settings, from the environment (see docs/observability.md). */
export interface ObservabilitySettings {
  /** `METRICS_PORT`: the separate port serving `GET /metrics`; absent → no metrics at all. 0 → any free port. */
  metricsPort?: number;
  /** `OTEL_EXPORTER_OTLP_ENDPOINT`: OTLP/HTTP base URL; absent → tracing off. */
  otlpEndpoint?: string;
  /** `OTEL_EXPORTER_OTLP_HEADERS`: `key=value,key2=value2` sent with every export. */
  otlpHeaders?: Record<string, string>;
  /** `OTEL_SERVICE_NAME`: overrides the app's own name as `service.name`. */
  serviceName?: string;
}

/** A bad observability variable; `problems` names each (composition roots turn it into their ConfigError). */
export class ObservabilityConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Invalid configuration: ${problems.join('; ')}`);
    this.name = 'ObservabilityConfigError';
  }
}

export function observabilitySettingsFromEnv(env: Readonly<Record<string, string | undefined>>): ObservabilitySettings {
  const problems: string[] = [];
  const settings: ObservabilitySettings = {};
  const port = env['METRICS_PORT']?.trim();
  if (port) {
    const n = Number(port);
    if (!/^\d+$/.test(port) || n > 65_535) problems.push('METRICS_PORT: must be a port number (0-65535)');
    else settings.metricsPort = n;
  }
  const endpoint = env['OTEL_EXPORTER_OTLP_ENDPOINT']?.trim();
  if (endpoint) {
    if (!/^https?:\/\/[^\s]+$/.test(endpoint)) problems.push('OTEL_EXPORTER_OTLP_ENDPOINT: must be an http(s) URL');
    else settings.otlpEndpoint = endpoint;
  }
  const headers = env['OTEL_EXPORTER_OTLP_HEADERS']?.trim();
  if (headers) {
    const parsed: Record<string, string> = {};
    for (const pair of headers.split(',')) {
      const at = pair.indexOf('=');
      if (at <= 0) {
        problems.push('OTEL_EXPORTER_OTLP_HEADERS: must be key=value pairs separated by commas');
        break;
      }
      parsed[decodeURIComponent(pair.slice(0, at).trim())] = decodeURIComponent(pair.slice(at + 1).trim());
    }
    settings.otlpHeaders = parsed;
  }
  const name = env['OTEL_SERVICE_NAME']?.trim();
  if (name) settings.serviceName = name;
  if (problems.length > 0) throw new ObservabilityConfigError(problems);
  return settings;
}

/**
 * For a composition root: metrics (when `metricsPort` is set) and tracing (when `otlpEndpoint` is set) for one
 * process. The caller serves `metrics` with `startMetricsServer` and calls `tracing.shutdown()` when it stops.
 */
export function createObservability(
  service: string,
  settings: ObservabilitySettings,
): Required<Pick<Observability, 'tracing'>> & Observability {
  return {
    metrics: settings.metricsPort === undefined ? undefined : createMetrics({ service }),
    tracing: startTracing({
      serviceName: settings.serviceName ?? service,
      endpoint: settings.otlpEndpoint,
      headers: settings.otlpHeaders,
    }),
  };
}

export interface StartedObservability {
  readonly observability: Observability;
  readonly settings: ObservabilitySettings;
  /** Starts the metrics listener on `METRICS_PORT` (nothing when unset); returns its URL for the start-up log line. */
  listen(host?: string): Promise<string | undefined>;
  /** Stops the metrics listener and flushes and stops tracing. */
  close(): Promise<void>;
}

/**
 * The few lines of a `main.ts`: settings from the environment (METRICS_PORT, OTEL_EXPORTER_OTLP_ENDPOINT, …), the
 * process's metrics and tracing, and the separate metrics listener. Throws ObservabilityConfigError on a bad variable.
 */
export function startObservability(
  service: string,
  env: Readonly<Record<string, string | undefined>>,
): StartedObservability {
  const settings = observabilitySettingsFromEnv(env);
  const observability = createObservability(service, settings);
  let server: MetricsServer | undefined;
  return {
    observability,
    settings,
    async listen(host) {
      if (!observability.metrics || settings.metricsPort === undefined) return undefined;
      server = await startMetricsServer(observability.metrics, { port: settings.metricsPort, host });
      return server.url;
    },
    async close() {
      await server?.close();
      // A collector that is down must not fail the shutdown (the database still has to close): spans are best effort.
      await observability.tracing?.shutdown().catch(() => undefined);
    },
  };
}
