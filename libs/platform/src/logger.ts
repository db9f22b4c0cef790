import type { Logger } from 'pino';

/**
 * The one logger type of the platform: pino's. Libraries that log take `Pick<Logger, 'warn' | …>` for the slice
 * they use, so a test can pass `{ warn: jest.fn() }`; services build theirs with `createLogger` (http-kit).
 */
export type { Logger };

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
