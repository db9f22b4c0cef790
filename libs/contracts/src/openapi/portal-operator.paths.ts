import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { AuditListQuerySchema, AuditListSchema } from '../portal/audit.schema';
import { UpdateBrandingRequestSchema } from '../portal/branding.schema';
import { DashboardQuerySchema, DashboardResponseSchema } from '../portal/dashboard.schema';
import {
  AddOriginResponseSchema,
  AllowedOriginListSchema,
  CreatePublishableKeyRequestSchema,
  CreateSecretKeyRequestSchema,
  CreateSecretKeyResponseSchema,
  IntegrationResponseSchema,
  OriginQuerySchema,
  OriginRequestSchema,
  OriginTestResponseSchema,
  PortalOperatorResponseSchema,
  PublishableKeyListSchema,
  PublishableKeyResponseSchema,
  RotateKeyRequestSchema,
  RotateKeyResponseSchema,
  SecretKeyListSchema,
  SecretKeyResponseSchema,
} from '../portal/operator.schema';
import {
  PortalWebhookSchema,
  RevealSecretResponseSchema,
  WebhookEventDetailSchema,
  WebhookEventListQuerySchema,
  WebhookEventListSchema,
  WebhookEventResponseSchema,
} from '../portal/webhook.schema';
import { P, capReached, created, eventPath, idPath, json, notFound, ok, op } from './portal-operation';

/** OpenAPI path items of the operator routes (`/operator/**`); portal.openapi.ts includes them. */
export const operatorPaths: ZodOpenApiPathsObject = {
  [`${P}/operator`]: {
    get: op(
      'member',
      'getOperator',
      'The operator and its provider-set settings (read-only)',
      ok(PortalOperatorResponseSchema),
    ),
  },
  [`${P}/operator/branding`]: {
    put: op(
      'owner',
      'updateBranding',
      'Set or clear the brand colour and logo of the checkout pages',
      ok(PortalOperatorResponseSchema),
      {
        body: UpdateBrandingRequestSchema,
        write: true,
        description:
          'Refused with 400 (code invalid_request, nothing written) for a colour that is not #rrggbb or too light for white text (WCAG AA 4.5:1), or a logo URL that is not https. Audited as operator.branding_changed.',
      },
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
