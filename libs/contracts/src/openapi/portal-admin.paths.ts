import type { ZodOpenApiPathsObject } from 'zod-openapi';
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
  WebhookEventDetailSchema,
  WebhookEventListQuerySchema,
  WebhookEventListSchema,
  WebhookEventResponseSchema,
  AuditListSchema,
} from '../portal/operator.schema';
import { adminEventPath, created, idPath, json, notFound, ok, op, P } from './portal-operations';

/** The provider admin's routes of the portal API: onboarding and oversight of every operator. */
export const portalAdminPaths: ZodOpenApiPathsObject = {
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
