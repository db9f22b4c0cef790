import pino from 'pino';
import request from 'supertest';
import { ACP_API_VERSION } from '@expedition/contracts';
import { createMoneyPath } from '@expedition/fulfillment';
import { createSimulatedProcessor } from '@expedition/payments';
import { hashToken, randomToken } from '@expedition/platform';
import { antarcticaQuote, createHarness, testClock, type Harness } from './harness';

/**
 * An ACP `complete` whose process dies after the processor charged the card and before it recorded the payment: no
 * Payment row and no MPP challenge exist, so the processor's own `payment.succeeded` event (delivered to the
 * dispatcher's intake) must finish the sale from the ACP checkout session we hold: a payment is never lost.
 */

const WEBHOOK_SECRET = 'whsec_acp_crash_recovery_0123456789abcdef';
const sent: { body: string; signature: string }[] = [];
const clock = testClock();
const processor = createSimulatedProcessor({
  webhookUrl: 'http://127.0.0.1:9/processor/events',
  webhookSecret: WEBHOOK_SECRET,
  clock,
  fetch: async (_url, init) => {
    sent.push({ body: init.body, signature: init.headers['stripe-signature'] ?? '' });
    return { status: 200 };
  },
});

let h: Harness;
let key: string;
let crashAfterCharge = false;

beforeAll(async () => {
  const settle = processor.settleSharedPaymentToken.bind(processor);
  processor.settleSharedPaymentToken = async (input) => {
    const settled = await settle(input);
    if (crashAfterCharge) throw new Error('process died after the charge');
    return settled;
  };
  h = await createHarness({
    clock,
    payments: {
      processor,
      mpp: {
        secrets: ['quote-api-test-mpp-secret-0123456789abcdef'],
        realm: 'quote.test',
        networkId: 'profile_test_expedition',
        paymentMethodTypes: ['card'],
        challengeTtlMs: 300_000,
      },
    },
  });
  key = randomToken('acpk_test', 32);
  await h.db.prisma.agentKey.create({
    data: { name: 'Crash platform', mode: 'test', prefix: key.slice(0, 16), hash: hashToken(key) },
  });
});
afterAll(() => h.close());

let seq = 0;
const post = (p: string, body: object) =>
  request(h.app)
    .post(`/acp/v1${p}`)
    .set({
      Authorization: `Bearer ${key}`,
      'API-Version': ACP_API_VERSION,
      'Idempotency-Key': `crash-${process.pid}-${++seq}`,
    })
    .send(body);

it('the processor event of a charge the app never recorded issues the policy, once', async () => {
  const quoted = await request(h.app).post('/api/v1/quotes').send(antarcticaQuote);
  const plan = (quoted.body.plans as { planId: string; availabilityMode: string }[]).find(
    (p) => p.availabilityMode === 'full',
  )!.planId;
  const created = await post('/checkout_sessions', {
    line_items: [{ id: plan }],
    currency: 'usd',
    capabilities: {},
    metadata: { trip: antarcticaQuote },
    buyer: { email: 'traveler@example.com' },
  });
  expect(created.body.status).toBe('ready_for_payment');
  const quoteId = created.body.quote_id as string;

  crashAfterCharge = true;
  const crashed = await post(`/checkout_sessions/${created.body.id}/complete`, {
    payment_data: {
      handler_id: 'stripe_spt',
      instrument: { type: 'card', credential: { type: 'spt', token: `spt_test_success_crash_${process.pid}` } },
    },
  });
  crashAfterCharge = false;
  expect(crashed.status).toBeGreaterThanOrEqual(500);
  expect(await h.db.prisma.payment.count({ where: { quoteId } })).toBe(0);
  expect(await h.db.prisma.purchase.count({ where: { quoteId } })).toBe(0);

  await processor.idle();
  const succeeded = sent.filter((e) => JSON.parse(e.body).type === 'payment_intent.succeeded');
  expect(succeeded).toHaveLength(1);
  const intake = createMoneyPath({ prisma: h.db.prisma, clock, logger: pino({ level: 'silent' }), processor });
  const event = processor.parseWebhookEvent(succeeded[0]!.body, succeeded[0]!.signature);

  const outcome = await intake.fulfillment.recordProcessorEvent(event);
  expect(outcome.kind).toBe('policy_issued');
  const purchase = await h.db.prisma.purchase.findUniqueOrThrow({ where: { quoteId }, include: { policy: true } });
  expect(purchase).toMatchObject({ channel: 'acp', planId: plan });
  expect(purchase.policy).not.toBeNull();

  // The event delivered again (at least once) changes nothing.
  expect((await intake.fulfillment.recordProcessorEvent(event)).kind).not.toBe('policy_issued');
  expect(await h.db.prisma.purchase.count({ where: { quoteId } })).toBe(1);
  expect(await h.db.prisma.payment.count({ where: { quoteId } })).toBe(1);
});

it('an event naming an ACP session of another quote is refused', async () => {
  const quoted = await request(h.app).post('/api/v1/quotes').send(antarcticaQuote);
  const plan = (quoted.body.plans as { planId: string; availabilityMode: string }[]).find(
    (p) => p.availabilityMode === 'full',
  )!;
  const other = await request(h.app).post('/api/v1/quotes').send(antarcticaQuote);
  const created = await post('/checkout_sessions', {
    line_items: [{ id: plan.planId }],
    currency: 'usd',
    capabilities: {},
    metadata: { trip: antarcticaQuote },
    buyer: { email: 'traveler@example.com' },
  });
  // A charge we never asked for, naming our session but another quote.
  const settled = await processor.settleSharedPaymentToken({
    amountCents: created.body.totals.find((t: { type: string }) => t.type === 'total').amount,
    currency: 'usd',
    mode: 'test',
    spt: `spt_test_success_forged_${process.pid}`,
    challengeId: created.body.id,
    idempotencyKey: `forged-${process.pid}`,
    metadata: {
      quoteId: other.body.quoteId ?? other.body.id,
      planId: plan.planId,
      channel: 'acp',
      acpSessionId: created.body.id,
    },
  });
  expect(settled.status).toBe('succeeded');
  await processor.idle();
  const last = sent.filter((e) => JSON.parse(e.body).type === 'payment_intent.succeeded').at(-1)!;
  const intake = createMoneyPath({ prisma: h.db.prisma, clock, logger: pino({ level: 'silent' }), processor });
  const outcome = await intake.fulfillment.recordProcessorEvent(processor.parseWebhookEvent(last.body, last.signature));
  expect(outcome).toMatchObject({ kind: 'ignored', reason: 'untrusted_payment' });
});
