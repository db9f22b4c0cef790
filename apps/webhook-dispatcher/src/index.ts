// Public face of the webhook-dispatcher app for composition roots (main.ts, the all-in-one launcher, e2e tests).
export { createApp } from './app';
export { composeWebhookDispatcher, type ComposedDispatcher } from './compose';
export { type DispatcherConfig, loadConfig as loadDispatcherConfig } from './config';
export { createDeliveryWorkers } from './delivery/delivery-worker';
