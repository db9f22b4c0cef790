// What the apps and tools import; everything else is internal to the lib.
export { AppError, type ErrorDetail } from './app-error';
export { issuesToDetails, parseOrThrow } from './validate';
export { isUtf8JsonRequest, jsonBody } from './json-body';
export { refuseUnstorableJson } from './storable-body';
export { assignRequestId, requestId } from './request-id';
export { EVERY_ANSWER_HEADERS, setEveryAnswerHeaders } from './security-headers';
export { accessLog, createLogger, httpLogger } from './logger';
export { sendJson } from './send-json';
export { answerBeforeExpress, type RequestEntry } from './before-express';
export {
  createFailureLog,
  errorHandler,
  notFound,
  OUTAGE_LOG_EVERY_MS,
  toAppError,
  UNAVAILABLE_RETRY_AFTER_SEC,
  type FailureLog,
} from './error-handler';
export { mapDomainErrors } from './domain-errors';
export { healthRoutes } from './health';
export { faviconRoute, PLATFORM_ICON_SVG } from './favicon';
export { listen, onShutdownSignal, type RunningServer } from './server';
export { postgresAt, reachAtStart } from './start';
export { clientRateLimit } from './rate-limit';
export { runService } from './run-service';
