// Public face of the quote-api app for composition roots (main.ts, the all-in-one launcher, e2e tests).
export { createApp } from './app';
export { composeQuoteApi } from './compose';
export { loadConfig as loadQuoteApiConfig, type QuoteApiConfig } from './config';
