import request from 'supertest';
import { formatAuthorizationPayment, parsePaymentChallenges, type PaymentChallenge } from '@expedition/payments';
import { antarcticaQuote, createHarness, type Harness } from './harness';

/**
 * What the POST /api/v1/purchase specs share (MPP's wire format, notes A1–A8, test table A11): a harness whose processor
 * records each settlement, quotes with two buyable plans, and credentials built with the client helpers only, the way
 * an agent's wallet would, never with the server's primitives. `h` is live: set by the hooks `usePurchaseHarness()`
 * registers.
 */

export let h: Harness;
/** What reached the processor since the test began. */
export const settlements: { spt: string; challengeId: string; amountCents: number }[] = [];

/** Registers the file's hooks: a harness whose processor records each settlement, emptied before each test. */
export function usePurchaseHarness(): void {
  beforeAll(async () => {
    h = await createHarness();
    // Count what reaches the processor: the service calls it through this same object.
    const settle = h.processor.settleSharedPaymentToken.bind(h.processor);
    h.processor.settleSharedPaymentToken = async (input) => {
      settlements.push({ spt: input.spt, challengeId: input.challengeId, amountCents: input.amountCents });
      return settle(input);
    };
  });
  beforeEach(() => {
    settlements.length = 0;
  });
  afterAll(() => h.close());
}

export interface QuotePlan {
  planId: string;
  planName: string;
  estimatedPremiumCents: number;
  availabilityMode: string;
}
export interface Quote {
  quoteId: string;
  quoteNumber: string;
  plans: QuotePlan[];
}

export async function newQuote(
  extra: Record<string, unknown> = {},
): Promise<Quote & { plan: QuotePlan; other: QuotePlan }> {
  const res = await request(h.app)
    .post('/api/v1/quotes')
    .send({ ...antarcticaQuote, ...extra });
  expect(res.status).toBe(200);
  const quote = res.body as Quote;
  const buyable = quote.plans.filter((p) => p.availabilityMode === 'full');
  // Two full plans with different premiums: plan A and plan B for the cross-plan tests.
  const [plan, other] = buyable;
  if (!plan || !other || plan.estimatedPremiumCents === other.estimatedPremiumCents)
    throw new Error('fixture needs two full plans');
  return { ...quote, plan, other };
}

export const purchase = (body: object, headers: Record<string, string> = {}) =>
  request(h.app).post('/api/v1/purchase').set(headers).send(body);

export function challengeOf(res: request.Response): PaymentChallenge {
  const header = res.headers['www-authenticate'];
  expect(typeof header).toBe('string');
  const challenges = parsePaymentChallenges(header as string);
  expect(challenges).toHaveLength(1);
  return challenges[0]!;
}

export async function challengeFor(quoteId: string, planId: string): Promise<PaymentChallenge> {
  const res = await purchase({ quoteId, planId });
  expect(res.status).toBe(402);
  return challengeOf(res);
}

export const pay = (challenge: PaymentChallenge, spt: string) => ({
  Authorization: formatAuthorizationPayment({ challenge, payload: { spt } }),
});

let sptCounter = 0;
export const spt = (kind: 'success' | 'decline' | 'requires_action' | 'insufficient') =>
  `spt_test_${kind}_${++sptCounter}`;

export function expectProblem(res: request.Response, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(res.headers['cache-control']).toBe('no-store');
  expect(res.body).toMatchObject({ type: `https://paymentauth.org/problems/${code}`, status });
}

/** A 402 always carries a new, usable challenge (notes A6 "fresh challenge"). */
export function expectFreshChallenge(res: request.Response, previous?: PaymentChallenge): PaymentChallenge {
  const fresh = challengeOf(res);
  expect(res.body.challengeId).toBe(fresh.id);
  if (previous) expect(fresh.id).not.toBe(previous.id);
  return fresh;
}

export async function rowsFor(quoteId: string) {
  const { prisma } = h.db;
  return {
    purchases: await prisma.purchase.count({ where: { quoteId } }),
    policies: await prisma.policy.count({ where: { quoteId } }),
    payments: await prisma.payment.count({ where: { quoteId } }),
    challenges: await prisma.paymentChallenge.count({ where: { quoteId } }),
    outbox: await prisma.webhookEvent.count(),
    commissions: await prisma.commission.count(),
    quoteStatus: (await prisma.quote.findUniqueOrThrow({ where: { id: quoteId } })).status,
  };
}
