// Public face of the widget-iframe app for composition roots (main.ts, the all-in-one launcher, e2e tests, benches).
export { createApp, type WidgetIframeDeps, DEFAULT_WIDGET_VERSION } from './app';
export { ASSETS_PREFIX } from './assets.router';
export { FRAME_PATH, HOSTED_QUOTE_PATH } from './documents.router';
export { ROLLING_LOADER_PATH } from './loader.router';
export { composeWidgetIframe, type WidgetIframe, type WidgetIframeRuntime } from './compose';
export { defaultAssetDirs, loadConfig as loadWidgetIframeConfig, type WidgetIframeConfig } from './config';
export { decideFrame, decideHosted, documentCsp, framingOrigins, REFUSAL_MESSAGES } from './documents';
export { loadPinnedReleases, type PinnedReleases } from './loader-channels';
