// Public face of the operator-portal app for composition roots (main.ts, the all-in-one launcher, e2e tests).
export { createApp, PORTAL_API_PREFIX, type PortalAppDeps } from './app';
export { composePortal, defaultUiDir, type Portal, type PortalRuntime } from './compose';
export { loadConfig as loadPortalConfig, type PortalConfig } from './config';
export { createOutboxMailer, createSmtpMailer, type Mailer, type OutgoingMail } from './mail/mailer';
export { PORTAL_THROTTLE_LIMITS, createPortalThrottles, type PortalThrottles } from './accounts/throttles';
