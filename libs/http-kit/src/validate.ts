import type { z } from 'zod';
import { AppError, type ErrorDetail } from './app-error';

export function issuesToDetails(issues: readonly z.core.$ZodIssue[]): ErrorDetail[] {
  return issues.map((issue) => ({
    path: issue.path.length ? issue.path.join('.') : '(body)',
    message: issue.code === 'invalid_type' && issue.input === undefined ? 'is required' : issue.message,
  }));
}

/** Parses `value` with `schema` or throws a 400 AppError whose details name every offending field. */
export function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown, what = 'request'): z.infer<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const details = issuesToDetails(result.error.issues);
  const missing = details.filter((d) => d.message === 'is required').map((d) => d.path);
  const message = missing.length
    ? `Missing required field${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}`
    : `Invalid ${what}: ${details.map((d) => `${d.path} ${d.message}`).join('; ')}`;
  throw AppError.badRequest(message, details);
}
