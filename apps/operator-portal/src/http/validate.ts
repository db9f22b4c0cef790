import type { z } from 'zod';
import { issuesToDetails } from '@expedition/http-kit';
import { PortalError } from './errors';

/** Parses a request body with its contract schema, or throws 400 `invalid_request` naming every offending field. */
export function parseBody<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const result = schema.safeParse(value ?? {});
  if (result.success) return result.data;
  const details = issuesToDetails(result.error.issues);
  const message = `Invalid request: ${details.map((d) => `${d.path} ${d.message}`).join('; ')}`;
  throw PortalError.badRequest(message, details);
}
