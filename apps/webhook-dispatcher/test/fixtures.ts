import { randomBytes, randomUUID } from 'node:crypto';
import type { PrismaClient } from '@expedition/db';
import type { Clock } from '@expedition/platform';
import { createQuoteService } from '@expedition/quoting';

/** Rows the money path starts from or ends in: operators, priced quotes, outbox rows, and counts of them all. */
export const OPERATOR_SECRET = 'whsec_operator_receiver_secret';

export async function createOperator(
  prisma: PrismaClient,
  fields: { webhookUrl?: string | null; webhookSecret?: string | null; commissionRateBps?: number } = {},
) {
  return prisma.operator.create({
    data: {
      name: `Operator ${randomBytes(3).toString('hex')}`,
      status: 'active',
      commissionRateBps: fields.commissionRateBps ?? 1_250,
      webhookUrl: fields.webhookUrl === undefined ? 'http://127.0.0.1:9/hooks' : fields.webhookUrl,
      webhookSecret: fields.webhookSecret === undefined ? OPERATOR_SECRET : fields.webhookSecret,
    },
  });
}

export const antarcticaTrip = {
  destination: 'Antarctica',
  startDate: '2027-01-10',
  durationDays: 14,
  tripCostCents: 2_400_000,
  travelers: 2,
  travelerAges: [45, 52],
  residence: 'GB',
};

/** A priced quote (source embed with an operator, else api) and its first plan's estimate. */
export async function createQuote(prisma: PrismaClient, clock: Clock, operatorId?: string) {
  const quotes = createQuoteService({ prisma, clock });
  const created = await quotes.create({
    ...antarcticaTrip,
    source: operatorId ? 'embed' : 'api',
    operatorId: operatorId ?? null,
  });
  const estimate = created.estimates[0];
  if (!estimate) throw new Error('the test trip priced no plans');
  return { quote: created.quote, planId: estimate.planId, premiumCents: estimate.premiumCents };
}

/** Row counts of every table the intake and the delivery workers write. */
export async function countMoneyPath(prisma: PrismaClient) {
  const [
    processorEvents,
    payments,
    purchases,
    policies,
    commissions,
    webhookEvents,
    webhookAttempts,
    paidQuotes,
    paidSessions,
  ] = await Promise.all([
    prisma.processorEvent.count(),
    prisma.payment.count(),
    prisma.purchase.count(),
    prisma.policy.count(),
    prisma.commission.count(),
    prisma.webhookEvent.count(),
    prisma.webhookAttempt.count(),
    prisma.quote.count({ where: { status: 'purchased' } }),
    prisma.checkoutSession.count({ where: { status: 'paid' } }),
  ]);
  return {
    processorEvents,
    payments,
    purchases,
    policies,
    commissions,
    webhookEvents,
    webhookAttempts,
    paidQuotes,
    paidSessions,
  };
}

/** Inserts a pending `policy.issued` outbox row directly (delivery tests that do not need the intake). */
export async function enqueueWebhook(
  prisma: PrismaClient,
  operatorId: string,
  at: Date,
  extra: Record<string, unknown> = {},
) {
  const eventId = `evt_${randomUUID()}`;
  const payload = {
    eventId,
    type: 'policy.issued',
    operatorId,
    premiumCents: 12_345,
    commissionCents: 1_543,
    ...extra,
  };
  return prisma.webhookEvent.create({
    data: { eventId, type: 'policy.issued', operatorId, payload, nextAttemptAt: at, createdAt: at },
  });
}
