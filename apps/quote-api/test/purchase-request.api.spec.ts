import { createHmac } from 'node:crypto';
import { decodeRequest, parseWwwAuthenticate } from '@expedition/payments';
import { MPP_NETWORK_ID, MPP_TEST_SECRET } from './harness';
import {
  h,
  settlements,
  usePurchaseHarness,
  newQuote,
  purchase,
  challengeOf,
  challengeFor,
  expectProblem,
  rowsFor,
} from './purchase-harness';

/** POST /api/v1/purchase: the body and the quote are checked first; an unpaid call answers the 402 challenge. */
usePurchaseHarness();

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
