// Public face of the webhook-dispatcher app for composition roots (main.ts, the all-in-one launcher, e2e tests).
export { createApp, type DispatcherDeps } from './app';
export { composeWebhookDispatcher, type ComposedDispatcher, type DispatcherRuntime } from './compose';
export { loadConfig as loadDispatcherConfig, DEFAULT_RETRY_DELAYS_MS, type DispatcherConfig } from './config';
export {
  createDeliveryWorker,
  createDeliveryWorkers,
  type DeliverySettings,
  type DeliveryWorker,
  type DeliveryWorkerDeps,
  type DeliveryWorkers,
} from './delivery/delivery-worker';
export { createProcessorEventSource, type ProcessorEventSource } from './processor';
