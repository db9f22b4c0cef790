import { z } from 'zod';
import { PORTAL_LIMITS } from '../rules';
import { AuditListQuerySchema } from './audit.schema';
import {
  IntegrationTierSchema,
  OperatorStatusSchema,
  PortalAllowedOriginSchema,
  PortalOperatorSchema,
  PortalPublishableKeySchema,
  PortalSecretKeySchema,
} from './operator.schema';

/**
 * Provider-admin routes of the portal API (`/api/portal/v1/admin/**`): provider_admin users only (an operator's user
 * gets 403 `forbidden`, no session 401). Every change is written to the audit log with before → after.
 */

const Timestamp = z.string().meta({ description: 'RFC 3339 instant.' });

export const AdminOperatorSchema = PortalOperatorSchema.extend({
  updatedAt: Timestamp,
  previousSecretExpiresAt: Timestamp.nullable().meta({
    description: 'During a webhook secret overlap: when the previous secret stops signing.',
  }),
}).meta({ id: 'AdminOperator' });
export type AdminOperator = z.infer<typeof AdminOperatorSchema>;

export const AdminOperatorSearchQuerySchema = z
  .object({
    q: z
      .string()
      .trim()
      .max(200)
      .optional()
      .meta({ description: 'Part of the name, contact or user e-mail, or the exact id.' }),
    status: OperatorStatusSchema.optional(),
  })
  .meta({ id: 'AdminOperatorSearchQuery' });

export const ADMIN_OPERATOR_SEARCH_LIMIT = 100;
export const AdminOperatorListSchema = z
  .object({ operators: z.array(AdminOperatorSchema), truncated: z.boolean() })
  .meta({ id: 'AdminOperatorList', description: 'Newest first, at most 100; truncated when more matched.' });
export type AdminOperatorList = z.infer<typeof AdminOperatorListSchema>;

export const AdminOperatorUserSchema = z
  .object({
    id: z.string(),
    email: z.string(),
    name: z.string().nullable(),
    role: z.enum(['owner', 'member']),
    emailVerified: z.boolean(),
    disabled: z.boolean(),
    createdAt: Timestamp,
    lastLoginAt: Timestamp.nullable(),
  })
  .meta({ id: 'AdminOperatorUser' });

/** Another operator whose name reads like this one's (docs/security.md, "Names that deceive"). */
export const AdminLookAlikeOperatorSchema = z
  .object({ id: z.string(), name: z.string(), status: OperatorStatusSchema, embeddingEnabled: z.boolean() })
  .meta({ id: 'AdminLookAlikeOperator' });
const LookAlikes = z.array(AdminLookAlikeOperatorSchema).meta({
  description:
    "Other operators whose name reads like this one's (case, accents, look-alike letters, digits for letters, " +
    'punctuation folded, or the same with up to 4 characters added). Shown, not refused: two operators may share a name.',
});

export const AdminOperatorDetailSchema = z
  .object({
    operator: AdminOperatorSchema,
    keys: z.array(PortalPublishableKeySchema),
    secretKeys: z.array(PortalSecretKeySchema),
    origins: z.array(PortalAllowedOriginSchema),
    users: z.array(AdminOperatorUserSchema),
    lookAlikes: LookAlikes,
  })
  .meta({ id: 'AdminOperatorDetail' });
export type AdminOperatorDetail = z.infer<typeof AdminOperatorDetailSchema>;

export const AdminOperatorPatchSchema = z
  .object({
    embeddingEnabled: z.boolean().optional().meta({ description: 'true approves live keys.' }),
    integrationTier: IntegrationTierSchema.optional(),
    commissionRateBps: z
      .number()
      .int()
      .min(0)
      .max(PORTAL_LIMITS.maxCommissionBps)
      .optional()
      .meta({ description: 'Applies to sales after the change; past commissions are never rewritten.' }),
    status: OperatorStatusSchema.optional().meta({ description: 'suspended deactivates every key at once.' }),
  })
  .strict()
  .refine((patch) => Object.values(patch).some((v) => v !== undefined), { message: 'nothing to change' })
  .meta({ id: 'AdminOperatorPatch' });
export type AdminOperatorPatch = z.infer<typeof AdminOperatorPatchSchema>;

export const AdminOperatorResponseSchema = z
  .object({ operator: AdminOperatorSchema })
  .meta({ id: 'AdminOperatorResponse' });
export type AdminOperatorResponse = z.infer<typeof AdminOperatorResponseSchema>;

/** PATCH /admin/operators/{id}: the operator, and when it turned live embedding on, its look-alikes once more. */
export const AdminOperatorPatchResponseSchema = AdminOperatorResponseSchema.extend({
  lookAlikes: LookAlikes.optional().meta({ description: 'Only when the patch set embeddingEnabled to true.' }),
}).meta({ id: 'AdminOperatorPatchResponse' });

export const AdminWebhookUrlRequestSchema = z
  .object({
    url: z
      .string()
      .max(2048)
      .nullable()
      .meta({ description: 'https (http only to localhost/127.0.0.1); null removes the webhook (URL and secrets).' }),
  })
  .strict()
  .meta({ id: 'AdminWebhookUrlRequest' });

export const MAX_SECRET_OVERLAP_HOURS = PORTAL_LIMITS.maxSecretOverlapHours;
export const AdminRotateSecretRequestSchema = z
  .object({
    overlapHours: z
      .number()
      .int()
      .min(0)
      .max(MAX_SECRET_OVERLAP_HOURS)
      .meta({ description: 'How long the previous secret keeps signing next to the new one (0: stops now).' }),
  })
  .strict()
  .meta({ id: 'AdminRotateSecretRequest' });

export const AdminRotateSecretResponseSchema = z
  .object({
    secret: z
      .string()
      .meta({ description: 'The new whsec_… secret. Shown once here (the owner can reveal it later).' }),
    previousSecretExpiresAt: Timestamp.nullable(),
    operator: AdminOperatorSchema,
  })
  .meta({ id: 'AdminRotateSecretResponse' });
export type AdminRotateSecretResponse = z.infer<typeof AdminRotateSecretResponseSchema>;

export const AdminAuditQuerySchema = AuditListQuerySchema.extend({
  operatorId: z.string().max(100).optional(),
  action: z.string().max(100).optional(),
}).meta({ id: 'AdminAuditQuery' });
