import { z } from 'zod';
import type { ZodOpenApiOperationObject } from 'zod-openapi';
import { PortalErrorSchema } from '../portal/portal-error.schema';

/** The pieces every operation of the portal API's OpenAPI document is made of (portal.openapi.ts and its paths). */

export const P = '/api/portal/v1';
export const json = <T extends z.ZodType>(schema: T) => ({ content: { 'application/json': { schema } } });
export const error = (description: string) => ({ description, ...json(PortalErrorSchema) });

/** Operator writes share a per-operator budget (docs/portal-api.md: 60 a minute; test events 5 a minute). */
const operatorWriteRateLimited = {
  description:
    "Over the operator's write budget (code rate_limited): 60 writes a minute, 5 test webhook events a minute.",
  headers: z.object({ 'Retry-After': z.string().meta({ description: 'Whole seconds to wait.' }) }),
  ...json(PortalErrorSchema),
};
export const capReached = (what: string) => ({
  '409': `The operator has the most ${what} allowed (code limit_reached); revoke or remove one first.`,
});

export type Access = 'member' | 'owner' | 'admin';
const ACCESS_TEXT: Record<Access, string> = {
  member: 'Any user of the operator (owner or member).',
  owner: 'Owners of the operator only (members get 403).',
  admin: 'Provider admins only (operator users get 403).',
};

export function op(
  access: Access,
  operationId: string,
  summary: string,
  success: Record<string, object>,
  extra: {
    body?: z.ZodType;
    query?: z.ZodType;
    path?: z.ZodObject;
    errors?: Record<string, string>;
    description?: string;
    write?: boolean;
  } = {},
): ZodOpenApiOperationObject {
  const suspended = extra.write
    ? ' Code operator_suspended when the operator is suspended (its portal is read-only).'
    : '';
  const errors: Record<string, object> = {
    '401': error('No valid session (code unauthorized).'),
    '403': error(
      `${ACCESS_TEXT[access]} Also code csrf_failed on a write without the right Origin and X-CSRF-Token.${suspended}`,
    ),
  };
  if (extra.write) errors['429'] = operatorWriteRateLimited;
  if (extra.body || extra.query) errors['400'] = error('Invalid body or query (code invalid_request, with details).');
  for (const [status, text] of Object.entries(extra.errors ?? {})) errors[status] = error(text);
  return {
    operationId,
    summary,
    description: [ACCESS_TEXT[access], extra.description].filter(Boolean).join(' '),
    tags: [access === 'admin' ? 'admin' : 'operator'],
    ...(extra.query || extra.path
      ? {
          requestParams: {
            ...(extra.query ? { query: extra.query as z.ZodObject } : {}),
            ...(extra.path ? { path: extra.path } : {}),
          },
        }
      : {}),
    ...(extra.body ? { requestBody: { required: true, ...json(extra.body) } } : {}),
    responses: { ...success, ...errors } as ZodOpenApiOperationObject['responses'],
  };
}

export const ok = <T extends z.ZodType>(schema: T, description = 'OK.') => ({
  '200': { description, ...json(schema) },
});
export const created = <T extends z.ZodType>(schema: T, description = 'Created.') => ({
  '201': { description, ...json(schema) },
});
export const idPath = z.object({ id: z.string() });
export const eventPath = z.object({ id: z.string().meta({ description: 'Event row id or its eventId (evt_…).' }) });
export const adminEventPath = z.object({
  id: z.string(),
  eventId: z.string().meta({ description: 'Event row id or its eventId.' }),
});
export const notFound = (what: string) => ({ '404': `${what} not found, or another operator's (code not_found).` });
