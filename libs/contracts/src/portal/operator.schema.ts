import { z } from 'zod';
import { ModeSchema } from '../common.schema';
import { PORTAL_LIMITS } from '../rules';
import { NullableTimestamp, Timestamp } from './timestamp';

/**
 * Operator portal API (`/api/portal/v1`), the routes an operator's own users call: `/operator/**`. Every response is
 * JSON; dates are RFC 3339 strings; money is integer minor units. Errors are `{ error, code, details? }`
 * (PortalErrorSchema, portal-error.schema.ts). Clients ignore fields they do not know: new optional fields are added
 * without notice. The webhook, dashboard and audit routes' schemas are in webhook.schema.ts, dashboard.schema.ts and
 * audit.schema.ts.
 *
 * Authorization: any user of the operator unless marked "owner"; another operator's key, origin or event is a 404
 * (indistinguishable from an unknown id); a member on an owner-only route is 403 `forbidden`; no session is 401.
 */

// ---------------------------------------------------------------------------------------------------------------
// Operator settings
// ---------------------------------------------------------------------------------------------------------------

export const OperatorStatusSchema = z.enum(['pending', 'active', 'suspended']).meta({ id: 'OperatorStatus' });

export const IntegrationTierSchema = z.number().int().min(1).max(3).meta({
  id: 'IntegrationTier',
  description: '1 hosted quote link, 2 iframe + hosted checkout, 3 checkout inside the iframe.',
});

/** GET /operator: read-only for operators (the provider sets embedding, tier, commission and webhook). */
export const PortalOperatorSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    status: OperatorStatusSchema,
    embeddingEnabled: z.boolean().meta({ description: 'Live keys work only when true (the provider approves).' }),
    integrationTier: IntegrationTierSchema,
    commissionRateBps: z
      .number()
      .int()
      .min(0)
      .max(PORTAL_LIMITS.maxCommissionBps)
      .meta({ description: 'Commission in basis points (1000 = 10 %). Set by the provider.' }),
    webhookUrl: z.string().nullable(),
    webhookSecretSet: z.boolean(),
    liveApproved: z
      .boolean()
      .meta({ description: 'status active and embedding enabled: live keys pass the embed gate.' }),
    contactEmail: z.string().nullable(),
    websiteUrl: z.string().nullable(),
    brandColor: z.string().nullable().meta({ description: 'Accent of the checkout pages (#rrggbb); null: default.' }),
    logoUrl: z.string().nullable().meta({ description: 'https logo on the checkout pages; null: none.' }),
    createdAt: Timestamp,
  })
  .meta({ id: 'PortalOperator' });
export type PortalOperator = z.infer<typeof PortalOperatorSchema>;

export const PortalOperatorResponseSchema = z
  .object({ operator: PortalOperatorSchema })
  .meta({ id: 'PortalOperatorResponse' });
export type PortalOperatorResponse = z.infer<typeof PortalOperatorResponseSchema>;

// ---------------------------------------------------------------------------------------------------------------
// Publishable keys
// ---------------------------------------------------------------------------------------------------------------

export const KeyStateSchema = z
  .enum(['active', 'expiring', 'expired', 'revoked'])
  .meta({ id: 'KeyState', description: 'expiring: rotated, still accepted until expiresAt.' });

/** Why the embed gate refuses a key right now (null when it is accepted). */
export const KeyRefusalSchema = z
  .enum(['revoked', 'expired', 'operator_inactive', 'embedding_disabled'])
  .meta({ id: 'KeyRefusal' });

export const PortalPublishableKeySchema = z
  .object({
    id: z.string(),
    key: z.string().meta({ description: 'pk_op_test_… or pk_op_…: public by design.' }),
    mode: ModeSchema,
    label: z.string().nullable(),
    state: KeyStateSchema,
    accepted: z.boolean().meta({ description: 'Whether the embed gate accepts this key now.' }),
    refusal: KeyRefusalSchema.nullable(),
    createdAt: Timestamp,
    revokedAt: NullableTimestamp,
    expiresAt: NullableTimestamp.meta({ description: 'Set when rotated with a grace: accepted strictly before it.' }),
    lastUsedAt: NullableTimestamp,
  })
  .meta({ id: 'PortalPublishableKey' });
export type PortalPublishableKey = z.infer<typeof PortalPublishableKeySchema>;

export const PublishableKeyListSchema = z
  .object({ keys: z.array(PortalPublishableKeySchema) })
  .meta({ id: 'PublishableKeyList' });
export type PublishableKeyList = z.infer<typeof PublishableKeyListSchema>;

export const CreatePublishableKeyRequestSchema = z
  .object({
    mode: ModeSchema,
    label: z.string().trim().max(PORTAL_LIMITS.maxKeyLabel).optional(),
  })
  .strict()
  .meta({ id: 'CreatePublishableKeyRequest' });

export const PublishableKeyResponseSchema = z
  .object({ key: PortalPublishableKeySchema })
  .meta({ id: 'PublishableKeyResponse' });

/** Grace options of a rotation: the old key stops now, in 24 hours, in 7 days, or at a chosen instant (≤ 30 days ahead). */
export const ROTATION_GRACE_CHOICES = ['now', '24h', '7d'] as const;
export const ROTATION_MAX_GRACE_DAYS = 30;
export const RotateKeyRequestSchema = z
  .union([
    z.object({ grace: z.enum(ROTATION_GRACE_CHOICES) }).strict(),
    z
      .object({
        expiresAt: z.iso
          .datetime({ offset: true })
          .meta({ description: 'When the old key stops working; in the future, at most 30 days ahead.' }),
      })
      .strict(),
  ])
  .meta({ id: 'RotateKeyRequest' });

export const RotateKeyResponseSchema = z
  .object({ newKey: PortalPublishableKeySchema, oldKey: PortalPublishableKeySchema })
  .meta({ id: 'RotateKeyResponse' });
export type RotateKeyResponse = z.infer<typeof RotateKeyResponseSchema>;

// ---------------------------------------------------------------------------------------------------------------
// Secret keys
// ---------------------------------------------------------------------------------------------------------------

export const PortalSecretKeySchema = z
  .object({
    id: z.string(),
    mode: ModeSchema,
    prefix: z.string().meta({ description: 'Display prefix only; the key itself is never stored.' }),
    createdAt: Timestamp,
    revokedAt: NullableTimestamp,
    lastUsedAt: NullableTimestamp,
  })
  .meta({ id: 'PortalSecretKey' });
export type PortalSecretKey = z.infer<typeof PortalSecretKeySchema>;

export const SecretKeyListSchema = z
  .object({ secretKeys: z.array(PortalSecretKeySchema) })
  .meta({ id: 'SecretKeyList' });
export type SecretKeyList = z.infer<typeof SecretKeyListSchema>;

export const CreateSecretKeyRequestSchema = z
  .object({ mode: ModeSchema })
  .strict()
  .meta({ id: 'CreateSecretKeyRequest' });

export const CreateSecretKeyResponseSchema = z
  .object({
    secretKey: z.string().meta({ description: 'The full sk_op_… key. Shown once: only its hash is stored.' }),
    key: PortalSecretKeySchema,
  })
  .meta({ id: 'CreateSecretKeyResponse' });
export type CreateSecretKeyResponse = z.infer<typeof CreateSecretKeyResponseSchema>;

export const SecretKeyResponseSchema = z.object({ key: PortalSecretKeySchema }).meta({ id: 'SecretKeyResponse' });

// ---------------------------------------------------------------------------------------------------------------
// Allowed origins
// ---------------------------------------------------------------------------------------------------------------

export const PortalAllowedOriginSchema = z
  .object({
    origin: z
      .string()
      .meta({ description: 'Normalized scheme://host[:port].', example: 'https://www.icetours.example' }),
    loopback: z.boolean().meta({ description: 'localhost / 127.0.0.0/8 / [::1]: accepted for test keys only.' }),
    appliesTo: z.array(ModeSchema).meta({ description: 'Key modes the embed gate accepts this origin for.' }),
    createdAt: Timestamp,
  })
  .meta({ id: 'PortalAllowedOrigin' });
export type PortalAllowedOrigin = z.infer<typeof PortalAllowedOriginSchema>;

export const AllowedOriginListSchema = z
  .object({ origins: z.array(PortalAllowedOriginSchema) })
  .meta({ id: 'AllowedOriginList' });
export type AllowedOriginList = z.infer<typeof AllowedOriginListSchema>;

export const OriginRequestSchema = z
  .object({ origin: z.string().max(2048).meta({ example: 'https://www.icetours.example' }) })
  .strict()
  .meta({ id: 'OriginRequest' });

export const OriginQuerySchema = z.object({ origin: z.string().min(1).max(2048) }).meta({ id: 'OriginQuery' });

/** 201 when added, 200 when it was already listed (in any spelling that normalizes to it). */
export const AddOriginResponseSchema = z
  .object({ origin: PortalAllowedOriginSchema, added: z.boolean() })
  .meta({ id: 'AddOriginResponse' });
export type AddOriginResponse = z.infer<typeof AddOriginResponseSchema>;

/** Why a page at an origin would be refused for a key (null when accepted). */
export const OriginTestReasonSchema = z
  .enum([
    'accepted',
    'not_listed',
    'loopback_test_only',
    'key_revoked',
    'key_expired',
    'operator_inactive',
    'embedding_disabled',
  ])
  .meta({ id: 'OriginTestReason' });

export const OriginTestResponseSchema = z
  .object({
    normalized: z
      .string()
      .nullable()
      .meta({ description: 'The origin as the gate compares it; null when it is not a valid origin.' }),
    valid: z.boolean(),
    problem: z.string().nullable().meta({ description: 'Why the input is not a valid origin (when valid is false).' }),
    listed: z.boolean(),
    results: z.array(
      z.object({
        keyId: z.string(),
        key: z.string(),
        mode: ModeSchema,
        accepted: z.boolean(),
        reason: OriginTestReasonSchema,
      }),
    ),
  })
  .meta({ id: 'OriginTestResponse' });
export type OriginTestResponse = z.infer<typeof OriginTestResponseSchema>;

// ---------------------------------------------------------------------------------------------------------------
// Integration snippets
// ---------------------------------------------------------------------------------------------------------------

export const IntegrationResponseSchema = z
  .object({
    widgetUrl: z.string(),
    widgetOrigin: z.string(),
    publishableKey: z
      .string()
      .nullable()
      .meta({ description: 'The live key once embedding is enabled, else the newest test key.' }),
    mode: ModeSchema.nullable(),
    allowedTier: IntegrationTierSchema,
    snippets: z.object({
      tier1: z.string().meta({ description: 'The hosted quote page link.' }),
      tier2: z.string(),
      tier3: z.string(),
      csp: z.string(),
      webhookVerification: z
        .string()
        .meta({ description: 'Node (express) receiver verifying X-SVC-Signature over the raw body.' }),
    }),
  })
  .meta({ id: 'IntegrationResponse' });
export type IntegrationResponse = z.infer<typeof IntegrationResponseSchema>;
