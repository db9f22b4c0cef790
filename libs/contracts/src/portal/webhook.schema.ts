import { z } from 'zod';
import { ModeSchema } from '../common.schema';
import { NullableTimestamp, Timestamp } from './timestamp';

/** `/operator/webhook` and `/operator/webhook-events/**` of the portal API (operator.schema.ts says how it works). */

export const PortalWebhookSchema = z
  .object({
    url: z.string().nullable(),
    commissionRateBps: z.number().int(),
    secretSet: z.boolean(),
    previousSecretExpiresAt: NullableTimestamp.meta({
      description: 'During a rotation overlap: when the previous secret stops signing.',
    }),
    maxAttempts: z.number().int(),
    retryScheduleSeconds: z
      .array(z.number().int())
      .meta({ description: 'Delay before attempt 2, 3, … after a failure.' }),
  })
  .meta({ id: 'PortalWebhook' });
export type PortalWebhook = z.infer<typeof PortalWebhookSchema>;

export const RevealedSecretSchema = z
  .object({
    secret: z.string().meta({ description: 'whsec_…' }),
    current: z.boolean(),
    expiresAt: NullableTimestamp.meta({
      description: 'null for the current secret; the overlap end for the previous one.',
    }),
  })
  .meta({ id: 'RevealedSecret' });
export const RevealSecretResponseSchema = z
  .object({ secrets: z.array(RevealedSecretSchema) })
  .meta({ id: 'RevealSecretResponse', description: 'Current first, then the previous one while its overlap lasts.' });
export type RevealSecretResponse = z.infer<typeof RevealSecretResponseSchema>;

// ---------------------------------------------------------------------------------------------------------------
// Webhook delivery log
// ---------------------------------------------------------------------------------------------------------------

export const WebhookEventStatusSchema = z.enum(['pending', 'delivered', 'failed']).meta({ id: 'WebhookEventStatus' });

/**
 * What the portal shows: `status`, except `not_sent` for a failed event that never left because no webhook URL was
 * configured (the provider sets it). A not-sent event is not a failed delivery; it can be resent once a URL is set.
 */
export const WebhookEventStateSchema = z
  .enum(['pending', 'delivered', 'failed', 'not_sent'])
  .meta({ id: 'WebhookEventState' });

export const WebhookEventSummarySchema = z
  .object({
    id: z.string(),
    eventId: z.string().meta({ description: 'The body eventId receivers dedupe on (evt_… ; test events evt_test_…).' }),
    type: z.string(),
    status: WebhookEventStatusSchema,
    state: WebhookEventStateSchema.meta({
      description:
        'status, or not_sent for a failed event that never left because no webhook URL was configured (not a ' +
        'failed delivery). Show this one; ignore unknown values.',
    }),
    isTest: z.boolean(),
    mode: ModeSchema.nullable(),
    attemptCount: z.number().int(),
    maxAttempts: z.number().int(),
    nextAttemptAt: NullableTimestamp.meta({ description: 'null unless pending.' }),
    lastError: z.string().nullable(),
    lastStatusCode: z.number().int().nullable(),
    policyNumber: z.string().nullable(),
    premiumCents: z.number().int().nullable(),
    commissionCents: z.number().int().nullable(),
    currency: z.string().nullable(),
    createdAt: Timestamp,
    deliveredAt: NullableTimestamp,
  })
  .meta({ id: 'WebhookEventSummary' });
export type WebhookEventSummary = z.infer<typeof WebhookEventSummarySchema>;

export const WebhookAttemptSchema = z
  .object({
    attemptNumber: z.number().int(),
    startedAt: Timestamp,
    durationMs: z.number().int(),
    statusCode: z.number().int().nullable(),
    error: z.string().nullable(),
    ok: z.boolean(),
  })
  .meta({ id: 'WebhookAttempt' });
export type WebhookAttempt = z.infer<typeof WebhookAttemptSchema>;

export const WebhookEventDetailSchema = z
  .object({
    event: WebhookEventSummarySchema,
    payload: z.record(z.string(), z.unknown()).meta({ description: 'The exact JSON body sent (and re-sent).' }),
    attempts: z.array(WebhookAttemptSchema),
  })
  .meta({ id: 'WebhookEventDetail' });
export type WebhookEventDetail = z.infer<typeof WebhookEventDetailSchema>;

export const WEBHOOK_EVENTS_PAGE_SIZE = 25;
export const WebhookEventListQuerySchema = z
  .object({
    status: WebhookEventStatusSchema.optional(),
    state: WebhookEventStateSchema.optional().meta({
      description: 'Filter by state: failed leaves out not_sent events (status failed counts both).',
    }),
    cursor: z.string().max(200).optional().meta({ description: 'nextCursor of the previous page.' }),
    limit: z.coerce.number().int().min(1).max(100).optional(),
  })
  .meta({ id: 'WebhookEventListQuery' });

export const WebhookEventListSchema = z
  .object({ events: z.array(WebhookEventSummarySchema), nextCursor: z.string().nullable() })
  .meta({ id: 'WebhookEventList', description: 'Newest first.' });
export type WebhookEventList = z.infer<typeof WebhookEventListSchema>;

/** 202 of a resend, 201 of a test event: the event as it now stands (pending, nextAttemptAt now). */
export const WebhookEventResponseSchema = z
  .object({ event: WebhookEventSummarySchema })
  .meta({ id: 'WebhookEventResponse' });
export type WebhookEventResponse = z.infer<typeof WebhookEventResponseSchema>;
