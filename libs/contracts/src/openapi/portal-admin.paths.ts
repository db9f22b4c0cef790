import type { ZodOpenApiPathsObject } from 'zod-openapi';
import {
  AdminAuditQuerySchema,
  AdminOperatorDetailSchema,
  AdminOperatorListSchema,
  AdminOperatorPatchResponseSchema,
  AdminOperatorPatchSchema,
  AdminOperatorResponseSchema,
  AdminOperatorSearchQuerySchema,
  AdminRotateSecretRequestSchema,
  AdminRotateSecretResponseSchema,
  AdminWebhookUrlRequestSchema,
} from '../portal/admin.schema';
import { AuditListSchema } from '../portal/audit.schema';
import {
  WebhookEventDetailSchema,
  WebhookEventListQuerySchema,
  WebhookEventListSchema,
  WebhookEventResponseSchema,
} from '../portal/webhook.schema';
import { P, adminEventPath, created, idPath, json, notFound, ok, op } from './portal-operation';

/** OpenAPI path items of the provider-admin routes (`/admin/**`); portal.openapi.ts includes them. */
export const adminPaths: ZodOpenApiPathsObject = {
  [`${P}/admin/operators`]: {
    get: op('admin', 'adminSearchOperators', 'Search operators', ok(AdminOperatorListSchema), {
      query: AdminOperatorSearchQuerySchema,
    }),
  },
  [`${P}/admin/operators/{id}`]: {
    get: op(
      'admin',
      'adminGetOperator',
      'An operator with its keys, origins, users and look-alike operators',
      ok(AdminOperatorDetailSchema),
      { path: idPath, errors: notFound('Operator') },
    ),
    patch: op(
      'admin',
      'adminUpdateOperator',
      'Embedding (live approval), tier, commission, status',
      ok(AdminOperatorPatchResponseSchema),
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
