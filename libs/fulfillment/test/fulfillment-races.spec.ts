import pino from 'pino';
import { addDays, isoDay } from '@expedition/contracts';
import { syncCatalog, type Database, type PrismaClient } from '@expedition/db';
import { createTestDatabase } from '@expedition/db/testing';
import { catalogSnapshot } from '@expedition/domain-pricing';
import { normalizeStripeEvent, type PaymentProcessorEvent } from '@expedition/payments';
import { systemClock } from '@expedition/platform';
import { createQuoteService } from '@expedition/quoting';
import { createFulfillment, SALE_BATCH } from '../src/fulfillment.service';
import type { FulfillmentDeps, FulfillmentOutcome } from '../src/fulfillment-types';
import { randomPolicyNumber } from '../src/identifiers';

/**
 * A sale is written in two statements without a lock when nothing competes (fulfillment-sql.ts), and the locked
 * transaction decides whenever a concurrent writer wins. These races must end as the locked path alone would end
 * them: one policy per quote, a duplicate event answered as such, a second payment refunded, nothing written twice.
 * Sales that arrive together are read and written in batches (batcher.ts): a batch that fails is re-run sale by sale.
 * On PostgreSQL (TEST_DATABASE_URL) the calls below really overlap; on PGlite they queue.
 */
let db: Database;
let prisma: PrismaClient;
let operatorId: string;
const refunded: string[] = [];
/** Statements that read or write sales in batch (every such statement goes through batch_rows). */
let batchStatements = 0;

function fulfillment(overrides: Partial<FulfillmentDeps> = {}) {
  return createFulfillment({
    prisma,
    clock: systemClock,
    logger: pino({ level: 'silent' }),
    processorName: 'simulated',
    refunds: {
      refund: async (paymentRowId: string) => {
        refunded.push(paymentRowId);
        return 'not_pending' as const;
      },
      sweep: async () => 0,
    } as unknown as FulfillmentDeps['refunds'],
    ...overrides,
  });
}

let serial = 0;
/** A quote through our operator, and `payments` payments of it stored (pending) as checkout stores them. */
async function quoteWithPayments(payments: number) {
  const quotes = createQuoteService({ prisma, clock: systemClock });
  const start = addDays(isoDay(Date.now()), 60);
  const { quote, estimates } = await quotes.create({
    source: 'embed',
    operatorId,
    destination: 'Antarctica',
    startDate: start,
    durationDays: 14,
    tripCostCents: 2_400_000,
    travelers: 2,
    travelerAges: [45, 52],
    residence: 'GB',
  });
  const estimate = estimates[0]!;
  const ids: string[] = [];
  for (let i = 0; i < payments; i++) {
    const paymentId = `pi_race_${++serial}_${quote.id.slice(0, 8)}`;
    await prisma.payment.create({
      data: {
        quoteId: quote.id,
        planId: estimate.planId,
        operatorId,
        mode: 'test',
        channel: 'embed',
        processor: 'simulated',
        processorPaymentId: paymentId,
        amountCents: estimate.premiumCents,
        currency: 'USD',
        status: 'pending',
      },
    });
    ids.push(paymentId);
  }
  const succeededEvent = (paymentId: string, eventId = `evt_race_${++serial}`): PaymentProcessorEvent => {
    const created = Math.floor(Date.now() / 1000);
    const event = normalizeStripeEvent({
      id: eventId,
      object: 'event',
      type: 'payment_intent.succeeded',
      livemode: false,
      created,
      data: {
        object: {
          id: paymentId,
          object: 'payment_intent',
          amount: estimate.premiumCents,
          currency: 'usd',
          status: 'succeeded',
          livemode: false,
          metadata: { quoteId: quote.id, planId: estimate.planId, operatorId, channel: 'embed' },
          last_payment_error: null,
          created,
        },
      },
    });
    if (!event || event.type !== 'payment.succeeded') throw new Error('event did not normalize');
    return event;
  };
  return { quote, planId: estimate.planId, premiumCents: estimate.premiumCents, paymentIds: ids, succeededEvent };
}

async function rowsOf(quoteId: string) {
  const [purchases, policies, commissions, outbox, payments] = await Promise.all([
    prisma.purchase.count({ where: { quoteId } }),
    prisma.policy.count({ where: { quoteId } }),
    prisma.commission.count({ where: { policy: { quoteId } } }),
    prisma.webhookEvent.findMany({ where: { payload: { path: ['quoteId'], equals: quoteId } } }),
    prisma.payment.findMany({ where: { quoteId }, orderBy: { processorPaymentId: 'asc' } }),
  ]);
  return { purchases, policies, commissions, outbox: outbox.length, payments };
}

async function soldOnce(quoteId: string) {
  const [policies, purchases, commissions, mails, outbox] = await Promise.all([
    prisma.policy.findMany({ where: { quoteId } }),
    prisma.purchase.count({ where: { quoteId } }),
    prisma.commission.count({ where: { policy: { quoteId } } }),
    prisma.policyMail.count({ where: { policy: { quoteId } } }),
    prisma.webhookEvent.count({ where: { payload: { path: ['quoteId'], equals: quoteId } } }),
  ]);
  return { policies: policies.length, purchases, commissions, mails, outbox, policy: policies[0] };
}

/** Opens pool connections first, so the racing calls start together instead of queueing for a connection. */
async function warmPool(): Promise<void> {
  if (db.kind === 'postgres')
    await Promise.all(Array.from({ length: 6 }, () => prisma.$executeRaw`SELECT pg_sleep(0.05)`));
}

const kinds = (outcomes: FulfillmentOutcome[]) => outcomes.map((o) => o.kind).sort();

// 'auto': PostgreSQL at TEST_DATABASE_URL when reachable (else PGlite); then PGlite, the embedded default.
describe.each(['auto', 'pglite'] as const)('fulfillment under concurrent writers (%s)', (kind) => {
  beforeAll(async () => {
    db = await createTestDatabase({
      kind,
      onQuery: (sql) => {
        if (sql.includes('batch_rows(')) batchStatements++;
      },
    });
    prisma = db.prisma;
    await syncCatalog(prisma, catalogSnapshot());
    const operator = await prisma.operator.create({
      data: {
        name: 'Race operator',
        status: 'active',
        commissionRateBps: 1_000,
        webhookUrl: 'http://127.0.0.1:9/hooks',
      },
    });
    operatorId = operator.id;
  });
  afterAll(() => db.close());

  it('the same event five times at once: one policy, four duplicates, the event recorded once', async () => {
    const { quote, paymentIds, succeededEvent } = await quoteWithPayments(1);
    const event = succeededEvent(paymentIds[0]!);
    const f = fulfillment();
    await warmPool();

    const outcomes = await Promise.all(Array.from({ length: 5 }, () => f.recordProcessorEvent(event)));

    expect(kinds(outcomes)).toEqual(['duplicate', 'duplicate', 'duplicate', 'duplicate', 'policy_issued']);
    expect(await prisma.processorEvent.count({ where: { processorEventId: event.id } })).toBe(1);
    const rows = await rowsOf(quote.id);
    expect(rows).toMatchObject({ purchases: 1, policies: 1, commissions: 1, outbox: 1 });
    expect(rows.payments.map((p) => p.status)).toEqual(['succeeded']);
  });

  it("the processor's event and our app's own record of one payment at once: one policy", async () => {
    const { quote, planId, premiumCents, paymentIds, succeededEvent } = await quoteWithPayments(1);
    const paymentId = paymentIds[0]!;
    const f = fulfillment();
    await warmPool();

    const outcomes = await Promise.all([
      f.recordProcessorEvent(succeededEvent(paymentId)),
      f.recordSucceededPayment({
        paymentId,
        amountCents: premiumCents,
        currency: 'USD',
        mode: 'test',
        quoteId: quote.id,
        planId,
        channel: 'embed',
      }),
    ]);

    expect(kinds(outcomes)).toEqual(['already_recorded', 'policy_issued']);
    expect(await rowsOf(quote.id)).toMatchObject({ purchases: 1, policies: 1, commissions: 1, outbox: 1 });
  });

  it('the processor event after our app recorded the sale: already recorded, stored once; its twins at once are duplicates', async () => {
    const { quote, planId, premiumCents, paymentIds, succeededEvent } = await quoteWithPayments(1);
    const paymentId = paymentIds[0]!;
    const f = fulfillment();
    const sale = await f.recordSucceededPayment({
      paymentId,
      amountCents: premiumCents,
      currency: 'USD',
      mode: 'test',
      quoteId: quote.id,
      planId,
      channel: 'embed',
    });
    expect(sale.kind).toBe('policy_issued');
    const event = succeededEvent(paymentId);
    await warmPool();

    const outcomes = await Promise.all([
      f.recordProcessorEvent(event),
      f.recordProcessorEvent(event),
      f.recordProcessorEvent(event),
    ]);

    expect(kinds(outcomes)).toEqual(['already_recorded', 'duplicate', 'duplicate']);
    expect(outcomes.find((o) => o.kind === 'already_recorded')).toMatchObject({
      purchase: { quoteId: quote.id, processorPaymentId: paymentId },
    });
    expect(await prisma.processorEvent.count({ where: { processorEventId: event.id } })).toBe(1);
    expect(await rowsOf(quote.id)).toMatchObject({ purchases: 1, policies: 1, commissions: 1, outbox: 1 });
  });

  it('two payments of one quote at once: one policy, the other payment refunded as a duplicate', async () => {
    const { quote, paymentIds, succeededEvent } = await quoteWithPayments(2);
    const f = fulfillment();
    refunded.length = 0;
    await warmPool();

    const outcomes = await Promise.all(paymentIds.map((id) => f.recordProcessorEvent(succeededEvent(id))));

    expect(kinds(outcomes)).toEqual(['policy_issued', 'refund_pending']);
    const refund = outcomes.find((o) => o.kind === 'refund_pending');
    expect(refund).toMatchObject({ cause: 'duplicate_payment' });
    const rows = await rowsOf(quote.id);
    expect(rows).toMatchObject({ purchases: 1, policies: 1, commissions: 1, outbox: 1 });
    expect(rows.payments.map((p) => p.status)).toEqual(['succeeded', 'succeeded']);
    expect(rows.payments.filter((p) => p.refundStatus === 'pending')).toHaveLength(1);
    expect(refunded).toHaveLength(1);
  });

  it('a policy number already taken: the sale is written again with a fresh number, once', async () => {
    const first = await quoteWithPayments(1);
    const taken = (await fulfillment().recordProcessorEvent(first.succeededEvent(first.paymentIds[0]!))) as Extract<
      FulfillmentOutcome,
      { kind: 'policy_issued' }
    >;
    expect(taken.kind).toBe('policy_issued');
    const numbers = [taken.policyNumber];
    const f = fulfillment({ newPolicyNumber: (now) => numbers.shift() ?? randomPolicyNumber(now) });
    const second = await quoteWithPayments(1);

    const outcome = await f.recordProcessorEvent(second.succeededEvent(second.paymentIds[0]!));

    expect(outcome.kind).toBe('policy_issued');
    expect((outcome as { policyNumber: string }).policyNumber).not.toBe(taken.policyNumber);
    expect(await rowsOf(second.quote.id)).toMatchObject({ purchases: 1, policies: 1, commissions: 1, outbox: 1 });
    expect(
      await prisma.processorEvent.count({ where: { processorEventId: { startsWith: 'evt_race_' } } }),
    ).toBeGreaterThan(0);
  });

  it('what the one-statement sale returns is what Prisma reads back', async () => {
    const { quote, paymentIds, succeededEvent } = await quoteWithPayments(1);

    const outcome = await fulfillment().recordProcessorEvent(succeededEvent(paymentIds[0]!));

    if (outcome.kind !== 'policy_issued') throw new Error(`expected a policy, got ${outcome.kind}`);
    expect(await prisma.purchase.findUniqueOrThrow({ where: { quoteId: quote.id } })).toEqual(outcome.purchase);
    const policy = await prisma.policy.findUniqueOrThrow({ where: { quoteId: quote.id } });
    // No access token is stored for a new policy: it is derived from the number (policy-tokens.ts).
    expect(policy).toMatchObject({
      id: outcome.policyId,
      policyNumber: outcome.policyNumber,
      accessTokenHash: null,
      status: 'issued',
    });
    expect(policy.issuedAt).toEqual(outcome.purchase.createdAt);
    const payment = await prisma.payment.findUniqueOrThrow({ where: { processorPaymentId: paymentIds[0]! } });
    expect(payment.updatedAt.getTime()).toBeGreaterThanOrEqual(payment.createdAt.getTime());
    expect(outcome.purchase.paymentId).toBe(payment.id);
    expect((await prisma.quote.findUniqueOrThrow({ where: { id: quote.id } })).status).toBe('purchased');
  });

  // The sales that arrive together share the common path's two statements (batcher.ts): each still ends as alone.
  it('eight sales at once: fewer statements than two per sale, and each sale written whole, as alone', async () => {
    const sales = await Promise.all(Array.from({ length: 8 }, () => quoteWithPayments(1)));
    const f = fulfillment();
    await warmPool();
    batchStatements = 0;

    const outcomes = await Promise.all(sales.map((s) => f.recordProcessorEvent(s.succeededEvent(s.paymentIds[0]!))));

    expect(outcomes.map((o) => o.kind)).toEqual(Array(8).fill('policy_issued'));
    // One sale alone takes two (a read and a write); eight at once share them.
    expect(batchStatements).toBeGreaterThanOrEqual(2);
    expect(batchStatements).toBeLessThan(16);
    for (const s of sales) {
      const rows = await soldOnce(s.quote.id);
      expect(rows).toMatchObject({ policies: 1, purchases: 1, commissions: 1, mails: 1, outbox: 1 });
      // What the statement wrote from its JSON rows: ages, dates (UTC days), premium, as the quote holds them.
      expect(rows.policy).toMatchObject({
        travelerAges: s.quote.travelerAges,
        startDate: s.quote.startDate,
        endDate: s.quote.endDate,
        premiumCents: s.premiumCents,
        planId: s.planId,
      });
      const purchase = await prisma.purchase.findUniqueOrThrow({ where: { quoteId: s.quote.id } });
      expect(rows.policy!.issuedAt).toEqual(purchase.createdAt);
      const payment = await prisma.payment.findUniqueOrThrow({ where: { processorPaymentId: s.paymentIds[0]! } });
      expect(payment.status).toBe('succeeded');
      expect((await prisma.quote.findUniqueOrThrow({ where: { id: s.quote.id } })).status).toBe('purchased');
    }
  });

  it('a twin in the batch fails the batch, not the sales: each sale alone again, the twin a duplicate', async () => {
    const sales = await Promise.all(Array.from({ length: 6 }, () => quoteWithPayments(1)));
    const twin = sales[2]!.succeededEvent(sales[2]!.paymentIds[0]!);
    const f = fulfillment();
    await warmPool();

    const outcomes = await Promise.all([
      ...sales.map((s, i) => f.recordProcessorEvent(i === 2 ? twin : s.succeededEvent(s.paymentIds[0]!))),
      f.recordProcessorEvent(twin),
    ]);

    expect(outcomes.map((o) => o.kind).sort()).toEqual([...Array(6).fill('policy_issued'), 'duplicate'].sort());
    for (const s of sales)
      expect(await soldOnce(s.quote.id)).toMatchObject({ policies: 1, purchases: 1, commissions: 1, outbox: 1 });
    expect(await prisma.processorEvent.count({ where: { processorEventId: twin.id } })).toBe(1);
  });

  it('two payments of one quote in one batch: one policy, the other payment refunded', async () => {
    const { quote, paymentIds, succeededEvent } = await quoteWithPayments(2);
    const f = fulfillment();
    await warmPool();

    const outcomes = await Promise.all(paymentIds.map((id) => f.recordProcessorEvent(succeededEvent(id))));

    expect(outcomes.map((o) => o.kind).sort()).toEqual(['policy_issued', 'refund_pending']);
    expect(await soldOnce(quote.id)).toMatchObject({ policies: 1, purchases: 1, commissions: 1, outbox: 1 });
  });

  if (kind === 'auto')
    it('batch_rows tells the planner one row, in PL/pgSQL (never inlined; else generic plans hash whole tables)', async () => {
      const [fn] = await prisma.$queryRaw<{ prorows: number; proisstrict: boolean; lanname: string }[]>`
        SELECT prorows, proisstrict, l.lanname FROM pg_proc JOIN pg_language l ON l.oid = prolang
        WHERE proname = 'batch_rows' AND pronamespace = current_schema()::regnamespace`;
      expect(fn).toEqual({ prorows: 1, proisstrict: true, lanname: 'plpgsql' });
      expect(SALE_BATCH.maxSize).toBeGreaterThan(1);
    });
});
