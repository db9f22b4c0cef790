import { PolicyLookupSchema, QUOTE_DISCLAIMER } from '@expedition/contracts';
import { decodeRequest, parsePaymentReceipt } from '@expedition/payments';
import { McpPurchaseOutputSchema } from '../src/mcp/mcp.schemas';
import { antarcticaQuote, PUBLIC_URL } from './harness';
import { h, useMcpHarness, ok, toolError, quote, fullPlan, spt, credentialFor, challengeOf } from './mcp-harness';

/** MCP at /mcp: the `purchase` tool's two calls (402 challenge as data, then the credential) and get_policy. */
useMcpHarness();

describe('MCP at /mcp: quote → 402 challenge → credential → receipt', () => {
  it('answers the challenge as data, then completes the purchase with the credential, once', async () => {
    const q = await quote();
    const plan = fullPlan(q);
    const first = await ok(McpPurchaseOutputSchema, 'purchase', { quoteId: q.quoteId, planId: plan.planId });
    const challenge = challengeOf(first);
    expect(first.amountCents).toBe(plan.estimatedPremiumCents);
    expect(first.problem).toMatchObject({
      type: 'https://paymentauth.org/problems/payment-required',
      status: 402,
      challengeId: challenge.id,
    });
    expect(decodeRequest(challenge.request)).toMatchObject({
      amount: String(plan.estimatedPremiumCents),
      currency: 'usd',
      externalId: q.quoteId,
    });
    expect(await h.db.prisma.purchase.count({ where: { quoteId: q.quoteId } })).toBe(0);

    const paid = await ok(McpPurchaseOutputSchema, 'purchase', {
      quoteId: q.quoteId,
      planId: plan.planId,
      credential: credentialFor(challenge, spt('success')),
    });
    expect(paid.outcome).toBe('purchased');
    expect(paid.receipt).toMatchObject({
      status: 'purchased',
      quoteId: q.quoteId,
      planId: plan.planId,
      amountChargedCents: plan.estimatedPremiumCents,
    });
    expect(paid.receipt!.paymentReference).toBeTruthy();
    expect(parsePaymentReceipt(paid.paymentReceipt!)).toMatchObject({
      status: 'success',
      method: 'stripe',
      reference: paid.receipt!.paymentReference,
    });
    expect(await h.db.prisma.purchase.count({ where: { quoteId: q.quoteId } })).toBe(1);
    expect(await h.db.prisma.policy.count({ where: { quoteId: q.quoteId } })).toBe(1);

    // The same call again (a lost answer): already paid, no second charge, no processor reference.
    const again = await ok(McpPurchaseOutputSchema, 'purchase', {
      quoteId: q.quoteId,
      planId: plan.planId,
      credential: credentialFor(challenge, spt('success')),
    });
    expect(again.outcome).toBe('already_paid');
    expect(again.receipt!.paymentReference).toBeUndefined();
    expect(await h.db.prisma.payment.count({ where: { quoteId: q.quoteId } })).toBe(1);
  });

  it('puts the policy token on the receipt, and get_policy shows the policy to its holder only (one not-found error)', async () => {
    const q = await quote();
    const plan = fullPlan(q);
    const challenge = challengeOf(
      await ok(McpPurchaseOutputSchema, 'purchase', { quoteId: q.quoteId, planId: plan.planId }),
    );
    const credential = credentialFor(challenge, spt('success'));
    const paid = await ok(McpPurchaseOutputSchema, 'purchase', { quoteId: q.quoteId, planId: plan.planId, credential });
    const { policyNumber, accessToken, documentUrl } = paid.receipt!;
    expect(accessToken).toMatch(/^pat_/);
    expect(documentUrl).toBe(
      `${PUBLIC_URL}/api/v1/policies/${policyNumber}/certificate.pdf?access_token=${encodeURIComponent(accessToken!)}`,
    );
    // A lost answer, retried with the very credential that paid: the token again (already_paid).
    const retried = await ok(McpPurchaseOutputSchema, 'purchase', {
      quoteId: q.quoteId,
      planId: plan.planId,
      credential,
    });
    expect(retried.receipt).toMatchObject({ status: 'already_paid', accessToken, documentUrl });

    const policy = await ok(PolicyLookupSchema, 'get_policy', { policyNumber, accessToken });
    expect(policy).toMatchObject({
      policyNumber,
      mode: 'test',
      plan: { planId: plan.planId },
      premiumCents: plan.estimatedPremiumCents,
      documentUrl,
      disclaimer: QUOTE_DISCLAIMER,
    });
    expect(policy.travelers.ages).toEqual(antarcticaQuote.travelerAges);

    const wrong = await toolError('get_policy', { policyNumber, accessToken: `${accessToken!.slice(0, -2)}zz` });
    const unknown = await toolError('get_policy', { policyNumber: 'POL-2026-ZZZZZZ', accessToken });
    expect(wrong).toContain('No policy matches this policy number and access token');
    expect(unknown).toBe(wrong);
  });

  it('accepts the bare base64url credential as well as the "Payment …" form', async () => {
    const q = await quote();
    const plan = fullPlan(q);
    const challenge = challengeOf(
      await ok(McpPurchaseOutputSchema, 'purchase', { quoteId: q.quoteId, planId: plan.planId }),
    );
    const bare = credentialFor(challenge, spt('success')).replace(/^Payment /, '');
    const paid = await ok(McpPurchaseOutputSchema, 'purchase', {
      quoteId: q.quoteId,
      planId: plan.planId,
      credential: bare,
    });
    expect(paid.outcome).toBe('purchased');
  });

  it('answers a declined token with a fresh challenge and charges nothing', async () => {
    const q = await quote();
    const plan = fullPlan(q);
    const challenge = challengeOf(
      await ok(McpPurchaseOutputSchema, 'purchase', { quoteId: q.quoteId, planId: plan.planId }),
    );
    const declined = await ok(McpPurchaseOutputSchema, 'purchase', {
      quoteId: q.quoteId,
      planId: plan.planId,
      credential: credentialFor(challenge, spt('decline')),
    });
    expect(declined.problem?.type).toBe('https://paymentauth.org/problems/verification-failed');
    expect(challengeOf(declined).id).not.toBe(challenge.id);
    expect(await h.db.prisma.purchase.count({ where: { quoteId: q.quoteId } })).toBe(0);
  });

  it('answers a malformed credential with a challenge, never a charge', async () => {
    const q = await quote();
    const out = await ok(McpPurchaseOutputSchema, 'purchase', {
      quoteId: q.quoteId,
      planId: fullPlan(q).planId,
      credential: 'Payment not-base64-json',
    });
    expect(out.outcome).toBe('payment_required');
    expect(out.problem?.type).toBe('https://paymentauth.org/problems/malformed-credential');
  });
});
