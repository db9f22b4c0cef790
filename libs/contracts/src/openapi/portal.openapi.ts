import { z } from 'zod';
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject } from 'zod-openapi';
import {
  AdminAuditQuerySchema,
  AdminOperatorDetailSchema,
  AdminOperatorListSchema,
  AdminOperatorPatchSchema,
  AdminOperatorResponseSchema,
  AdminOperatorSearchQuerySchema,
  AdminRotateSecretRequestSchema,
  AdminRotateSecretResponseSchema,
  AdminWebhookUrlRequestSchema,
} from '../portal/admin.schema';
import {
  AddOriginResponseSchema,
  AllowedOriginListSchema,
  AuditListQuerySchema,
  AuditListSchema,
  CreatePublishableKeyRequestSchema,
  CreateSecretKeyRequestSchema,
  CreateSecretKeyResponseSchema,
  DashboardQuerySchema,
  DashboardResponseSchema,
  IntegrationResponseSchema,
  OriginQuerySchema,
  OriginRequestSchema,
  OriginTestResponseSchema,
  PortalOperatorResponseSchema,
  PortalWebhookSchema,
  PublishableKeyListSchema,
  PublishableKeyResponseSchema,
  RevealSecretResponseSchema,
  RotateKeyRequestSchema,
  RotateKeyResponseSchema,
  SecretKeyListSchema,
  SecretKeyResponseSchema,
  WebhookEventDetailSchema,
  WebhookEventListQuerySchema,
  WebhookEventListSchema,
  WebhookEventResponseSchema,
} from '../portal/operator.schema';
import { PortalErrorSchema } from '../portal/portal-error.schema';
import { API_LICENSE } from './document-info';
import { PORTAL_SECURITY, PORTAL_SECURITY_SCHEMES, portalAuthPaths } from './portal-auth.paths';

/** Version of the portal API's contract (`info.version`); paths are prefixed `/api/portal/v1`. */
export const PORTAL_API_VERSION = '1.1.0';

const P = '/api/portal/v1';
const json = <T extends z.ZodType>(schema: T) => ({ content: { 'application/json': { schema } } });
const error = (description: string) => ({ description, ...json(PortalErrorSchema) });

/** Operator writes share a per-operator budget (docs/portal-api.md: 60 a minute; test events 5 a minute). */
const operatorWriteRateLimited = {
  description:
    "Over the operator's write budget (code rate_limited): 60 writes a minute, 5 test webhook events a minute.",
  headers: z.object({ 'Retry-After': z.string().meta({ description: 'Whole seconds to wait.' }) }),
  ...json(PortalErrorSchema),
};
const capReached = (what: string) => ({
  '409': `The operator has the most ${what} allowed (code limit_reached); revoke or remove one first.`,
});

type Access = 'member' | 'owner' | 'admin';
const ACCESS_TEXT: Record<Access, string> = {
  member: 'Any user of the operator (owner or member).',
  owner: 'Owners of the operator only (members get 403).',
  admin: 'Provider admins only (operator users get 403).',
};

function op(
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

const ok = <T extends z.ZodType>(schema: T, description = 'OK.') => ({ '200': { description, ...json(schema) } });
const created = <T extends z.ZodType>(schema: T, description = 'Created.') => ({
  '201': { description, ...json(schema) },
});
const idPath = z.object({ id: z.string() });
const eventPath = z.object({ id: z.string().meta({ description: 'Event row id or its eventId (evt_…).' }) });
const adminEventPath = z.object({
  id: z.string(),
  eventId: z.string().meta({ description: 'Event row id or its eventId.' }),
});
const notFound = (what: string) => ({ '404': `${what} not found, or another operator's (code not_found).` });

const operatorPaths: ZodOpenApiPathsObject = {
  [`${P}/operator`]: {
    get: op(
      'member',
      'getOperator',
      'The operator and its provider-set settings (read-only)',
      ok(PortalOperatorResponseSchema),
    ),
  },
  [`${P}/operator/keys`]: {
    get: op(
      'member',
      'listPublishableKeys',
      'Publishable keys, with whether the embed gate accepts each now',
      ok(PublishableKeyListSchema),
    ),
    post: op(
      'member',
      'createPublishableKey',
      'Create a test or live publishable key',
      created(PublishableKeyResponseSchema),
      {
        body: CreatePublishableKeyRequestSchema,
        write: true,
        errors: capReached('working publishable keys (20)'),
        description:
          'Live keys are refused by the embed gate until the provider enables embedding (refusal embedding_disabled).',
      },
    ),
  },
  [`${P}/operator/keys/{id}/rotate`]: {
    post: op(
      'member',
      'rotatePublishableKey',
      'Replace a key; the old one keeps working for the chosen grace',
      ok(RotateKeyResponseSchema),
      {
        path: idPath,
        body: RotateKeyRequestSchema,
        write: true,
        errors: { ...notFound('Key'), '409': 'The key is already revoked or rotated (code conflict).' },
        description: 'grace now | 24h | 7d, or expiresAt (future, ≤ 30 days). The new key has the same mode and label.',
      },
    ),
  },
  [`${P}/operator/keys/{id}/revoke`]: {
    post: op('member', 'revokePublishableKey', 'Revoke a key at once (idempotent)', ok(PublishableKeyResponseSchema), {
      path: idPath,
      write: true,
      errors: notFound('Key'),
    }),
  },
  [`${P}/operator/secret-keys`]: {
    get: op('member', 'listSecretKeys', 'Secret keys by display prefix', ok(SecretKeyListSchema)),
    post: op(
      'owner',
      'createSecretKey',
      'Mint an sk_op_ key (shown once; Cache-Control: no-store)',
      created(CreateSecretKeyResponseSchema),
      {
        body: CreateSecretKeyRequestSchema,
        write: true,
        errors: capReached('unrevoked secret keys (10)'),
      },
    ),
  },
  [`${P}/operator/secret-keys/{id}/revoke`]: {
    post: op('owner', 'revokeSecretKey', 'Revoke a secret key', ok(SecretKeyResponseSchema), {
      path: idPath,
      write: true,
      errors: notFound('Secret key'),
    }),
  },
  [`${P}/operator/origins`]: {
    get: op(
      'member',
      'listAllowedOrigins',
      'Allowed origins (loopback ones apply to test keys only)',
      ok(AllowedOriginListSchema),
    ),
    post: {
      ...op(
        'member',
        'addAllowedOrigin',
        'Add an origin (normalized scheme://host[:port])',
        created(AddOriginResponseSchema, 'Added.'),
        {
          body: OriginRequestSchema,
          write: true,
          errors: {
            '400': 'Not an origin we can allow: code origin_invalid, the reason in error (path, wildcard, scheme, …).',
            ...capReached('allowed origins (50)'),
          },
        },
      ),
    },
    delete: op(
      'member',
      'removeAllowedOrigin',
      'Remove an origin',
      { '204': { description: 'Removed.' } },
      { query: OriginQuerySchema, write: true, errors: { '404': "Not in this operator's list (code not_found)." } },
    ),
  },
  [`${P}/operator/origins/test`]: {
    post: op(
      'member',
      'testOrigin',
      'Would a page at this origin be accepted, and for which keys?',
      ok(OriginTestResponseSchema),
      { body: OriginRequestSchema },
    ),
  },
  [`${P}/operator/integration`]: {
    get: op(
      'member',
      'getIntegration',
      'Copy-paste snippets: Tier 1 link, Tier 2/3 loader, CSP lines, webhook verification',
      ok(IntegrationResponseSchema),
    ),
  },
  [`${P}/operator/webhook`]: {
    get: op(
      'member',
      'getWebhook',
      'Webhook URL, commission rate and delivery rules (read-only; set by the provider)',
      ok(PortalWebhookSchema),
    ),
  },
  [`${P}/operator/webhook/secret/reveal`]: {
    post: op(
      'owner',
      'revealWebhookSecret',
      'Reveal the signing secret(s); audited; Cache-Control: no-store',
      ok(RevealSecretResponseSchema),
      { write: true },
    ),
  },
  [`${P}/operator/webhook-events`]: {
    get: op('member', 'listWebhookEvents', 'The delivery log, newest first', ok(WebhookEventListSchema), {
      query: WebhookEventListQuerySchema,
    }),
  },
  [`${P}/operator/webhook-events/test`]: {
    post: op(
      'member',
      'sendTestWebhookEvent',
      'Queue a signed test policy.issued (eventId evt_test_…, body test: true)',
      created(WebhookEventResponseSchema),
      {
        write: true,
        errors: { '409': 'No webhook URL configured (code conflict).' },
      },
    ),
  },
  [`${P}/operator/webhook-events/{id}`]: {
    get: op('member', 'getWebhookEvent', 'One event: the exact body and every attempt', ok(WebhookEventDetailSchema), {
      path: eventPath,
      errors: notFound('Event'),
    }),
  },
  [`${P}/operator/webhook-events/{id}/resend`]: {
    post: op(
      'member',
      'resendWebhookEvent',
      'One more attempt with the same eventId and body',
      { '202': { description: 'Queued.', ...json(WebhookEventResponseSchema) } },
      {
        path: eventPath,
        write: true,
        errors: { ...notFound('Event'), '409': 'Still pending, or no webhook URL (code conflict).' },
      },
    ),
  },
  [`${P}/operator/dashboard`]: {
    get: op(
      'member',
      'getDashboard',
      'Quotes, purchases, premium and commission by day (test and live apart), conversion, recent policies',
      ok(DashboardResponseSchema),
      { query: DashboardQuerySchema },
    ),
  },
  [`${P}/operator/audit`]: {
    get: op('member', 'listOperatorAudit', "This operator's audit log, newest first", ok(AuditListSchema), {
      query: AuditListQuerySchema,
    }),
  },
};

const adminPaths: ZodOpenApiPathsObject = {
  [`${P}/admin/operators`]: {
    get: op('admin', 'adminSearchOperators', 'Search operators', ok(AdminOperatorListSchema), {
      query: AdminOperatorSearchQuerySchema,
    }),
  },
  [`${P}/admin/operators/{id}`]: {
    get: op(
      'admin',
      'adminGetOperator',
      'An operator with its keys, origins and users',
      ok(AdminOperatorDetailSchema),
      { path: idPath, errors: notFound('Operator') },
    ),
    patch: op(
      'admin',
      'adminUpdateOperator',
      'Embedding (live approval), tier, commission, status',
      ok(AdminOperatorResponseSchema),
      {
        path: idPath,
        body: AdminOperatorPatchSchema,
        errors: notFound('Operator'),
        description:
          'Each changed field is one audit entry (before → after). A commission change applies to later sales only.',
      },
    ),
  },
  [`${P}/admin/operators/{id}/webhook`]: {
    put: op(
      'admin',
      'adminSetWebhookUrl',
      'Set (or with null remove) the webhook URL',
      ok(AdminOperatorResponseSchema),
      { path: idPath, body: AdminWebhookUrlRequestSchema, errors: notFound('Operator') },
    ),
  },
  [`${P}/admin/operators/{id}/webhook/secret`]: {
    post: op(
      'admin',
      'adminRotateWebhookSecret',
      'Generate a new signing secret; the previous one keeps signing for overlapHours',
      created(AdminRotateSecretResponseSchema),
      {
        path: idPath,
        body: AdminRotateSecretRequestSchema,
        errors: { ...notFound('Operator'), '409': 'Rotated by someone else meanwhile (code conflict).' },
      },
    ),
  },
  [`${P}/admin/operators/{id}/webhook-events`]: {
    get: op('admin', 'adminListWebhookEvents', "An operator's delivery log", ok(WebhookEventListSchema), {
      path: idPath,
      query: WebhookEventListQuerySchema,
      errors: notFound('Operator'),
    }),
  },
  [`${P}/admin/operators/{id}/webhook-events/{eventId}`]: {
    get: op('admin', 'adminGetWebhookEvent', 'One event with its attempts', ok(WebhookEventDetailSchema), {
      path: adminEventPath,
      errors: notFound('Event'),
    }),
  },
  [`${P}/admin/operators/{id}/webhook-events/{eventId}/resend`]: {
    post: op(
      'admin',
      'adminResendWebhookEvent',
      'Resend an event',
      { '202': { description: 'Queued.', ...json(WebhookEventResponseSchema) } },
      {
        path: adminEventPath,
        errors: { ...notFound('Event'), '409': 'Still pending, or no webhook URL (code conflict).' },
      },
    ),
  },
  [`${P}/admin/audit`]: {
    get: op(
      'admin',
      'adminListAudit',
      'The audit log of every operator (filter by operatorId, action)',
      ok(AuditListSchema),
      { query: AdminAuditQuerySchema },
    ),
  },
};

/**
 * Every operation declares its security: as given (the public account routes), else a read needs the session cookie
 * and a write also the CSRF header (and an Origin equal to the portal's, which OpenAPI cannot express).
 */
function withSecurity(paths: ZodOpenApiPathsObject): ZodOpenApiPathsObject {
  const methods = ['get', 'post', 'put', 'patch', 'delete'] as const;
  return Object.fromEntries(
    Object.entries(paths).map(([path, item]) => {
      const secured = { ...item };
      for (const method of methods) {
        const operation = item[method];
        if (!operation || operation.security) continue;
        secured[method] = {
          ...operation,
          security: method === 'get' ? PORTAL_SECURITY.session : PORTAL_SECURITY.sessionAndCsrf,
        };
      }
      return [path, secured];
    }),
  );
}

/** The OpenAPI 3.1 document served at /api/portal/v1/openapi.json: accounts and team (PA), operator and admin (PF). */
export function buildPortalOpenApi(options: { serverUrl?: string } = {}) {
  return createDocument({
    openapi: '3.1.0',
    info: {
      title: 'Expedition Travel Insurance — Operator portal API',
      version: PORTAL_API_VERSION,
      description: [
        'The JSON API behind the operator portal: accounts, team, keys, allowed origins, integration snippets, the',
        'webhook delivery log and the provider admin. Cookie session (svc_portal_session); every POST/PUT/PATCH/DELETE',
        'sends X-CSRF-Token (from GET /auth/session) and an Origin equal to the portal. Errors are',
        "`{ error, code, details?, requestId? }`. Another operator's data is always 404. Dates are RFC 3339; money is",
        'integer minor units. Ignore response fields you do not know: new optional fields are added without notice.',
      ].join(' '),
      license: API_LICENSE,
    },
    servers: options.serverUrl ? [{ url: options.serverUrl }] : undefined,
    components: { securitySchemes: PORTAL_SECURITY_SCHEMES },
    tags: [
      { name: 'accounts', description: 'Sign-up, log-in, sessions, passwords.' },
      { name: 'team', description: 'Owners, members and invitations.' },
      {
        name: 'operator',
        description: "The operator's own keys, origins, integration, webhook log, dashboard and audit.",
      },
      { name: 'admin', description: 'Provider admins: onboarding and oversight of every operator.' },
    ],
    paths: withSecurity({ ...portalAuthPaths, ...operatorPaths, ...adminPaths }),
  });
}
