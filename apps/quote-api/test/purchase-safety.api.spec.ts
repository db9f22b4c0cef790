import request from 'supertest';
import pino from 'pino';
import {
  formatAuthorizationPayment,
  parsePaymentChallenges,
  parsePaymentReceipt,
  type PaymentChallenge,
  type SettleSharedPaymentTokenInput,
} from '@expedition/payments';
import { antarcticaQuote, createHarness, iceToursOperator, type Harness } from './harness';

/**
 * The parts of POST /api/v1/purchase that protect money (notes A7): concurrent credentials settle at most once,
 * Idempotency-Key replays the stored answer, nothing is written before payment, and credentials never reach logs.
 */

let h: Harness;
let logLines: string[];
let settlements: SettleSharedPaymentTokenInput[];
/** When set, the next settlement waits for it (to hold one request inside the processor call). */
let holdNextSettlement: Promise<void> | undefined;

beforeAll(async () => {
  logLines = [];
  // Every level, no redaction configured: the test proves the credential is never handed to the logger at all.
  const logger = pino({ level: 'trace' }, { write: (line: string) => void logLines.push(line) });
  h = await createHarness({ logger });
  const settle = h.processor.settleSharedPaymentToken.bind(h.processor);
  h.processor.settleSharedPaymentToken = async (input) => {
    settlements.push(input);
    const hold = holdNextSettlement;
    holdNextSettlement = undefined;
    if (hold) await hold;
    return settle(input);
  };
});
beforeEach(() => {
  settlements = [];
  holdNextSettlement = undefined;
});
afterAll(() => h.close());

async function newQuote() {
  const res = await request(h.app).post('/api/v1/quotes').send(antarcticaQuote);
  expect(res.status).toBe(200);
  const plans = res.body.plans as { planId: string; estimatedPremiumCents: number; availabilityMode: string }[];
  const [plan, other] = plans.filter((p) => p.availabilityMode === 'full');
  return { quoteId: res.body.quoteId as string, plan: plan!, other: other! };
}

const purchase = (body: object, headers: Record<string, string> = {}) =>
  request(h.app).post('/api/v1/purchase').set(headers).send(body);

async function challengeFor(
  quoteId: string,
  planId: string,
  headers: Record<string, string> = {},
): Promise<PaymentChallenge> {
  const res = await purchase({ quoteId, planId }, headers);
  expect(res.status).toBe(402);
  return parsePaymentChallenges(res.headers['www-authenticate'] as string)[0]!;
}

const authorization = (challenge: PaymentChallenge, spt: string) =>
  formatAuthorizationPayment({ challenge, payload: { spt } });

function deferred() {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

/** Sends both requests at once while the first settlement is held, releasing it once one answer is back. */
async function inParallel(a: request.Test, b: request.Test) {
  const gate = deferred();
  holdNextSettlement = gate.promise;
  const both = Promise.all([a, b]);
  // If the code were wrong and both settled, the second settlement is not held, so this still resolves.
  await Promise.race([a, b]);
  gate.open();
  return both;
}

describe('POST /api/v1/purchase: concurrency', () => {
  it('settles two identical credentials sent together once, and records one purchase', async () => {
    const q = await newQuote();
    const challenge = await challengeFor(q.quoteId, q.plan.planId);
    const auth = { Authorization: authorization(challenge, 'spt_test_success_parallel_1') };
    const body = { quoteId: q.quoteId, planId: q.plan.planId };

    const responses = await inParallel(purchase(body, auth), purchase(body, auth));

    expect(settlements).toHaveLength(1);
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 409]);
    const paid = responses.find((r) => r.status === 200)!;
    const refused = responses.find((r) => r.status === 409)!;
    expect(paid.body.status).toBe('purchased');
    // The quote's payment claim refused the twin before the processor was called.
    expect(refused.body.code).toBe('payment_in_progress');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(await h.db.prisma.purchase.count({ where: { quoteId: q.quoteId } })).toBe(1);
    expect(await h.db.prisma.payment.count({ where: { quoteId: q.quoteId } })).toBe(1);

    // The loser's retry (a lost response, in effect) now learns the quote is paid, without a charge.
    const again = await purchase(body, auth);
    expect(again.status).toBe(200);
    expect(again.body.status).toBe('already_paid');
    expect(settlements).toHaveLength(1);
  });

  it('settles at most one of two different valid credentials for the same quote sent together', async () => {
    const q = await newQuote();
    const first = await challengeFor(q.quoteId, q.plan.planId);
    const second = await challengeFor(q.quoteId, q.plan.planId);
    expect(second.id).not.toBe(first.id);
    const body = { quoteId: q.quoteId, planId: q.plan.planId };

    const responses = await inParallel(
      purchase(body, { Authorization: authorization(first, 'spt_test_success_parallel_a') }),
      purchase(body, { Authorization: authorization(second, 'spt_test_success_parallel_b') }),
    );

    expect(settlements).toHaveLength(1);
    expect(responses.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(await h.db.prisma.purchase.count({ where: { quoteId: q.quoteId } })).toBe(1);
    expect(await h.db.prisma.payment.count({ where: { quoteId: q.quoteId } })).toBe(1);
  });
});

describe('POST /api/v1/purchase: Idempotency-Key', () => {
  it('replays the stored response (status, body, headers) for the same key and body, without charging again', async () => {
    const q = await newQuote();
    const key = `idem-${q.quoteId}`;
    const body = { quoteId: q.quoteId, planId: q.plan.planId };
    // The wallet sends the same key on the unpaid call and on the paid retry: a 402 must not be stored.
    const challenge = await challengeFor(q.quoteId, q.plan.planId, { 'Idempotency-Key': key });
    const auth = authorization(challenge, 'spt_test_success_idem_1');
    const original = await purchase(body, { 'Idempotency-Key': key, Authorization: auth });
    expect(original.status).toBe(200);
    expect(original.body.status).toBe('purchased');

    const replayed = await purchase(body, { 'Idempotency-Key': key, Authorization: auth });
    // A stored receipt is bound to the credential that paid: anyone else presenting the key learns nothing.
    const replayedWithoutCredential = await purchase(body, { 'Idempotency-Key': key });
    expect(replayedWithoutCredential.status).toBe(422);
    expect(replayedWithoutCredential.body.paymentReference).toBeUndefined();
    for (const res of [replayed]) {
      expect(res.status).toBe(200);
      // The original answer, not a recomputed already_paid one.
      expect(res.body).toEqual(original.body);
      expect(res.headers['payment-receipt']).toBe(original.headers['payment-receipt']);
      expect(res.headers['cache-control']).toBe('private, no-store');
      expect(res.headers['cache-control']).toBe(original.headers['cache-control']);
    }
    expect(settlements).toHaveLength(1);

    // Without the key, the same request is answered as already paid.
    const withoutKey = await purchase(body, { Authorization: auth });
    expect(withoutKey.body.status).toBe('already_paid');
    expect(settlements).toHaveLength(1);
  });

  it('answers 422 when the same key comes back with a different body', async () => {
    const q = await newQuote();
    const key = `idem-body-${q.quoteId}`;
    const challenge = await challengeFor(q.quoteId, q.plan.planId);
    const ok = await purchase(
      { quoteId: q.quoteId, planId: q.plan.planId },
      { 'Idempotency-Key': key, Authorization: authorization(challenge, 'spt_test_success_idem_2') },
    );
    expect(ok.status).toBe(200);

    const otherBody = await purchase({ quoteId: q.quoteId, planId: q.other.planId }, { 'Idempotency-Key': key });
    expect(otherBody.status).toBe(422);
    expect(otherBody.headers['payment-receipt']).toBeUndefined();
    expect(settlements).toHaveLength(1);
  });

  it('answers 400 for an empty or oversized key', async () => {
    const q = await newQuote();
    const body = { quoteId: q.quoteId, planId: q.plan.planId };
    expect((await purchase(body, { 'Idempotency-Key': 'x'.repeat(256) })).status).toBe(400);
    expect((await purchase(body, { 'Idempotency-Key': '' })).status).toBe(400);
    expect((await purchase(body, { 'Idempotency-Key': 'x'.repeat(255) })).status).toBe(402);
  });
});

describe('POST /api/v1/purchase: side effects', () => {
  it("writes no purchase, policy, commission or outbox row before payment, and all of them after (operator's quote)", async () => {
    const q = await newQuote();
    const operator = await iceToursOperator(h, q.quoteId);
    const counts = async () => ({
      purchases: await h.db.prisma.purchase.count({ where: { quoteId: q.quoteId } }),
      policies: await h.db.prisma.policy.count({ where: { quoteId: q.quoteId } }),
      commissions: await h.db.prisma.commission.count({ where: { operatorId: operator.id } }),
      outbox: await h.db.prisma.webhookEvent.count({ where: { operatorId: operator.id } }),
    });

    const challenge = await challengeFor(q.quoteId, q.plan.planId);
    const declined = await purchase(
      { quoteId: q.quoteId, planId: q.plan.planId },
      { Authorization: authorization(challenge, 'spt_test_decline_side_1') },
    );
    expect(declined.status).toBe(402);
    expect(await counts()).toEqual({ purchases: 0, policies: 0, commissions: 0, outbox: 0 });

    const fresh = parsePaymentChallenges(declined.headers['www-authenticate'] as string)[0]!;
    const paid = await purchase(
      { quoteId: q.quoteId, planId: q.plan.planId },
      { Authorization: authorization(fresh, 'spt_test_success_side_1') },
    );
    expect(paid.status).toBe(200);
    expect(await counts()).toEqual({ purchases: 1, policies: 1, commissions: 1, outbox: 1 });
    const outbox = await h.db.prisma.webhookEvent.findFirstOrThrow({ where: { operatorId: operator.id } });
    expect(outbox.payload).toMatchObject({
      type: 'policy.issued',
      quoteId: q.quoteId,
      premiumCents: q.plan.estimatedPremiumCents,
    });
    expect(parsePaymentReceipt(paid.headers['payment-receipt'] as string)?.reference).toBe(
      (await h.db.prisma.purchase.findUniqueOrThrow({ where: { quoteId: q.quoteId } })).processorPaymentId,
    );
  });
});

describe('POST /api/v1/purchase: logs', () => {
  it('never writes a token or an Authorization value to the logs', async () => {
    logLines.length = 0;
    const q = await newQuote();
    const body = { quoteId: q.quoteId, planId: q.plan.planId };
    const tokens = ['spt_test_decline_secret_log_1', 'spt_test_success_secret_log_2'];
    const credentials: string[] = [];

    let challenge = await challengeFor(q.quoteId, q.plan.planId);
    for (const token of tokens) {
      const auth = authorization(challenge, token);
      credentials.push(auth.slice('Payment '.length));
      const res = await purchase(body, { Authorization: auth });
      if (res.status === 402) challenge = parsePaymentChallenges(res.headers['www-authenticate'] as string)[0]!;
    }
    await purchase(body, { Authorization: 'Payment not-a-credential-spt_test_malformed_3' });

    const output = logLines.join('');
    // The requests were logged (the capture works) ...
    expect(output).toContain('/api/v1/purchase');
    expect(logLines.length).toBeGreaterThanOrEqual(4);
    // ... but nothing secret was.
    for (const secret of [...tokens, ...credentials, 'spt_test_malformed_3', 'spt_test_'])
      expect(output).not.toContain(secret);
    expect(output.toLowerCase()).not.toContain('authorization');
  });
});
