import pino from 'pino';
import { addDays, isoDay } from '@expedition/contracts';
import { syncCatalog, type Database } from '@expedition/db';
import { createTestDatabase } from '@expedition/db/testing';
import { catalogSnapshot } from '@expedition/domain-pricing';
import { systemClock } from '@expedition/platform';
import { createQuoteService } from '@expedition/quoting';
import { createFulfillment } from '../src/fulfillment.service';
import type { FulfillmentDeps } from '../src/fulfillment-types';

/**
 * The last line of defence (issue 20, item 11): whatever a channel or processor got wrong, a payment whose mode is not
 * its quote's never becomes a policy. It is recorded for refund and alerted (an error log, as untrusted events are).
 */
let db: Database;
beforeAll(async () => {
  db = await createTestDatabase();
  await syncCatalog(db.prisma, catalogSnapshot());
});
afterAll(() => db.close());

it('refuses a test-mode payment for a live quote: no policy, the payment kept for refund, an error logged', async () => {
  const logged: { level: number; cause?: string }[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void logged.push(JSON.parse(line)) });
  const refunded: string[] = [];
  const fulfillment = createFulfillment({
    prisma: db.prisma,
    clock: systemClock,
    logger,
    processorName: 'simulated',
    refunds: {
      refund: async (id: string) => void refunded.push(id),
      sweep: async () => 0,
    } as unknown as FulfillmentDeps['refunds'],
  });
  const start = addDays(isoDay(Date.now()), 60);
  const { quote, estimates } = await createQuoteService({ prisma: db.prisma, clock: systemClock }).create({
    source: 'api',
    mode: 'live',
    operatorId: null,
    destination: 'Antarctica',
    startDate: start,
    durationDays: 14,
    tripCostCents: 2_400_000,
    travelers: 2,
    travelerAges: [45, 52],
    residence: 'GB',
  });
  const estimate = estimates[0]!;

  const outcome = await fulfillment.recordSucceededPayment({
    paymentId: 'pi_sim_test_money',
    amountCents: estimate.premiumCents,
    currency: 'USD',
    mode: 'test',
    quoteId: quote.id,
    planId: estimate.planId,
    channel: 'mpp',
  });

  expect(outcome).toMatchObject({ kind: 'refund_pending', cause: 'mode_mismatch' });
  expect(await db.prisma.policy.count({ where: { quoteId: quote.id } })).toBe(0);
  expect(await db.prisma.purchase.count({ where: { quoteId: quote.id } })).toBe(0);
  expect(
    await db.prisma.payment.findUniqueOrThrow({ where: { processorPaymentId: 'pi_sim_test_money' } }),
  ).toMatchObject({
    mode: 'test',
    refundStatus: 'pending',
  });
  expect(refunded).toHaveLength(1);
  expect(logged.filter((l) => l.level >= 50 && l.cause === 'mode_mismatch')).toHaveLength(1);
});
