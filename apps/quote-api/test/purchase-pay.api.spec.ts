import { PurchaseReceiptSchema } from '@expedition/contracts';
import { parsePaymentReceipt } from '@expedition/payments';
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

/** POST /api/v1/purchase with a credential: the receipt (and what it says of the e-mail), declines, already paid. */
usePurchaseHarness();

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
    settlements.length = 0;

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
