import type { ApiErrorCode } from '@expedition/contracts';
import { AppError, type ErrorDetail } from './app-error';

/**
 * A lib's refusal: a stable machine `code`, a message and, where fields are at fault, their details; never an HTTP
 * status. Each lib has its own class (QuotingError, OperatorError…); each app picks the status and body at its edge.
 */
export interface DomainError extends Error {
  readonly code: string;
  readonly details?: readonly ErrorDetail[];
}

/**
 * An app's answer to one domain error code: the status and the API error code of the standard body
 * `{ error: <the error's message>, code, details, requestId }`, or, with `body`, that body as is (an app whose routes
 * speak another shape, e.g. embed-api's `{ error }`).
 */
export interface DomainErrorAnswer {
  status: number;
  code: ApiErrorCode;
  body?: Readonly<Record<string, unknown>>;
}

/** One lib's domain errors, recognised by `is`, and an app's answer to each of their codes. */
export interface DomainErrorMapping {
  is(err: unknown): err is DomainError;
  answers: Readonly<Partial<Record<string, DomainErrorAnswer>>>;
}

/**
 * An app's mapping of one lib's domain errors, for `errorHandler(logger, { domainErrors })` and `toAppError`. Typed
 * so that every code of the lib must be answered: a code the lib adds later fails the app's typecheck.
 */
export function mapDomainErrors<E extends DomainError>(
  is: (err: unknown) => err is E,
  answers: Readonly<Record<E['code'], DomainErrorAnswer>>,
): DomainErrorMapping {
  return { is, answers };
}

/**
 * The AppError an app answers for `err` when it is a domain error of one of `mappings`; undefined for anything else.
 * A domain error whose code the app does not answer is a fault: a 500 that never shows its message.
 */
export function answerDomainError(err: unknown, mappings: readonly DomainErrorMapping[]): AppError | undefined {
  const mapping = mappings.find((m) => m.is(err));
  if (!mapping) return undefined;
  const domainError = err as DomainError;
  const answer = mapping.answers[domainError.code];
  if (!answer) return new AppError(500, 'internal_error', 'Internal server error', undefined, { cause: err });
  const details = domainError.details?.length ? [...domainError.details] : undefined;
  return new AppError(answer.status, answer.code, domainError.message, details, { cause: err, body: answer.body });
}
