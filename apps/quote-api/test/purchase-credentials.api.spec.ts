import { createHmac } from 'node:crypto';
import { decodeRequest, encodeJcsBase64Url, formatAuthorizationPayment } from '@expedition/payments';
import { MPP_TEST_SECRET } from './harness';
import {
  h,
  settlements,
  usePurchaseHarness,
  newQuote,
  purchase,
  challengeFor,
  pay,
  spt,
  expectProblem,
  expectFreshChallenge,
  rowsFor,
} from './purchase-harness';

/** POST /api/v1/purchase refuses credentials it cannot use: reused, edited, for another request, expired, malformed. */
usePurchaseHarness();

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
