import request from 'supertest';
import { ACP_API_VERSION, EMBED_PAYMENT_ALREADY_PURCHASED } from '@expedition/contracts';
import {
  TEST_CARDS,
  formatAuthorizationPayment,
  parsePaymentChallenges,
  type SimulatedProcessor,
} from '@expedition/payments';
import {
  SITE,
  acpKey,
  chargesAtProcessor,
  payableQuote,
  startMoneyPlatform,
  type MoneyPlatform,
} from './money-platform.helpers';

/**
 * A crash never charges a quote twice (docs/decisions.md, "One charge per quote through any crash"). The first
 * channel's process "dies" at a step of the payment: its request stops there for good, so nothing after that step is
 * written, exactly what a kill -9 leaves in the database, while the processor's books (another system) keep what it
 * did. The processor's events are lost throughout: no help from their retries. After the claim's lease lapses, the
 * traveler pays again through a second channel and the reconciler runs; by the processor's own books exactly one
 * charge is kept and exactly one policy exists. ACP quotes belong to no operator, so they pair with ACP and MPP only.
 */

type Channel = 'link' | 'tier3' | 'mpp' | 'acp';
type CrashPoint = 'before_call' | 'after_call' | 'after_record';

let p: MoneyPlatform;
let key: string;
let armed: CrashPoint | null = null;
let reached: (() => void) | null = null;
const zombies: ((err: Error) => void)[] = [];
const dead = <T>() => new Promise<T>((_resolve, reject) => zombies.push(reject));

/** The money-moving calls of every channel stop at the armed crash point, once. */
function crashable(real: SimulatedProcessor): SimulatedProcessor {
  const atCrash = async <T>(call: () => Promise<T>): Promise<T> => {
    const point = armed;
    if (point !== 'before_call' && point !== 'after_call') return call();
    armed = null;
    if (point === 'after_call') await call();
    reached?.();
    return dead<T>();
  };
  return {
    ...real,
    confirmPayment: (input) => atCrash(() => real.confirmPayment(input)),
    settleSharedPaymentToken: (input) => atCrash(() => real.settleSharedPaymentToken(input)),
  };
}

beforeAll(async () => {
  p = await startMoneyPlatform({ wrap: crashable, dropEvents: true });
  key = await acpKey(p);
});
afterAll(async () => {
  for (const kill of zombies) kill(new Error('the crashed process is gone'));
  await p?.close();
});

let seq = 0;
const acp = (path: string, body: object) =>
  request(p.quoteApi)
    .post(`/acp/v1${path}`)
    .set({ Authorization: `Bearer ${key}`, 'API-Version': ACP_API_VERSION, 'Idempotency-Key': `crash-${++seq}` })
    .send(body);

interface Quote {
  quoteId: string;
  planId: string;
  sessionId?: string;
  acpSessionId?: string;
}

async function operatorQuote(): Promise<Quote> {
  const q = await payableQuote(p);
  return { quoteId: q.quoteId, planId: q.planId, sessionId: q.sessionId };
}

/** An agent's trip (an ACP session's `metadata.trip` and the quote request alike). */
const TRIP = {
  destination: 'Antarctica',
  startDate: '2027-01-10',
  durationDays: 14,
  tripCost: 24000,
  travelers: 2,
  travelerAges: [45, 52],
  residence: 'GB',
};

async function acpQuote(): Promise<Quote> {
  const quoted = await request(p.quoteApi).post('/api/v1/quotes').send(TRIP);
  const planId = (quoted.body.plans as { planId: string; availabilityMode: string }[]).find(
    (plan) => plan.availabilityMode === 'full',
  )!.planId;
  const created = await acp('/checkout_sessions', {
    line_items: [{ id: planId }],
    currency: 'usd',
    capabilities: {},
    metadata: { trip: TRIP },
    buyer: { email: 'traveler@example.com', first_name: 'Ada' },
  });
  expect(created.status).toBe(201);
  return { quoteId: created.body.quote_id, planId, acpSessionId: created.body.id };
}

/** Pays the quote through one channel with a card or token that succeeds; the answer's status. */
async function pay(channel: Channel, q: Quote): Promise<number> {
  return (await answer(channel, q)).status;
}

/** Pays the quote through one channel; the answer the payer is left with (a link's page after its redirect). */
async function answer(channel: Channel, q: Quote): Promise<request.Response> {
  const n = ++seq;
  if (channel === 'link') {
    const link = await request(p.quoteApi)
      .post('/api/v1/checkout')
      .send({ quoteId: q.quoteId, planId: q.planId, sessionId: q.sessionId });
    // A paid quote gets no new link: the answer says so.
    if (link.status !== 200) return link;
    const path = new URL(link.body.checkoutUrl as string).pathname;
    const paid = await request(p.quoteApi).post(path).type('form').send({ cardNumber: TEST_CARDS.success });
    return paid.status === 303 ? request(p.quoteApi).get(path) : paid;
  }
  if (channel === 'tier3') {
    const embedPost = (route: string, body: object) =>
      request(p.embed.app)
        .post(route)
        .set('X-SVC-Publishable-Key', p.demo.publishableKey)
        .set('Origin', SITE)
        .send(body);
    const started = await embedPost('/api/embed/payments', { quoteId: q.quoteId, planId: q.planId });
    if (started.status !== 200) return started;
    const paymentMethod = TEST_CARDS.success;
    return embedPost('/api/embed/payments/confirm', { paymentId: started.body.paymentId, paymentMethod });
  }
  if (channel === 'mpp') {
    const unpaid = await request(p.quoteApi).post('/api/v1/purchase').send({ quoteId: q.quoteId, planId: q.planId });
    if (unpaid.status !== 402) return unpaid;
    const challenge = parsePaymentChallenges(unpaid.headers['www-authenticate'] as string)[0]!;
    const credential = formatAuthorizationPayment({ challenge, payload: { spt: `spt_test_success_crash_${n}` } });
    return request(p.quoteApi)
      .post('/api/v1/purchase')
      .set('Authorization', credential)
      .send({ quoteId: q.quoteId, planId: q.planId });
  }
  const paymentData = {
    handler_id: 'stripe_spt',
    instrument: { type: 'card', credential: { type: 'spt', token: `spt_test_success_acp_${n}` } },
  };
  return acp(`/checkout_sessions/${q.acpSessionId}/complete`, { payment_data: paymentData });
}

/** Whether an answer tells the payer the quote is bought (by this payment or an earlier one), in the channel's words. */
function toldBought(channel: Channel, said: request.Response, policyNumber: string): boolean {
  const body = said.body as { status?: string; error?: string; code?: string };
  if (channel === 'mpp') return body.status === 'purchased' || body.status === 'already_paid';
  if (channel === 'tier3') return body.status === 'succeeded' || body.error === EMBED_PAYMENT_ALREADY_PURCHASED;
  if (channel === 'acp') return body.status === 'completed' || /already paid/.test(said.text);
  return body.code === 'already_purchased' || said.text.includes(policyNumber);
}

/** The first channel pays and its process dies at `point`; its claim is left as a kill -9 leaves it. */
async function payAndCrash(channel: Channel, q: Quote, point: CrashPoint): Promise<void> {
  if (point === 'after_record') {
    expect(await pay(channel, q)).toBeLessThan(500);
    // Recorded, then dead before the claim was released: the attempt is still marked started.
    await p.db.prisma.paymentClaim.update({
      where: { quoteId: q.quoteId },
      data: { holder: 'dead', attemptStartedAt: new Date(), processorKey: 'unknown' },
    });
  } else {
    const crashed = new Promise<void>((resolve) => (reached = resolve));
    armed = point;
    void pay(channel, q).catch(() => undefined);
    await crashed;
    reached = null;
  }
  // The lease runs out (seconds after the crash).
  await p.db.prisma.paymentClaim.update({
    where: { quoteId: q.quoteId },
    data: { leaseUntil: new Date(Date.now() - 1) },
  });
}

async function expectOneChargeOnePolicy(quoteId: string) {
  const charges = chargesAtProcessor(p.store, quoteId);
  expect(charges.kept).toHaveLength(1);
  const purchase = await p.db.prisma.purchase.findUniqueOrThrow({ where: { quoteId } });
  expect(charges.kept).toEqual([purchase.processorPaymentId]);
  expect(await p.db.prisma.policy.count({ where: { quoteId } })).toBe(1);
  return charges;
}

const operatorPairs: [Channel, Channel][] = [];
for (const a of ['link', 'tier3', 'mpp'] as const)
  for (const b of ['link', 'tier3', 'mpp'] as const) operatorPairs.push([a, b]);
const acpPairs: [Channel, Channel][] = [
  ['acp', 'mpp'],
  ['mpp', 'acp'],
  ['acp', 'acp'],
];
const points: CrashPoint[] = ['before_call', 'after_call', 'after_record'];
const cases = [...operatorPairs, ...acpPairs].flatMap(([a, b]) => points.map((point) => [a, point, b] as const));

describe('a crash at any step of a payment, then the other channel: one charge kept, one policy', () => {
  it.each(cases)('%s dies %s, then %s pays, then the reconciler runs', async (first, point, second) => {
    const q = first === 'acp' || second === 'acp' ? await acpQuote() : await operatorQuote();
    await payAndCrash(first, q, point);
    const said = await answer(second, q);
    expect(said.status).toBeLessThan(500);
    // Whoever comes back is told the truth: bought, by this payment or the one before the crash.
    const { policyNumber } = await p.db.prisma.policy.findUniqueOrThrow({ where: { quoteId: q.quoteId } });
    expect({ second, toldBought: toldBought(second, said, policyNumber) }).toEqual({ second, toldBought: true });
    await p.dispatcher.reconciler.runOnce();
    const charges = await expectOneChargeOnePolicy(q.quoteId);
    // A charge made before the crash is the one kept: the second channel never charged it again.
    if (point !== 'before_call') expect(charges.made).toHaveLength(1);
    const claim = await p.db.prisma.paymentClaim.findUniqueOrThrow({ where: { quoteId: q.quoteId } });
    expect(claim.attemptStartedAt).toBeNull();
  });
});

describe('the reconciler alone, with nobody paying again', () => {
  it.each(['link', 'tier3', 'mpp', 'acp'] as const)(
    '%s charged and died: the charge becomes the policy',
    async (channel) => {
      const q = channel === 'acp' ? await acpQuote() : await operatorQuote();
      await payAndCrash(channel, q, 'after_call');
      expect(await p.db.prisma.purchase.count({ where: { quoteId: q.quoteId } })).toBe(0);
      const report = await p.dispatcher.reconciler.runOnce();
      expect(report.attempts.paid).toBeGreaterThanOrEqual(1);
      const charges = await expectOneChargeOnePolicy(q.quoteId);
      expect(charges.made).toHaveLength(1);
    },
  );

  it.each(['link', 'tier3', 'mpp', 'acp'] as const)(
    '%s died before the processor call: the attempt is resolved as chargeless and the next key is used',
    async (channel) => {
      const q = channel === 'acp' ? await acpQuote() : await operatorQuote();
      await payAndCrash(channel, q, 'before_call');
      const before = await p.db.prisma.paymentClaim.findUniqueOrThrow({ where: { quoteId: q.quoteId } });
      expect(before.processorKey).toBe(`pay_${q.quoteId}_a${before.attempt}`);
      const report = await p.dispatcher.reconciler.runOnce();
      expect(report.attempts.noCharge).toBeGreaterThanOrEqual(1);
      const after = await p.db.prisma.paymentClaim.findUniqueOrThrow({ where: { quoteId: q.quoteId } });
      expect(after).toMatchObject({ attempt: before.attempt + 1, attemptStartedAt: null, processorKey: null });
      expect(chargesAtProcessor(p.store, q.quoteId).made).toHaveLength(0);
    },
  );
});
