// Public face of the widget-iframe app for composition roots (main.ts, the all-in-one launcher, e2e tests, benches).
export {
  createApp,
  type WidgetIframeDeps,
  ASSETS_PREFIX,
  DEFAULT_WIDGET_VERSION,
  FRAME_PATH,
  HOSTED_QUOTE_PATH,
  ROLLING_LOADER_PATH,
} from './app';
export { composeWidgetIframe, type WidgetIframe, type WidgetIframeRuntime } from './compose';
export { defaultAssetDirs, loadConfig as loadWidgetIframeConfig, type WidgetIframeConfig } from './config';
export { decideFrame, decideHosted, documentCsp, framingOrigins, REFUSAL_MESSAGES } from './documents';
export { loadPinnedReleases, type PinnedReleases } from './loader-channels';
