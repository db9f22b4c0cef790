import type { Database } from '@expedition/db';
import { createTestDatabase, isPostgresReachableSync } from '@expedition/db/testing';
import { randomBytes } from 'node:crypto';
import { TEST_CARDS, createSimulatedProcessor, simulatedBooks, type FetchLike } from '@expedition/payments';

/**
 * The simulated processor's books outlive the app that made a charge, as Stripe's do (docs/decisions.md, "One charge
 * per quote through any crash"): a processor built afresh on the same database (a restarted app, another replica,
 * the admin CLI) sees every payment, lists a quote's payments, answers a repeated key with the first payment, and
 * keeps a spent token spent. On PGlite (embedded) and, where it runs, PostgreSQL.
 */
const kinds = (['pglite', ...(isPostgresReachableSync() ? ['postgres'] : [])] as const).map((kind) => [kind]);

describe.each(kinds)('the simulated processor on durable books (%s)', (kind) => {
  let db: Database;
  beforeAll(async () => {
    db = await createTestDatabase({ kind: kind as 'pglite' | 'postgres' });
  });
  afterAll(() => db?.close());

  const processorOn = (over: { fetch?: FetchLike; now?: () => Date } = {}) =>
    createSimulatedProcessor({
      webhookUrl: 'http://127.0.0.1:9/nobody',
      webhookSecret: 'whsec_sim_durable_books_0123456789abcdef',
      store: simulatedBooks(db),
      fetch: over.fetch ?? (async () => ({ status: 200 })),
      ...(over.now ? { clock: { now: over.now } } : {}),
      delivery: { maxAttempts: 1 },
    });
  // The books outlive every test database (a schema of their own): ids and single-use tokens are this run's.
  const run = randomBytes(6).toString('hex');
  const quoteId = `q_${kind}_${run}`;
  const metadata = { quoteId, planId: 'plan', channel: 'mpp' as const };
  /** The quote's first attempt, settled with one of this run's tokens. */
  const settlement = (token: string) => ({
    amountCents: 150_00,
    currency: 'usd',
    mode: 'test' as const,
    spt: `spt_test_success_${kind}_${run}_${token}`,
    challengeId: 'ch_1',
    idempotencyKey: `pay_${quoteId}_a1`,
    metadata,
  });

  it('a charge made by one process is known to the next, by id, by quote and by its key', async () => {
    const first = processorOn();
    const settled = await first.settleSharedPaymentToken(settlement('durable'));
    expect(settled.status).toBe('succeeded');

    // The app that charged is gone; a new process asks the same books.
    const next = processorOn();
    const found = await next.findPayments({ quoteId, mode: 'test' });
    expect(found).toEqual([expect.objectContaining({ paymentId: settled.paymentId, status: 'succeeded' })]);
    expect(await next.findPayments({ quoteId, mode: 'live' }).catch(() => [])).toEqual([]);
    expect((await next.retrievePayment({ paymentId: settled.paymentId!, mode: 'test' })).amountCents).toBe(150_00);
    // The same key and request answer the first payment (a replay), never a second charge.
    const again = await next.settleSharedPaymentToken(settlement('durable'));
    expect(again).toMatchObject({ paymentId: settled.paymentId, replayed: true });
    // The same key with another token is refused, as at Stripe.
    await expect(next.settleSharedPaymentToken(settlement('other'))).rejects.toMatchObject({
      code: 'idempotency_error',
    });
  });

  it('refunds and card confirmations are kept too', async () => {
    const created = await processorOn().createPayment({
      amountCents: 99_00,
      currency: 'usd',
      mode: 'test',
      idempotencyKey: `create_${quoteId}`,
      metadata: { ...metadata, channel: 'embed' },
    });
    await processorOn().confirmPayment({
      paymentId: created.paymentId,
      mode: 'test',
      paymentMethod: TEST_CARDS.success,
    });
    const refund = await processorOn().refundPayment({
      paymentId: created.paymentId,
      mode: 'test',
      reason: 'duplicate',
      idempotencyKey: `refund_${created.paymentId}`,
    });
    const again = await processorOn().refundPayment({
      paymentId: created.paymentId,
      mode: 'test',
      reason: 'duplicate',
      idempotencyKey: `refund_${created.paymentId}`,
    });
    expect(again.refundId).toBe(refund.refundId);
    expect(await processorOn().retrievePayment({ paymentId: created.paymentId, mode: 'test' })).toMatchObject({
      status: 'succeeded',
      amountRefundedCents: 99_00,
    });
  });

  it('an event the intake missed is re-sent by another process once due', async () => {
    // The intake is down while the charge is made; the process that made it is then gone.
    const down: FetchLike = async () => {
      throw new Error('ECONNREFUSED');
    };
    const created = await processorOn({ fetch: down }).createPayment({
      amountCents: 42_00,
      currency: 'usd',
      mode: 'test',
      idempotencyKey: `resend_${quoteId}`,
      metadata: { ...metadata, channel: 'embed' },
    });
    await processorOn({ fetch: down }).confirmPayment({
      paymentId: created.paymentId,
      mode: 'test',
      paymentMethod: TEST_CARDS.success,
    });
    const received: string[] = [];
    const up: FetchLike = async (_url, init) => {
      received.push(init.body);
      return { status: 200 };
    };
    const later = (ms: number) => () => new Date(Date.now() + ms);
    expect(await processorOn({ fetch: up, now: later(61_000) }).resendDueEvents()).toBeGreaterThanOrEqual(1);
    expect(received.some((body) => body.includes(created.paymentId))).toBe(true);
    // Delivered: the next process has nothing left to send for it.
    received.length = 0;
    await processorOn({ fetch: up, now: later(10 * 60_000) }).resendDueEvents();
    expect(received.some((body) => body.includes(created.paymentId))).toBe(false);
  });
});
