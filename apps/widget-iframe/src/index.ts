// Public face of the widget-iframe app for composition roots (main.ts, the all-in-one launcher, e2e tests, benches).
export { createApp } from './app';
export { composeWidgetIframe } from './compose';
export { loadConfig as loadWidgetIframeConfig, type WidgetIframeConfig } from './config';
export { loadPinnedReleases } from './loader-channels';
