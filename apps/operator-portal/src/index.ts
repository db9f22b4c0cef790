// Public face of the operator-portal app for composition roots (main.ts, the all-in-one launcher, e2e tests).
export { createApp, type PortalAppDeps } from './app';
export { composePortal, type Portal } from './compose';
export { loadConfig as loadPortalConfig, type PortalConfig } from './config';
export { createOutboxMailer } from './mail/mailer';
export { PORTAL_THROTTLE_LIMITS, type PortalThrottles } from './accounts/throttles';
