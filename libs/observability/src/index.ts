/**
 * @expedition/observability: Prometheus metrics (one prom-client registry per process, served on its own port) and
 * OpenTelemetry tracing with W3C `traceparent` propagation, off (and free) unless an OTLP endpoint is configured.
 * Depends on no project, so every Node lib on the money path may use it.
 */
export {
  type BacklogSample,
  type DeliveryOutcome,
  type FulfillmentResult,
  type GateOutcome,
  type Metrics,
  type MetricsOptions,
  type OutboxSample,
  type PaymentOutcome,
  type PolicyMailOutcome,
  type QuoteSource,
  createMetrics,
} from './metrics';
export {
  type MetricsServer,
  UNMATCHED_ROUTE,
  countGateDecisions,
  countQuotesCreated,
  metricsRequestListener,
  requestMetrics,
  routeTemplate,
  startMetricsServer,
} from './http';
export {
  type SpanOptions,
  type SpanRole,
  type Tracing,
  type TracingSettings,
  activeTraceparent,
  inSpan,
  requestTracing,
  startTracing,
  tracingEnabled,
} from './tracing';
export {
  type Observability,
  type ObservabilitySettings,
  type StartedObservability,
  ObservabilityConfigError,
  createObservability,
  observabilitySettingsFromEnv,
  observe,
  startObservability,
} from './observability';
