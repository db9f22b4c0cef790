import {
  CheckoutResponseSchema,
  CoverageGapResponseSchema,
  DestinationListSchema,
  PlanDetailsSchema,
  ProductListSchema,
  QUOTE_DISCLAIMER,
} from '@expedition/contracts';
import { PUBLIC_URL } from './harness';
import { h, server, useMcpHarness, ok, toolError, quote, fullPlan } from './mcp-harness';

/** MCP at /mcp: the read-only tools answer as /api/v1 does, and a quote leads to a checkout link. */
useMcpHarness();

describe('MCP at /mcp: read-only tools', () => {
  it('list_destinations matches GET /api/v1/destinations', async () => {
    const out = await ok(DestinationListSchema, 'list_destinations');
    const api = await (await fetch(`${server.url}/api/v1/destinations`)).json();
    expect(out).toEqual(api);
  });

  it('list_plans filters like GET /api/v1/products', async () => {
    const all = await ok(ProductListSchema, 'list_plans');
    const antarctica = await ok(ProductListSchema, 'list_plans', { destination: 'antarctica' });
    expect(antarctica.destination).toBe('antarctica');
    expect(antarctica.plansCount).toBe(antarctica.plans.length);
    expect(antarctica.plansCount).toBeLessThanOrEqual(all.plansCount);
    const api = await (await fetch(`${server.url}/api/v1/products?destination=antarctica`)).json();
    expect(antarctica).toEqual(api);
  });

  it('get_plan returns the plan details', async () => {
    const { plans } = await ok(ProductListSchema, 'list_plans', { destination: 'antarctica' });
    const details = await ok(PlanDetailsSchema, 'get_plan', { planId: plans[0]!.id });
    expect(details.planId).toBe(plans[0]!.id);
  });

  it('coverage_gap compares a credit card and carries the disclaimer', async () => {
    const out = await ok(CoverageGapResponseSchema, 'coverage_gap', {
      destination: 'antarctica',
      creditCardName: 'Chase Sapphire Reserve',
      tripCost: 24000,
    });
    expect(out.destination.slug).toBe('antarctica');
    expect(out.disclaimer).toBe(QUOTE_DISCLAIMER);
  });
});

describe('MCP at /mcp: quote → checkout link', () => {
  it('quotes with the recommended plan first and the disclaimer, then opens a link that charges nothing', async () => {
    const q = await quote();
    expect(q.plans[0]!.isRecommended).toBe(true);
    expect(q.recommendedPlanId).toBe(q.plans[0]!.planId);
    expect(q.disclaimer).toBe(QUOTE_DISCLAIMER);
    const quoteRow = await h.db.prisma.quote.findUniqueOrThrow({ where: { id: q.quoteId } });
    expect(quoteRow.source).toBe('api');

    const link = await ok(CheckoutResponseSchema, 'create_checkout_link', {
      quoteId: q.quoteId,
      planId: fullPlan(q).planId,
      sessionId: q.sessionId,
    });
    expect(link.checkoutUrl).toMatch(new RegExp(`^${PUBLIC_URL}/checkout/cs_[A-Za-z0-9_-]{20,}$`));
    expect(new Date(link.expiresAt!).getTime() - h.clock.now().getTime()).toBe(30 * 60 * 1000);
    expect(await h.db.prisma.payment.count({ where: { quoteId: q.quoteId } })).toBe(0);
    expect(await h.db.prisma.purchase.count({ where: { quoteId: q.quoteId } })).toBe(0);
  });

  it("records the traveler's language given as create_quote's `locale` (fr-CA → fr), English without it", async () => {
    const q = await quote({ locale: 'fr-CA' });
    expect(q.locale).toBe('fr');
    expect((await h.db.prisma.quote.findUniqueOrThrow({ where: { id: q.quoteId } })).locale).toBe('fr');
    expect((await quote()).locale).toBe('en');
  });

  it("refuses a link for a sessionId that is not the quote's", async () => {
    const q = await quote();
    const text = await toolError('create_checkout_link', {
      quoteId: q.quoteId,
      planId: fullPlan(q).planId,
      sessionId: 'not-the-session',
    });
    expect(text).toContain('session_mismatch');
  });
});
