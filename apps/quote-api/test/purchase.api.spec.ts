import { createHmac } from 'node:crypto';
import request from 'supertest';
import { PurchaseReceiptSchema } from '@expedition/contracts';
import {
  decodeRequest,
  encodeJcsBase64Url,
  formatAuthorizationPayment,
  parsePaymentChallenges,
  parsePaymentReceipt,
  parseWwwAuthenticate,
  type PaymentChallenge,
} from '@expedition/payments';
import { antarcticaQuote, createHarness, MPP_NETWORK_ID, MPP_TEST_SECRET, type Harness } from './harness';

/**
 * POST /api/v1/purchase against MPP's wire format (notes A1–A8, test table A11). Credentials are built with the
 * client helpers only, the way an agent's wallet would, never with the server's primitives.
 */

let h: Harness;
let settlements: { spt: string; challengeId: string; amountCents: number }[];

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
  settlements = [];
});
afterAll(() => h.close());

interface QuotePlan {
  planId: string;
  planName: string;
  estimatedPremiumCents: number;
  availabilityMode: string;
}
interface Quote {
  quoteId: string;
  quoteNumber: string;
  plans: QuotePlan[];
}

async function newQuote(extra: Record<string, unknown> = {}): Promise<Quote & { plan: QuotePlan; other: QuotePlan }> {
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

const purchase = (body: object, headers: Record<string, string> = {}) =>
  request(h.app).post('/api/v1/purchase').set(headers).send(body);

function challengeOf(res: request.Response): PaymentChallenge {
  const header = res.headers['www-authenticate'];
  expect(typeof header).toBe('string');
  const challenges = parsePaymentChallenges(header as string);
  expect(challenges).toHaveLength(1);
  return challenges[0]!;
}

async function challengeFor(quoteId: string, planId: string): Promise<PaymentChallenge> {
  const res = await purchase({ quoteId, planId });
  expect(res.status).toBe(402);
  return challengeOf(res);
}

const pay = (challenge: PaymentChallenge, spt: string) => ({
  Authorization: formatAuthorizationPayment({ challenge, payload: { spt } }),
});

let sptCounter = 0;
const spt = (kind: 'success' | 'decline' | 'requires_action' | 'insufficient') => `spt_test_${kind}_${++sptCounter}`;

function expectProblem(res: request.Response, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(res.headers['cache-control']).toBe('no-store');
  expect(res.body).toMatchObject({ type: `https://paymentauth.org/problems/${code}`, status });
}

/** A 402 always carries a new, usable challenge (notes A6 "fresh challenge"). */
function expectFreshChallenge(res: request.Response, previous?: PaymentChallenge): PaymentChallenge {
  const fresh = challengeOf(res);
  expect(res.body.challengeId).toBe(fresh.id);
  if (previous) expect(fresh.id).not.toBe(previous.id);
  return fresh;
}

async function rowsFor(quoteId: string) {
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

describe('POST /api/v1/purchase: body and quote (checked before any payment)', () => {
  it('answers 400 naming the missing fields', async () => {
    const res = await purchase({});
    expect(res.status).toBe(400);
    expect(res.body.details.map((d: { path: string }) => d.path).sort()).toEqual(['planId', 'quoteId']);
    expect(res.headers['www-authenticate']).toBeUndefined();

    const onlyQuote = await purchase({ quoteId: '7d1f2c3a-1111-4222-8333-944455556666' });
    expect(onlyQuote.status).toBe(400);
    expect(onlyQuote.body.details.map((d: { path: string }) => d.path)).toEqual(['planId']);
  });

  it("answers 400 for a plan that is not among the quote's plans, and writes nothing", async () => {
    const q = await newQuote();
    const res = await purchase({ quoteId: q.quoteId, planId: 'polar-shield-nonexistent' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_plan');
    expect(res.headers['www-authenticate']).toBeUndefined();
    expect((await rowsFor(q.quoteId)).challenges).toBe(0);
  });

  it('answers 400 for a plan priced on inquiry (it cannot be bought online)', async () => {
    const q = await newQuote();
    const inquiry = q.plans.find((p) => p.availabilityMode === 'inquiry');
    expect(inquiry).toBeDefined();
    const res = await purchase({ quoteId: q.quoteId, planId: inquiry!.planId });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('quote_not_purchasable');
    expect(res.headers['www-authenticate']).toBeUndefined();
  });

  it('answers 404 for an unknown and for a malformed quote id', async () => {
    const unknown = await purchase({
      quoteId: '7d1f2c3a-1111-4222-8333-944455556666',
      planId: 'meridian-expedition-standard',
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('quote_not_found');
    const malformed = await purchase({ quoteId: 'not-a-quote', planId: 'meridian-expedition-standard' });
    expect(malformed.status).toBe(404);
    expect(malformed.headers['www-authenticate']).toBeUndefined();
  });
});

describe('POST /api/v1/purchase: the 402 challenge', () => {
  it('answers 402 with a Payment challenge, no-store and a problem+json body', async () => {
    const q = await newQuote();
    const res = await purchase({ quoteId: q.quoteId, planId: q.plan.planId });

    expectProblem(res, 402, 'payment-required');
    const header = res.headers['www-authenticate'] as string;
    expect(header).toMatch(
      /^Payment id="[A-Za-z0-9_-]{43}", realm="quote\.test", method="stripe", intent="charge", request="[A-Za-z0-9_-]+", expires="[^"]+"/,
    );
    const [parsed] = parseWwwAuthenticate(header);
    expect(parsed?.scheme).toBe('Payment');
    expect(parsed?.params).toMatchObject({ realm: 'quote.test', method: 'stripe', intent: 'charge' });

    const challenge = challengeOf(res);
    expect(res.body.challengeId).toBe(challenge.id);
    // base64url without padding, as the wire format requires.
    expect(challenge.request).not.toMatch(/[=+/]/);
    expect(new Date(challenge.expires!).getTime() - h.clock.now().getTime()).toBe(5 * 60 * 1000);
  });

  it("binds the plan's premium in minor units (a string), usd, the quote id and the Stripe profile", async () => {
    const q = await newQuote();
    const challenge = await challengeFor(q.quoteId, q.plan.planId);
    const decoded = decodeRequest(challenge.request);
    expect(decoded).toEqual({
      amount: String(q.plan.estimatedPremiumCents),
      currency: 'usd',
      externalId: q.quoteId,
      methodDetails: { networkId: MPP_NETWORK_ID, paymentMethodTypes: ['card'] },
    });
    expect(typeof decoded.amount).toBe('string');
    // `expires` is a header parameter, never part of the request (notes A3).
    expect(decoded).not.toHaveProperty('expires');
  });

  it('has an id that is the HMAC-SHA256 of the seven slots, computed independently', async () => {
    const q = await newQuote();
    const c = await challengeFor(q.quoteId, q.plan.planId);
    const input = [c.realm, c.method, c.intent, c.request, c.expires ?? '', c.digest ?? '', c.opaque ?? ''].join('|');
    const expected = createHmac('sha256', MPP_TEST_SECRET).update(input, 'utf8').digest('base64url');
    expect(c.id).toBe(expected);
    // A different secret gives a different id: the check above really depends on the server's key.
    expect(createHmac('sha256', `${MPP_TEST_SECRET}x`).update(input, 'utf8').digest('base64url')).not.toBe(c.id);
  });

  it('writes nothing but the challenge row on an unpaid call', async () => {
    const q = await newQuote();
    const before = await rowsFor(q.quoteId);
    await challengeFor(q.quoteId, q.plan.planId);
    await challengeFor(q.quoteId, q.plan.planId);
    const after = await rowsFor(q.quoteId);

    expect(after).toEqual({ ...before, challenges: before.challenges + 2 });
    expect(after).toMatchObject({ purchases: 0, policies: 0, payments: 0, quoteStatus: 'quoted' });
    expect(settlements).toHaveLength(0);
  });
});

describe('POST /api/v1/purchase: what the receipt says of the confirmation e-mail', () => {
  it("says it goes to the quote's address when the quote has one, and queues exactly that mail", async () => {
    const q = await newQuote({ email: 'mpp-buyer@example.com' });
    const res = await purchase(
      { quoteId: q.quoteId, planId: q.plan.planId },
      pay(await challengeFor(q.quoteId, q.plan.planId), spt('success')),
    );
    expect(res.status).toBe(200);
    expect(res.body.nextSteps).toContain(
      'A confirmation e-mail with the certificate attached goes to the e-mail address given with the quote.',
    );
    const policy = await h.db.prisma.policy.findUniqueOrThrow({
      where: { quoteId: q.quoteId },
      include: { mails: true },
    });
    expect(policy.mails.map((m) => [m.recipient, m.status])).toEqual([['mpp-buyer@example.com', 'pending']]);
  });

  it('says no e-mail is sent when the quote has no address (never "emailed to the traveler")', async () => {
    const q = await newQuote();
    const res = await purchase(
      { quoteId: q.quoteId, planId: q.plan.planId },
      pay(await challengeFor(q.quoteId, q.plan.planId), spt('success')),
    );
    expect(res.body.nextSteps).toContain('No e-mail is sent: the quote carries no e-mail address.');
    expect(res.body.nextSteps).not.toMatch(/emailed/);
  });
});

describe('POST /api/v1/purchase: paying', () => {
  it('settles a success token and answers 200 with the receipt, a Payment-Receipt header and Cache-Control: private', async () => {
    const q = await newQuote();
    const challenge = await challengeFor(q.quoteId, q.plan.planId);
    const token = spt('success');
    const res = await purchase({ quoteId: q.quoteId, planId: q.plan.planId }, pay(challenge, token));

    expect(res.status).toBe(200);
    // The receipt carries the policy's access token: no cache may keep it.
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.headers['www-authenticate']).toBeUndefined();
    const body = PurchaseReceiptSchema.parse(res.body);
    expect(body).toMatchObject({
      status: 'purchased',
      quoteId: q.quoteId,
      quoteNumber: q.quoteNumber,
      planName: q.plan.planName,
      amountCharged: q.plan.estimatedPremiumCents / 100,
      currency: 'USD',
    });
    expect(body.nextSteps.length).toBeGreaterThan(0);

    expect(settlements).toEqual([{ spt: token, challengeId: challenge.id, amountCents: q.plan.estimatedPremiumCents }]);
    const purchaseRow = await h.db.prisma.purchase.findUniqueOrThrow({
      where: { quoteId: q.quoteId },
      include: { policy: true },
    });
    expect(purchaseRow).toMatchObject({
      planId: q.plan.planId,
      amountCents: q.plan.estimatedPremiumCents,
      channel: 'mpp',
    });
    expect(purchaseRow.policy).not.toBeNull();
    expect(purchaseRow.processorPaymentId).toMatch(/^pi_sim_/);

    const receipt = parsePaymentReceipt(res.headers['payment-receipt'] as string);
    expect(receipt).toMatchObject({
      status: 'success',
      method: 'stripe',
      reference: purchaseRow.processorPaymentId,
      externalId: q.quoteId,
    });
    expect(Number.isNaN(Date.parse(receipt!.timestamp))).toBe(false);
    expect(body.paymentReference).toBe(purchaseRow.processorPaymentId);

    const rows = await rowsFor(q.quoteId);
    expect(rows).toMatchObject({ purchases: 1, policies: 1, payments: 1, quoteStatus: 'purchased' });
    const challengeRow = await h.db.prisma.paymentChallenge.findUniqueOrThrow({ where: { id: challenge.id } });
    expect(challengeRow.usedAt).not.toBeNull();
    // Only a hash of the token is kept.
    expect(challengeRow.sptHash).not.toContain(token);
  });

  it('answers 200 already_paid for a paid quote, without charging again (also to the same credential re-sent)', async () => {
    const q = await newQuote();
    const challenge = await challengeFor(q.quoteId, q.plan.planId);
    const auth = pay(challenge, spt('success'));
    const first = await purchase({ quoteId: q.quoteId, planId: q.plan.planId }, auth);
    expect(first.status).toBe(200);
    settlements = [];

    const unpaid = await purchase({ quoteId: q.quoteId, planId: q.plan.planId });
    const lostResponse = await purchase({ quoteId: q.quoteId, planId: q.plan.planId }, auth);
    const otherPlan = await purchase({ quoteId: q.quoteId, planId: q.other.planId });
    for (const res of [unpaid, lostResponse, otherPlan]) {
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        status: 'already_paid',
        quoteId: q.quoteId,
        quoteNumber: q.quoteNumber,
        planName: q.plan.planName,
      });
      expect(res.body.amountCharged).toBe(q.plan.estimatedPremiumCents / 100);
      // Only the paying credential re-sent gets the policy's token back (and then no cache may keep the answer).
      expect(Boolean(res.body.accessToken)).toBe(res === lostResponse);
      expect(res.headers['cache-control']).toBe(res === lostResponse ? 'private, no-store' : 'private');
      // Whoever holds the quoteId learns it is paid, never which processor payment paid it.
      expect(parsePaymentReceipt(res.headers['payment-receipt'] as string)?.reference).toBe(q.quoteNumber);
      expect(res.body.paymentReference).toBeUndefined();
      expect(JSON.stringify(res.headers)).not.toContain(first.body.paymentReference);
    }
    expect(settlements).toHaveLength(0);
    expect(await rowsFor(q.quoteId)).toMatchObject({ purchases: 1, policies: 1, payments: 1 });
  });

  it('answers 402 verification-failed with a fresh challenge on a decline, records no purchase, and a new token then works', async () => {
    const q = await newQuote();
    const challenge = await challengeFor(q.quoteId, q.plan.planId);
    const declined = await purchase({ quoteId: q.quoteId, planId: q.plan.planId }, pay(challenge, spt('decline')));

    expectProblem(declined, 402, 'verification-failed');
    expect(declined.body.detail).toMatch(/declined/i);
    expect(declined.headers['payment-receipt']).toBeUndefined();
    const fresh = expectFreshChallenge(declined, challenge);
    expect(await rowsFor(q.quoteId)).toMatchObject({ purchases: 0, policies: 0, quoteStatus: 'quoted' });

    const retried = await purchase({ quoteId: q.quoteId, planId: q.plan.planId }, pay(fresh, spt('success')));
    expect(retried.status).toBe(200);
    expect(retried.body.status).toBe('purchased');
    expect(settlements).toHaveLength(2);
  });

  it('answers 402 verification-failed for insufficient funds and for 3-D Secure (requires_action), with no purchase', async () => {
    const q = await newQuote();
    const first = await challengeFor(q.quoteId, q.plan.planId);
    const insufficient = await purchase({ quoteId: q.quoteId, planId: q.plan.planId }, pay(first, spt('insufficient')));
    expectProblem(insufficient, 402, 'verification-failed');
    expect(insufficient.body.detail).toMatch(/insufficient funds/i);

    const second = expectFreshChallenge(insufficient, first);
    const action = await purchase({ quoteId: q.quoteId, planId: q.plan.planId }, pay(second, spt('requires_action')));
    expectProblem(action, 402, 'verification-failed');
    expectFreshChallenge(action, second);
    expect(await rowsFor(q.quoteId)).toMatchObject({ purchases: 0, policies: 0 });
    expect(settlements).toHaveLength(2);
  });
});

describe('POST /api/v1/purchase: challenges are single use and bound to the request', () => {
  it('refuses a reused challenge id with another token (402 invalid-challenge)', async () => {
    const q = await newQuote();
    const challenge = await challengeFor(q.quoteId, q.plan.planId);
    const declined = await purchase({ quoteId: q.quoteId, planId: q.plan.planId }, pay(challenge, spt('decline')));
    expect(declined.status).toBe(402);

    const reused = await purchase({ quoteId: q.quoteId, planId: q.plan.planId }, pay(challenge, spt('success')));
    expectProblem(reused, 402, 'invalid-challenge');
    expectFreshChallenge(reused, challenge);
    expect(settlements).toHaveLength(1);
    expect((await rowsFor(q.quoteId)).purchases).toBe(0);
  });

  it('refuses a token that was already presented, even with a new challenge (402 invalid-challenge)', async () => {
    const q = await newQuote();
    const token = spt('decline');
    const first = await challengeFor(q.quoteId, q.plan.planId);
    const declined = await purchase({ quoteId: q.quoteId, planId: q.plan.planId }, pay(first, token));
    const second = expectFreshChallenge(declined, first);

    const reusedToken = await purchase({ quoteId: q.quoteId, planId: q.plan.planId }, pay(second, token));
    expectProblem(reusedToken, 402, 'invalid-challenge');
    expect(settlements).toHaveLength(1);

    // A token that paid one quote cannot pay another.
    const paid = await newQuote();
    const spent = spt('success');
    const ok = await purchase(
      { quoteId: paid.quoteId, planId: paid.plan.planId },
      pay(await challengeFor(paid.quoteId, paid.plan.planId), spent),
    );
    expect(ok.status).toBe(200);
    const other = await newQuote();
    const again = await purchase(
      { quoteId: other.quoteId, planId: other.plan.planId },
      pay(await challengeFor(other.quoteId, other.plan.planId), spent),
    );
    expectProblem(again, 402, 'invalid-challenge');
    expect(settlements).toHaveLength(2);
    expect((await rowsFor(other.quoteId)).purchases).toBe(0);
  });

  it('refuses an edited request (amount lowered) and a forged id (402 invalid-challenge)', async () => {
    const q = await newQuote();
    const challenge = await challengeFor(q.quoteId, q.plan.planId);
    const cheaper = { ...decodeRequest(challenge.request), amount: '100' };
    const edited = await purchase(
      { quoteId: q.quoteId, planId: q.plan.planId },
      pay({ ...challenge, request: encodeJcsBase64Url(cheaper) }, spt('success')),
    );
    expectProblem(edited, 402, 'invalid-challenge');
    expectFreshChallenge(edited, challenge);

    const forged = await purchase(
      { quoteId: q.quoteId, planId: q.plan.planId },
      pay(
        {
          ...challenge,
          id: createHmac('sha256', 'not-the-server-secret-0123456789abcdef').update('x').digest('base64url'),
        },
        spt('success'),
      ),
    );
    expectProblem(forged, 402, 'invalid-challenge');
    expect(settlements).toHaveLength(0);

    // The untouched challenge was never claimed by those attempts and still pays.
    const ok = await purchase({ quoteId: q.quoteId, planId: q.plan.planId }, pay(challenge, spt('success')));
    expect(ok.status).toBe(200);
  });

  it('refuses a correctly signed challenge whose request no longer matches the price (step 6, not only the HMAC)', async () => {
    const q = await newQuote();
    const challenge = await challengeFor(q.quoteId, q.plan.planId);
    // Re-signed with the server's own secret: passes the binding check, so only the request comparison can refuse it.
    const request = encodeJcsBase64Url({ ...decodeRequest(challenge.request), amount: '100' });
    const input = [
      challenge.realm,
      challenge.method,
      challenge.intent,
      request,
      challenge.expires ?? '',
      '',
      challenge.opaque ?? '',
    ].join('|');
    const id = createHmac('sha256', MPP_TEST_SECRET).update(input, 'utf8').digest('base64url');
    const res = await purchase(
      { quoteId: q.quoteId, planId: q.plan.planId },
      pay({ ...challenge, id, request }, spt('success')),
    );
    expectProblem(res, 402, 'invalid-challenge');
    expect(settlements).toHaveLength(0);
  });

  it('refuses a challenge issued for plan A when buying plan B', async () => {
    const q = await newQuote();
    const forA = await challengeFor(q.quoteId, q.plan.planId);
    const res = await purchase({ quoteId: q.quoteId, planId: q.other.planId }, pay(forA, spt('success')));
    expectProblem(res, 402, 'invalid-challenge');
    const fresh = expectFreshChallenge(res, forA);
    expect(decodeRequest(fresh.request).amount).toBe(String(q.other.estimatedPremiumCents));
    expect(settlements).toHaveLength(0);
    expect((await rowsFor(q.quoteId)).purchases).toBe(0);
  });

  it('refuses a challenge for another quote', async () => {
    const a = await newQuote();
    const b = await newQuote();
    const forA = await challengeFor(a.quoteId, a.plan.planId);
    const res = await purchase({ quoteId: b.quoteId, planId: a.plan.planId }, pay(forA, spt('success')));
    expectProblem(res, 402, 'invalid-challenge');
    expect(settlements).toHaveLength(0);
  });

  it('answers 402 payment-expired once the clock is past expires', async () => {
    const q = await newQuote();
    const challenge = await challengeFor(q.quoteId, q.plan.planId);
    h.clock.advance(5 * 60 * 1000 + 1000);
    const res = await purchase({ quoteId: q.quoteId, planId: q.plan.planId }, pay(challenge, spt('success')));

    expectProblem(res, 402, 'payment-expired');
    const fresh = expectFreshChallenge(res, challenge);
    expect(Date.parse(fresh.expires!)).toBeGreaterThan(h.clock.now().getTime());
    expect(settlements).toHaveLength(0);
    expect((await rowsFor(q.quoteId)).purchases).toBe(0);
  });
});

describe('POST /api/v1/purchase: credentials that cannot be used', () => {
  it('answers 400 method-unsupported (problem+json, no challenge) for method "tempo"', async () => {
    const q = await newQuote();
    const challenge = await challengeFor(q.quoteId, q.plan.planId);
    const tempo = formatAuthorizationPayment({
      challenge: { ...challenge, method: 'tempo' },
      payload: { hash: '0xabc' },
    });
    const res = await purchase({ quoteId: q.quoteId, planId: q.plan.planId }, { Authorization: tempo });

    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ type: 'https://paymentauth.org/problems/method-unsupported', status: 400 });
    expect(res.headers['www-authenticate']).toBeUndefined();
    expect(settlements).toHaveLength(0);
  });

  it('answers 402 malformed-credential with a fresh challenge when the credential is not base64url JSON', async () => {
    const q = await newQuote();
    const body = { quoteId: q.quoteId, planId: q.plan.planId };
    for (const value of [
      'Payment !!!not-base64url!!!',
      `Payment ${Buffer.from('not json').toString('base64url')}`,
      'Payment eyJub3QiOiJhIGNyZWRlbnRpYWwifQ',
    ]) {
      const res = await purchase(body, { Authorization: value });
      expectProblem(res, 402, 'malformed-credential');
      expectFreshChallenge(res);
    }
    // Another scheme is simply no payment credential.
    const bearer = await purchase(body, { Authorization: 'Bearer abc' });
    expectProblem(bearer, 402, 'payment-required');
    expect(settlements).toHaveLength(0);
  });
});
