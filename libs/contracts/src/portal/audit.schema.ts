import { z } from 'zod';
import { Timestamp } from './timestamp';

/** `GET /operator/audit` and `GET /admin/audit` of the portal API (operator.schema.ts says how it works). */

/** Actions recorded (additive: new actions may appear; show unknown ones as they are). */
export const AUDIT_ACTIONS = [
  'operator.created',
  'operator.status_changed',
  'operator.embedding_changed',
  'operator.tier_changed',
  'operator.commission_changed',
  'operator.webhook_url_changed',
  'operator.webhook_secret_rotated',
  'operator.webhook_secret_revealed',
  'publishable_key.created',
  'publishable_key.rotated',
  'publishable_key.revoked',
  'secret_key.created',
  'secret_key.revoked',
  'origin.added',
  'origin.removed',
  'webhook_event.resent',
  'webhook_event.test_sent',
  'team.invite.create',
  'team.invite.revoke',
  'team.member.remove',
] as const;

/**
 * A changed value in the audit log: any JSON value, null when none. Rendered as `{}` (any value, null included):
 * zod renders `unknown().nullable()` as an anyOf whose first branch already matches everything.
 */
const AuditValue = z
  .unknown()
  .nullable()
  .meta({ description: 'Any JSON value; null when none.', override: { anyOf: undefined } });

export const AuditEntrySchema = z
  .object({
    id: z.string(),
    at: Timestamp,
    actor: z.object({
      userId: z.string().nullable(),
      email: z.string().nullable().meta({ description: '"cli" for the admin command line.' }),
      role: z.string().nullable(),
    }),
    operatorId: z.string().nullable(),
    operatorName: z
      .string()
      .nullable()
      .meta({ description: "The operator's current name; null for platform-wide entries." }),
    action: z.string().meta({ description: `One of ${AUDIT_ACTIONS.join(', ')} (more may be added).` }),
    targetType: z.string().nullable(),
    targetId: z.string().nullable(),
    before: AuditValue,
    after: AuditValue,
    ip: z.string().nullable(),
  })
  .meta({ id: 'AuditEntry' });
export type AuditEntry = z.infer<typeof AuditEntrySchema>;

export const AuditListQuerySchema = z
  .object({
    cursor: z.string().max(200).optional(),
    limit: z.coerce.number().int().min(1).max(200).optional(),
  })
  .meta({ id: 'AuditListQuery' });

export const AuditListSchema = z
  .object({ entries: z.array(AuditEntrySchema), nextCursor: z.string().nullable() })
  .meta({ id: 'AuditList', description: 'Newest first.' });
export type AuditList = z.infer<typeof AuditListSchema>;
