import { z } from 'zod';
import { issuesToDetails } from '@expedition/http-kit';
import { PortalError } from './errors';

const strictForms = new WeakMap<z.ZodObject, z.ZodObject>();

/**
 * The one rule of the portal's request bodies: a field the contract does not name is refused (400 naming it), never
 * ignored, on every route; the operator and admin schemas say so themselves (`.strict()`), and a plain object schema
 * parsed here is made strict. docs/portal-api.md, "Request bodies".
 */
function strict<S extends z.ZodType>(schema: S): z.ZodType {
  if (!(schema instanceof z.ZodObject)) return schema;
  let form = strictForms.get(schema);
  if (!form) strictForms.set(schema, (form = schema.strict()));
  return form;
}

/** Parses a request body with its contract schema, or throws 400 `invalid_request` naming every offending field. */
export function parseBody<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const result = strict(schema).safeParse(value ?? {});
  if (result.success) return result.data as z.infer<S>;
  const details = issuesToDetails(result.error.issues);
  const message = `Invalid request: ${details.map((d) => `${d.path} ${d.message}`).join('; ')}`;
  throw PortalError.badRequest(message, details);
}
