import { formatAuthorizationPayment } from '@expedition/payments';
import { PUBLIC_URL } from './harness';
import {
  h,
  usePoliciesHarness,
  DEV_TOKENS,
  newQuote,
  purchase,
  challengeOf,
  boughtPolicy,
  counter,
  nextCounter,
} from './policies-harness';

/** The policy's access token is on the receipts of the buyer only (issue 10 §3). */
usePoliciesHarness();

describe('the policy access token on receipts (only to the buyer)', () => {
  it('is on the receipt that paid: policyNumber, accessToken and a documentUrl of the certificate', async () => {
    const { q, receipt } = await boughtPolicy();
    const policy = await h.db.prisma.policy.findUniqueOrThrow({ where: { quoteId: q.quoteId } });
    // The token is derived from the policy number, never stored (docs/decisions.md).
    expect(receipt).toMatchObject({
      status: 'purchased',
      policyNumber: policy.policyNumber,
      accessToken: DEV_TOKENS.tokenFor(policy),
    });
    expect(policy.accessTokenHash).toBeNull();
    expect(receipt.accessToken).toMatch(/^pat_[A-Za-z0-9_-]{43}$/);
    expect(receipt.documentUrl).toBe(
      `${PUBLIC_URL}/api/v1/policies/${policy.policyNumber}/certificate.pdf?access_token=${encodeURIComponent(receipt.accessToken!)}`,
    );
  });

  it('is NOT on an already_paid answer to someone who merely knows the quoteId (no credential, another plan)', async () => {
    const { q, receipt } = await boughtPolicy();
    for (const res of [
      await purchase({ quoteId: q.quoteId, planId: q.plan.planId }),
      await purchase({ quoteId: q.quoteId, planId: q.other.planId }),
    ]) {
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ status: 'already_paid', policyNumber: receipt.policyNumber });
      expect(res.body.accessToken).toBeUndefined();
      expect(res.body.documentUrl).toBeUndefined();
      expect(JSON.stringify(res.body)).not.toContain(receipt.accessToken!.slice(4));
    }
  });

  it('is NOT given for another credential: another challenge of the same quote, even with the token that paid', async () => {
    const q = await newQuote();
    const paying = challengeOf(await purchase({ quoteId: q.quoteId, planId: q.plan.planId }));
    const spare = challengeOf(await purchase({ quoteId: q.quoteId, planId: q.plan.planId }));
    const spt = `spt_test_success_policy_${nextCounter()}`;
    const paid = await purchase(
      { quoteId: q.quoteId, planId: q.plan.planId },
      { Authorization: formatAuthorizationPayment({ challenge: paying, payload: { spt } }) },
    );
    expect(paid.body.accessToken).toMatch(/^pat_/);
    for (const token of [spt, `spt_test_success_policy_${nextCounter()}`]) {
      const res = await purchase(
        { quoteId: q.quoteId, planId: q.plan.planId },
        { Authorization: formatAuthorizationPayment({ challenge: spare, payload: { spt: token } }) },
      );
      expect(res.status).toBe(200);
      expect(res.body.status).toBe('already_paid');
      expect(res.body.accessToken).toBeUndefined();
      expect(JSON.stringify(res.body)).not.toContain(paid.body.accessToken.slice(4));
    }
    // The paying challenge with another token is not the paying credential either.
    const otherToken = await purchase(
      { quoteId: q.quoteId, planId: q.plan.planId },
      {
        Authorization: formatAuthorizationPayment({
          challenge: paying,
          payload: { spt: `spt_test_success_policy_${nextCounter()}` },
        }),
      },
    );
    expect(otherToken.body.accessToken).toBeUndefined();
  });

  it('is given again to a retry with the very credential that paid (a lost response, the MCP tool) as already_paid', async () => {
    const { q, auth, receipt } = await boughtPolicy();
    const retry = await purchase({ quoteId: q.quoteId, planId: q.plan.planId }, auth);
    expect(retry.status).toBe(200);
    expect(retry.body).toMatchObject({
      status: 'already_paid',
      accessToken: receipt.accessToken,
      documentUrl: receipt.documentUrl,
    });
  });

  it('is replayed with the receipt to the same Idempotency-Key and credential', async () => {
    const q = await newQuote();
    const challenge = challengeOf(await purchase({ quoteId: q.quoteId, planId: q.plan.planId }));
    const auth = {
      Authorization: formatAuthorizationPayment({
        challenge,
        payload: { spt: `spt_test_success_policy_${nextCounter()}` },
      }),
      'Idempotency-Key': `k-${counter}`,
    };
    const first = await purchase({ quoteId: q.quoteId, planId: q.plan.planId }, auth);
    const replay = await purchase({ quoteId: q.quoteId, planId: q.plan.planId }, auth);
    expect(first.body.accessToken).toMatch(/^pat_/);
    expect(replay.body).toEqual(first.body);
  });
});
