import { McpPurchaseOutputSchema } from '../src/mcp/mcp.schemas';
import { antarcticaQuote } from './harness';
import { h, useMcpHarness, ok, toolError, quote, fullPlan, spt, credentialFor, challengeOf } from './mcp-harness';

/** MCP at /mcp: failures are MCP tool errors with useful text, never a stack trace. */
useMcpHarness();

describe('MCP at /mcp: errors are tool errors with useful text', () => {
  it('unknown quote, unknown plan, unknown destination', async () => {
    expect(await toolError('purchase', { quoteId: '7d1f2c3a-1111-4222-8333-944455556666', planId: 'x' })).toContain(
      'quote_not_found',
    );
    expect(await toolError('get_plan', { planId: 'no-such-plan' })).toContain('plan_not_found');
    const text = await toolError('list_plans', { destination: 'atlantis' });
    expect(text).toContain('unknown_destination');
    expect(text).toContain('antarctica');
    const q = await quote();
    expect(
      await toolError('create_checkout_link', { quoteId: q.quoteId, planId: 'no-such-plan', sessionId: q.sessionId }),
    ).toContain('invalid_plan');
  });

  it('invalid input names the fields', async () => {
    expect(await toolError('create_quote', { destination: 'Antarctica' })).toMatch(/startDate/);
    const past = await toolError('create_quote', { ...antarcticaQuote, startDate: '2020-01-01' });
    expect(past).toContain('startDate');
    const ages = await toolError('create_quote', { ...antarcticaQuote, travelerAges: [45] });
    expect(ages).toContain('travelerAges');
  });

  it('an internal failure says so without its message or stack', async () => {
    const q = await quote();
    const plan = fullPlan(q);
    const challenge = challengeOf(
      await ok(McpPurchaseOutputSchema, 'purchase', { quoteId: q.quoteId, planId: plan.planId }),
    );
    const settle = h.processor.settleSharedPaymentToken;
    h.processor.settleSharedPaymentToken = async () => {
      throw new Error('secret internal detail');
    };
    try {
      const text = await toolError('purchase', {
        quoteId: q.quoteId,
        planId: plan.planId,
        credential: credentialFor(challenge, spt('success')),
      });
      expect(text).toMatch(/^Internal error in purchase; try again in a moment\. Reference: \S+\.$/);
      expect(text).not.toContain('secret internal detail');
    } finally {
      h.processor.settleSharedPaymentToken = settle;
    }
  });
});

describe('MCP at /mcp: an expired quote', () => {
  it('tells the agent to quote again, for a link and for a purchase', async () => {
    const q = await quote();
    const plan = fullPlan(q);
    // Last test of the file: the clock only moves forward.
    h.clock.advance(new Date(q.expiresAt!).getTime() - h.clock.now().getTime() + 1000);
    const link = await toolError('create_checkout_link', {
      quoteId: q.quoteId,
      planId: plan.planId,
      sessionId: q.sessionId,
    });
    expect(link).toContain('quote_expired');
    expect(link).toContain('create_quote');
    const bought = await toolError('purchase', { quoteId: q.quoteId, planId: plan.planId });
    expect(bought).toContain('quote_expired');
    expect(await h.db.prisma.paymentChallenge.count({ where: { quoteId: q.quoteId } })).toBe(0);
  });
});
