import { z } from 'zod';
import { ModeSchema } from '../common.schema';
import { Timestamp } from './timestamp';

/** `GET /operator/dashboard` of the portal API (operator.schema.ts says how it works). */

export const DashboardQuerySchema = z
  .object({ days: z.coerce.number().int().min(1).max(365).default(30) })
  .meta({ id: 'DashboardQuery' });

const Figures = {
  quotes: z.number().int(),
  purchases: z.number().int(),
  premiumCents: z.number().int(),
  commissionCents: z.number().int(),
};

export const DashboardDaySchema = z
  .object({ day: z.string().meta({ description: 'UTC calendar day YYYY-MM-DD.' }), mode: ModeSchema, ...Figures })
  .meta({ id: 'DashboardDay' });
export type DashboardDay = z.infer<typeof DashboardDaySchema>;

export const DashboardFiguresSchema = z.object(Figures).meta({ id: 'DashboardFigures' });

export const RecentPolicySchema = z
  .object({
    policyNumber: z.string(),
    planId: z.string(),
    planName: z.string(),
    mode: ModeSchema,
    premiumCents: z.number().int(),
    commissionCents: z.number().int().nullable(),
    currency: z.string(),
    travelers: z.number().int(),
    issuedAt: Timestamp,
    confirmationEmail: z
      .enum(['sent', 'pending', 'failed', 'no_address'])
      .nullable()
      .meta({
        description:
          "The policyholder's confirmation e-mail (certificate attached): `sent`, `pending` (queued or being retried), " +
          '`failed` (gave up after the last attempt; the provider can resend it), `no_address` (the buyer gave none: ' +
          'nothing is sent); null for a policy issued before confirmation e-mails existed. Ignore unknown values.',
      }),
  })
  .meta({ id: 'RecentPolicy' });
export type RecentPolicy = z.infer<typeof RecentPolicySchema>;

export const DashboardResponseSchema = z
  .object({
    from: z.string().meta({ description: 'First day of the range (UTC, YYYY-MM-DD).' }),
    to: z.string().meta({ description: 'Last day of the range: today (UTC).' }),
    currency: z.string().meta({ description: 'Money figures are sums of sales in this currency.' }),
    otherCurrencies: z
      .array(z.string())
      .meta({ description: 'Currencies of sales left out of the money sums (counted in purchases).' }),
    days: z.array(DashboardDaySchema).meta({ description: 'One row per day and mode, oldest first, zero-filled.' }),
    totals: z.object({ test: DashboardFiguresSchema, live: DashboardFiguresSchema }),
    conversion: z.object({
      test: z.number().nullable().meta({ description: 'purchases / quotes of the range (0..1); null without quotes.' }),
      live: z.number().nullable(),
    }),
    recentPolicies: z.array(RecentPolicySchema).meta({ description: 'The 10 newest, test and live.' }),
  })
  .meta({ id: 'DashboardResponse' });
export type DashboardResponse = z.infer<typeof DashboardResponseSchema>;
