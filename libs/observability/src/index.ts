/**
 * @expedition/observability: Prometheus metrics (one prom-client registry per process, served on its own port) and
 * OpenTelemetry tracing with W3C `traceparent` propagation, off (and free) unless an OTLP endpoint is configured.
 * Depends on no project, so every Node lib on the money path may use it.
 */
export { type BacklogSample, createMetrics, type Metrics } from './metrics';
export { countGateDecisions, countQuotesCreated, observeRequestDuration } from './http';
export { activeTraceparent, inSpan } from './tracing';
export { type Observability, ObservabilityConfigError, observe, startObservability } from './observability';
