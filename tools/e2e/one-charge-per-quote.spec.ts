import request from 'supertest';
import {
  TEST_CARDS,
  createSimulatedProcessor,
  formatAuthorizationPayment,
  parsePaymentChallenges,
} from '@expedition/payments';
import { SITE, payableQuote as payable, startMoneyPlatform, type MoneyPlatform } from './money-platform.helpers';

/**
 * One quote is charged at most once, whatever channel and however many attempts arrive together: checkout links,
 * a machine payment (MPP) and the iframe's Tier 3 payment all take the quote's payment claim before the processor is
 * called. The three apps run in this process on one database and ONE simulated processor, whose ledger the test reads
 * ("charges at the processor"). A duplicate the claim cannot prevent (a browser-confirmed payment) is refunded.
 */
let platform: MoneyPlatform;
let db: MoneyPlatform['db'];
let store: MoneyPlatform['store'];
let processor: MoneyPlatform['processor'];
let quoteApi: MoneyPlatform['quoteApi'];
let embed: MoneyPlatform['embed'];
let demo: MoneyPlatform['demo'];
let SECRET: string;

beforeAll(async () => {
  platform = await startMoneyPlatform();
  ({ db, store, processor, quoteApi, embed, demo } = platform);
  SECRET = platform.secret;
});
afterAll(async () => {
  await platform?.close();
});

const payableQuote = () => payable(platform);

const embedPost = (route: string, body: object) =>
  request(embed.app).post(route).set('X-SVC-Publishable-Key', demo.publishableKey).set('Origin', SITE).send(body);

const succeededCharges = (quoteId: string) =>
  store.all().filter((r) => r.intent.metadata['quoteId'] === quoteId && r.intent.status === 'succeeded');

describe('one charge per quote, across every channel', () => {
  it('5 checkout links + MPP + Tier 3 fired together: exactly one charge at the processor, one policy, the rest refused', async () => {
    const q = await payableQuote();
    const links = await Promise.all(
      Array.from({ length: 5 }, async () => {
        const res = await request(quoteApi)
          .post('/api/v1/checkout')
          .send({ quoteId: q.quoteId, planId: q.planId, sessionId: q.sessionId });
        expect(res.status).toBe(200);
        return new URL(res.body.checkoutUrl as string).pathname;
      }),
    );
    const unpaid = await request(quoteApi).post('/api/v1/purchase').send({ quoteId: q.quoteId, planId: q.planId });
    expect(unpaid.status).toBe(402);
    const challenge = parsePaymentChallenges(unpaid.headers['www-authenticate'] as string)[0]!;
    const started = await embedPost('/api/embed/payments', { quoteId: q.quoteId, planId: q.planId });
    expect(started.status).toBe(200);

    const [mpp, tier3, ...pages] = await Promise.all([
      request(quoteApi)
        .post('/api/v1/purchase')
        .set('Authorization', formatAuthorizationPayment({ challenge, payload: { spt: 'spt_test_success_race' } }))
        .send({ quoteId: q.quoteId, planId: q.planId }),
      embedPost('/api/embed/payments/confirm', {
        paymentId: started.body.paymentId,
        paymentMethod: TEST_CARDS.success,
      }),
      ...links.map((link) => request(quoteApi).post(link).type('form').send({ cardNumber: TEST_CARDS.success })),
    ]);

    expect(succeededCharges(q.quoteId)).toHaveLength(1);
    expect(await db.prisma.purchase.count({ where: { quoteId: q.quoteId } })).toBe(1);
    expect(await db.prisma.policy.count({ where: { quoteId: q.quoteId } })).toBe(1);
    expect(await db.prisma.payment.count({ where: { quoteId: q.quoteId, status: 'succeeded' } })).toBe(1);
    expect(await db.prisma.payment.count({ where: { quoteId: q.quoteId, refundStatus: { not: null } } })).toBe(0);

    // Every channel answered: the winner with its success, every other attempt with a refusal that charged nothing.
    // The purchase names the channel that won. A checkout link answers 303 (back to the link, which shows the receipt)
    // both when its submit paid and when the quote was already paid by the time it looked, so 303s alone do not name
    // the winner; MPP and Tier 3 answer success only when they charged.
    const { channel } = await db.prisma.purchase.findFirstOrThrow({ where: { quoteId: q.quoteId } });
    expect(mpp.status === 200 && mpp.body.status === 'purchased').toBe(channel === 'mpp');
    expect(tier3.status === 200 && tier3.body.status === 'succeeded').toBe(channel === 'embed');
    if (channel === 'checkout_link') expect(pages.some((p) => p.status === 303)).toBe(true);
    else expect(channel === 'mpp' || channel === 'embed').toBe(true);
    expect([200, 409]).toContain(mpp.status);
    expect([200, 409]).toContain(tier3.status);
    for (const page of pages) expect([303, 200, 402]).toContain(page.status);

    // Afterwards every channel knows the quote is paid, and still nothing more is charged.
    const again = await request(quoteApi)
      .post('/api/v1/purchase')
      .set('Authorization', formatAuthorizationPayment({ challenge, payload: { spt: 'spt_test_success_late' } }))
      .send({ quoteId: q.quoteId, planId: q.planId });
    expect(again.body.status).toBe('already_paid');
    expect((await embedPost('/api/embed/payments', { quoteId: q.quoteId, planId: q.planId })).status).toBe(409);
    expect((await request(quoteApi).post(links[0]!).type('form').send({ cardNumber: TEST_CARDS.success })).status).toBe(
      303,
    );
    expect(succeededCharges(q.quoteId)).toHaveLength(1);
  });

  it('refunds, automatically and once, a second charge the claim could not stop (a browser-confirmed payment)', async () => {
    const q = await payableQuote();
    const started = await embedPost('/api/embed/payments', { quoteId: q.quoteId, planId: q.planId });
    // The quote is bought by machine payment first.
    const unpaid = await request(quoteApi).post('/api/v1/purchase').send({ quoteId: q.quoteId, planId: q.planId });
    const challenge = parsePaymentChallenges(unpaid.headers['www-authenticate'] as string)[0]!;
    const paid = await request(quoteApi)
      .post('/api/v1/purchase')
      .set('Authorization', formatAuthorizationPayment({ challenge, payload: { spt: 'spt_test_success_first' } }))
      .send({ quoteId: q.quoteId, planId: q.planId });
    expect(paid.body.status).toBe('purchased');

    // Then the iframe's intent is confirmed at the processor directly, as Stripe.js in a browser would.
    const late = await processor.confirmPayment({
      paymentId: started.body.paymentId,
      mode: 'test',
      paymentMethod: TEST_CARDS.success,
    });
    expect(late.status).toBe('succeeded');

    const duplicate = await db.prisma.payment.findUniqueOrThrow({
      where: { processorPaymentId: started.body.paymentId },
    });
    expect(duplicate).toMatchObject({
      status: 'succeeded',
      refundStatus: 'succeeded',
      processorRefundId: expect.stringMatching(/^re_sim_/),
    });
    expect(duplicate.refundReason).toMatch(/^duplicate_payment/);
    const record = store.all().find((r) => r.intent.id === started.body.paymentId)!;
    expect(record.refunds).toEqual([
      expect.objectContaining({ amount: q.premiumCents, idempotencyKey: `refund_${started.body.paymentId}` }),
    ]);
    expect(await db.prisma.policy.count({ where: { quoteId: q.quoteId } })).toBe(1);
  });

  it('after a crash mid-payment, the next attempt learns the charge went through and does not charge again', async () => {
    const q = await payableQuote();
    const started = await embedPost('/api/embed/payments', { quoteId: q.quoteId, planId: q.planId });
    // A holder named its payment, the card was charged, and the process died before recording anything.
    const charged = await createSimulatedProcessor({
      webhookUrl: 'http://127.0.0.1:9/nobody',
      webhookSecret: SECRET,
      store,
      delivery: { maxAttempts: 1, sleep: async () => undefined },
    }).confirmPayment({ paymentId: started.body.paymentId, mode: 'test', paymentMethod: TEST_CARDS.success });
    expect(charged.status).toBe('succeeded');
    await db.prisma.paymentClaim.create({
      data: {
        quoteId: q.quoteId,
        holder: 'dead-holder',
        channel: 'embed',
        processorPaymentId: started.body.paymentId,
        leaseUntil: new Date(Date.now() + 60_000),
        updatedAt: new Date(),
      },
    });
    expect(await db.prisma.purchase.count({ where: { quoteId: q.quoteId } })).toBe(0);

    // While the dead holder's lease runs, every channel is told to wait, and nothing is charged.
    const link = await request(quoteApi)
      .post('/api/v1/checkout')
      .send({ quoteId: q.quoteId, planId: q.planId, sessionId: q.sessionId });
    const linkPath = new URL(link.body.checkoutUrl as string).pathname;
    const waiting = await request(quoteApi).post(linkPath).type('form').send({ cardNumber: TEST_CARDS.success });
    expect(waiting.text).toMatch(/already being processed/);
    expect(succeededCharges(q.quoteId)).toHaveLength(1);

    // Once it lapses (seconds, not minutes), the next attempt asks the processor, records the charge, charges nothing.
    await db.prisma.paymentClaim.update({
      where: { quoteId: q.quoteId },
      data: { leaseUntil: new Date(Date.now() - 1) },
    });
    const unpaid = await request(quoteApi).post('/api/v1/purchase').send({ quoteId: q.quoteId, planId: q.planId });
    const challenge = parsePaymentChallenges(unpaid.headers['www-authenticate'] as string)[0]!;
    const retry = await request(quoteApi)
      .post('/api/v1/purchase')
      .set('Authorization', formatAuthorizationPayment({ challenge, payload: { spt: 'spt_test_success_after_crash' } }))
      .send({ quoteId: q.quoteId, planId: q.planId });
    expect(retry.status).toBe(200);
    expect(retry.body.status).toBe('already_paid');
    expect((await db.prisma.purchase.findUniqueOrThrow({ where: { quoteId: q.quoteId } })).processorPaymentId).toBe(
      started.body.paymentId,
    );
    expect(succeededCharges(q.quoteId)).toHaveLength(1);
    expect(await db.prisma.policy.count({ where: { quoteId: q.quoteId } })).toBe(1);
  });
});
