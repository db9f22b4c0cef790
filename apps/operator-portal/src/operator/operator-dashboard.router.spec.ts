import { DashboardResponseSchema, DAY_MS, isoDay, type Mode } from '@expedition/contracts';
import { createOperatorWithUsers, useRouterSuite } from './portal-test-harness';

const suite = useRouterSuite();
const { as } = suite;
let { h, b } = suite;
beforeAll(() => ({ h, b } = suite));

describe('GET /operator/dashboard', () => {
  it("shows whether each recent policy's confirmation e-mail was sent (sent, pending, failed, no address; null before mails existed)", async () => {
    const d = await createOperatorWithUsers(h, 'Delta Mails');
    for (let i = 0; i < 5; i++) await seedSale(d.operator.id, 'test', h.clock.now(), 10_000 + i, 1000, true);
    const policies = await h.db.prisma.policy.findMany({
      where: { operatorId: d.operator.id },
      orderBy: { premiumCents: 'asc' },
    });
    const statuses = ['sent', 'pending', 'failed', 'no_address'] as const;
    for (const [i, status] of statuses.entries()) {
      await h.db.prisma.policyMail.create({
        data: {
          policyId: policies[i]!.id,
          kind: 'confirmation',
          status,
          recipient: status === 'no_address' ? null : 'buyer@example.test',
        },
      });
    }

    const body = DashboardResponseSchema.parse((await as(d.member).get('/operator/dashboard')).body);

    const byPremium = Object.fromEntries(body.recentPolicies.map((p) => [p.premiumCents, p.confirmationEmail]));
    expect(byPremium).toEqual({
      10_000: 'sent',
      10_001: 'pending',
      10_002: 'failed',
      10_003: 'no_address',
      10_004: null,
    });
    expect(JSON.stringify(body)).not.toContain('buyer@example.test');
  });

  it('aggregates quotes, purchases, premium and commission by day, test and live apart; test events are not sales', async () => {
    const c = await createOperatorWithUsers(h, 'Gamma Dashboard');
    const day = (offset: number) => new Date(h.clock.now().getTime() - offset * DAY_MS);
    await seedSale(c.operator.id, 'test', day(0), 10_000, 1000, true);
    await seedSale(c.operator.id, 'test', day(0), 20_000, 1000, false);
    await seedSale(c.operator.id, 'live', day(2), 50_000, 1200, true);
    await seedSale(c.operator.id, 'live', day(40), 99_000, 1200, true); // outside 30 days
    await seedSale(b.operator.id, 'live', day(0), 77_000, 1000, true); // another operator
    await h.operators.setWebhookUrl(c.operator.id, 'https://hooks.gamma.example/x');
    await h.operators.sendTestWebhookEvent(c.operator.id);

    const res = await as(c.member).get('/operator/dashboard?days=30');
    expect(res.status).toBe(200);
    const body = DashboardResponseSchema.parse(res.body);
    expect(body.days).toHaveLength(60);
    expect(body.totals.test).toEqual({ quotes: 2, purchases: 1, premiumCents: 10_000, commissionCents: 1_000 });
    expect(body.totals.live).toEqual({ quotes: 1, purchases: 1, premiumCents: 50_000, commissionCents: 6_000 });
    expect(body.conversion).toEqual({ test: 0.5, live: 1 });
    const today = isoDay(h.clock.now());
    expect(body.to).toBe(today);
    expect(body.days.find((d) => d.day === today && d.mode === 'test')).toMatchObject({ quotes: 2, purchases: 1 });
    expect(body.recentPolicies.map((p) => p.premiumCents).sort()).toEqual([10_000, 50_000, 99_000]);
    expect(body.recentPolicies.find((p) => p.premiumCents === 50_000)).toMatchObject({
      mode: 'live',
      commissionCents: 6_000,
    });

    expect((await as(c.member).get('/operator/dashboard?days=0')).status).toBe(400);
  });
});

let seq = 0;
async function seedSale(
  operatorId: string,
  mode: Mode,
  at: Date,
  premiumCents: number,
  rateBps: number,
  purchased: boolean,
) {
  seq += 1;
  const prisma = h.db.prisma;
  const plan = await prisma.plan.findFirstOrThrow();
  const quote = await prisma.quote.create({
    data: {
      quoteNumber: `EXP-T${seq}${Date.now() % 100000}`,
      sessionIdHash: `hash-${seq}-${Math.random()}`,
      source: 'embed',
      operatorId,
      mode,
      status: purchased ? 'purchased' : 'quoted',
      destinationSlug: 'antarctica',
      durationDays: 14,
      tripCostCents: 1_000_000,
      travelers: 2,
      residence: 'US',
      createdAt: at,
    },
  });
  if (!purchased) return;
  const purchase = await prisma.purchase.create({
    data: {
      quoteId: quote.id,
      planId: plan.id,
      processorPaymentId: `pi_${seq}_${Math.random()}`,
      amountCents: premiumCents,
      channel: 'embed',
      mode,
      operatorId,
      createdAt: at,
    },
  });
  const policy = await prisma.policy.create({
    data: {
      policyNumber: `POL-T-${seq}-${Math.random()}`,
      purchaseId: purchase.id,
      quoteId: quote.id,
      planId: plan.id,
      operatorId,
      mode,
      travelers: 2,
      premiumCents,
      issuedAt: at,
    },
  });
  await prisma.commission.create({
    data: {
      policyId: policy.id,
      operatorId,
      rateBps,
      premiumCents,
      commissionCents: Math.floor((premiumCents * rateBps) / 10_000),
      createdAt: at,
    },
  });
}
