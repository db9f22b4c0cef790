import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import request from 'supertest';
import { prepareDatabase, type Database } from '@expedition/db';
import { createTestDatabase } from '@expedition/db/testing';
import { catalogSnapshot } from '@expedition/domain-pricing';
import { listen, type RunningServer } from '@expedition/http-kit';
import { createSecretBox, ensureDemoOperator, resolveWebhookSecretKeys } from '@expedition/operators';
import {
  TEST_CARDS,
  createInMemorySimulatedPaymentStore,
  createSimulatedProcessor,
  formatAuthorizationPayment,
  parsePaymentChallenges,
  type InMemorySimulatedPaymentStore,
  type SimulatedProcessor,
} from '@expedition/payments';
import { systemClock } from '@expedition/platform';
import { createQuoteService } from '@expedition/quoting';
import { composeEmbedApi, loadEmbedApiConfig, type EmbedApi } from '@expedition/app-embed-api';
import { composeQuoteApi, loadQuoteApiConfig } from '@expedition/app-quote-api';
import { composeWebhookDispatcher, loadDispatcherConfig } from '@expedition/app-webhook-dispatcher';

/**
 * One quote is charged at most once, whatever channel and however many attempts arrive together: checkout links,
 * a machine payment (MPP) and the iframe's Tier 3 payment all take the quote's payment claim before the processor is
 * called. The three apps run in this process on one database and ONE simulated processor, whose ledger the test reads
 * ("charges at the processor"). A duplicate the claim cannot prevent (a browser-confirmed payment) is refunded.
 */
const SITE = 'http://site.test';
const SECRET = 'whsec_sim_one_charge_per_quote_0123456789abcdef';
const silent = pino({ level: 'silent' });

let db: Database;
let store: InMemorySimulatedPaymentStore;
let processor: SimulatedProcessor;
let dispatcher: RunningServer;
let quoteApi: ReturnType<typeof composeQuoteApi>;
let embed: EmbedApi;
let demo: Awaited<ReturnType<typeof ensureDemoOperator>>;

beforeAll(async () => {
  db = await createTestDatabase();
  await prepareDatabase(db, { catalog: catalogSnapshot() });
  const dataDir = mkdtempSync(path.join(tmpdir(), 'one-charge-'));
  const env = { DATA_DIR: dataDir, SIMULATED_PROCESSOR_WEBHOOK_SECRET: SECRET, LOG_LEVEL: 'silent' };
  store = createInMemorySimulatedPaymentStore();
  // The dispatcher listens on a loopback port: the simulated processor reports every charge to it, signed.
  const dispatcherConfig = loadDispatcherConfig(env);
  const keys = resolveWebhookSecretKeys({ configured: undefined, embedded: true, dataDir });
  let intakeUrl = '';
  processor = createSimulatedProcessor({
    webhookUrl: 'http://127.0.0.1:9/unset',
    webhookSecret: SECRET,
    store,
    fetch: (url, init) => fetch(intakeUrl || url, init),
  });
  const composed = composeWebhookDispatcher({
    config: dispatcherConfig,
    db,
    logger: silent,
    webhookSecretKeys: keys,
    processor,
  });
  dispatcher = await listen(composed.app, { port: 0, host: '127.0.0.1' });
  intakeUrl = `${dispatcher.url}/processor/events`;
  quoteApi = composeQuoteApi({
    config: loadQuoteApiConfig({ ...env, MPP_NETWORK_ID: 'profile_test' }),
    db,
    logger: silent,
    processor,
  });
  embed = composeEmbedApi({ config: loadEmbedApiConfig(env), db, logger: silent, processor });
  demo = await ensureDemoOperator({
    prisma: db.prisma,
    dataDir,
    demoOrigin: SITE,
    webhookUrl: 'http://127.0.0.1:9/hooks',
    secretBox: createSecretBox(keys),
  });
});
afterAll(async () => {
  await dispatcher?.close();
  await db?.close();
});

/** A quote of the demo operator that every channel can pay: estimates for links and MPP, ready options for Tier 3. */
async function payableQuote() {
  const created = await createQuoteService({ prisma: db.prisma, clock: systemClock }).create({
    source: 'embed',
    operatorId: demo.operatorId,
    mode: 'test',
    destination: 'Antarctica',
    startDate: new Date(Date.now() + 60 * 86_400_000).toISOString().slice(0, 10),
    durationDays: 14,
    tripCostCents: 2_400_000,
    travelers: 2,
    travelerAges: [45, 52],
    residence: 'GB',
  });
  await embed.optionsWorker.runOnce();
  const option = await db.prisma.quoteOption.findFirstOrThrow({
    where: { quoteId: created.quote.id },
    orderBy: { rank: 'asc' },
  });
  return {
    quoteId: created.quote.id,
    sessionId: created.sessionId,
    planId: option.planId,
    premiumCents: option.premiumCents,
  };
}

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
