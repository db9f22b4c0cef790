// Public face of the embed-api app for composition roots (main.ts, the all-in-one launcher, benchmarks, e2e tests).
export { createApp } from './app';
export { composeEmbedApi, type EmbedApi } from './compose';
export { loadConfig as loadEmbedApiConfig, type EmbedApiConfig } from './config';
export { EMBED_MAX_BODY_BYTES } from './limits';
