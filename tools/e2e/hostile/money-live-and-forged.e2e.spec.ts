import type { Database } from '@expedition/db';
import { describeWithPostgres } from '@expedition/db/testing';
import { signPayload } from '@expedition/webhook-signature';
import type { Launched } from '../launcher-harness';
import { until } from '../portal-journey.helpers';
import { PortalCaller, providerAdmin, unique } from './hostile.helpers';
import { json, nextYear, NOTHING, PROCESSOR_SECRET, TRIP, useMoneyPlatform } from './money.helpers';

/**
 * Issue 20, items 11 and 12 (money), replayed against the running platform on PostgreSQL (money.helpers.ts). Item 11
 * turns the demo operator live (a live key, a public origin, embedding enabled by the provider admin); item 12 uses
 * its test key, which that does not change.
 */
describeWithPostgres()('hostile: money on the running platform (PostgreSQL)', () => {
  const money = useMoneyPlatform();
  const { moneyRows, agentKey, acp, apiQuote, mppPurchase, recommendedOption, tier3Payment, payTier3 } = money;
  let platform: Launched;
  let db: Database;
  beforeAll(() => ({ platform, db } = money));

  describe('item 11: test money never buys live cover', () => {
    // The way in of the hostile run: a live agent key made live quotes through ACP on a test deployment.
    it('a live agent key on this test deployment is refused (403 key_mode_mismatch) and makes no quote', async () => {
      const liveKey = agentKey('live');
      const { planId } = await apiQuote();
      const quotesBefore = await db.prisma.quote.count();

      const res = await acp(liveKey, '/checkout_sessions', {
        line_items: [{ id: planId }],
        currency: 'usd',
        capabilities: {},
        metadata: { trip: TRIP },
        buyer: { email: 'traveler@hostile.example' },
      });

      expect(res.status).toBe(403);
      expect(await res.json()).toMatchObject({ code: 'key_mode_mismatch' });
      expect(await db.prisma.quote.count()).toBe(quotesBefore);
      expect(await db.prisma.quote.count({ where: { mode: 'live' } })).toBe(0);
    }, 60_000);

    /**
     * The other way to a live quote on this platform: an operator approved for live (the provider enables embedding)
     * quoting through the embed API with its live publishable key, from its own public origin.
     */
    let liveHeaders: Record<string, string>;
    beforeAll(async () => {
      const origin = 'https://tours.hostile.example';
      const owner = new PortalCaller(platform.urls.portal);
      expect((await owner.logIn(platform.demo.portalEmail, platform.demo.portalPassword)).status).toBe(200);
      expect((await owner.post('/operator/origins', { origin })).status).toBe(201);
      const minted = await owner.post<{ key: { key: string } }>('/operator/keys', { mode: 'live' });
      expect(minted.status).toBe(201);
      const admin = await providerAdmin(platform.urls.portal, platform.providerAdmin);
      expect(
        (await admin.send('PATCH', `/admin/operators/${platform.demo.operatorId}`, { embeddingEnabled: true })).status,
      ).toBe(200);
      liveHeaders = { Origin: origin, 'X-SVC-Publishable-Key': minted.body.key.key };
    });

    async function liveQuote() {
      const quote = {
        destination: 'antarctica',
        tripCost: 12000,
        travelers: 1,
        travelerAges: [46],
        residence: 'GB',
        email: 'traveler@hostile.example',
        startDate: `${nextYear}-02-01`,
        durationDays: 14,
      };
      // The embed gate caches keys for 5 s (EMBED_KEY_CACHE_TTL_MS): the approval may take that long to show.
      const created = await until(
        'the live key to be accepted',
        async () => {
          const res = await fetch(`${platform.urls.embed}/api/embed/quote`, json(quote, liveHeaders));
          return res.status === 200 ? ((await res.json()) as { quoteId: string }) : false;
        },
        20_000,
        500,
      );
      expect(await db.prisma.quote.findUniqueOrThrow({ where: { id: created.quoteId } })).toMatchObject({
        mode: 'live',
        status: 'quoted',
      });
      return { quoteId: created.quoteId, planId: (await recommendedOption(created.quoteId, liveHeaders)).planId };
    }

    it('MPP: spt_test_success_… for a live quote → 402 (the processor takes no live payments), no receipt, nothing written', async () => {
      const { quoteId, planId } = await liveQuote();

      const paid = await mppPurchase(quoteId, planId, `spt_test_success_${unique()}`);

      expect(paid.status).toBe(402);
      expect(await paid.json()).toMatchObject({ detail: expect.stringMatching(/live-mode/) });
      expect(paid.headers.get('payment-receipt')).toBeNull();
      expect(await moneyRows(quoteId)).toEqual(NOTHING);
      expect(await db.prisma.quote.findUniqueOrThrow({ where: { id: quoteId } })).toMatchObject({ status: 'quoted' });
    });

    it('Tier 3: a live quote’s payment cannot even start on a processor without live mode (400), so no test card pays it', async () => {
      const { quoteId, planId } = await liveQuote();

      const started = await fetch(`${platform.urls.embed}/api/embed/payments`, json({ quoteId, planId }, liveHeaders));

      expect(started.status).toBe(400);
      expect(await started.json()).toEqual({ error: expect.any(String) });
      expect(await moneyRows(quoteId)).toEqual(NOTHING);
      expect(await db.prisma.quote.findUniqueOrThrow({ where: { id: quoteId } })).toMatchObject({ status: 'quoted' });
    });
  });

  describe('item 12: a forged payment_intent.payment_failed is not recorded', () => {
    it('signed with the processor’s real secret, for a pending Tier 3 payment: 200 but nothing written; the card then pays', async () => {
      const { quoteId, option, paymentId } = await tier3Payment();
      const payment = await db.prisma.payment.findFirstOrThrow({ where: { quoteId } });
      expect(payment.status).toBe('pending');
      const before = await moneyRows(quoteId);

      const forgery = {
        id: `evt_forged_${unique()}`,
        object: 'event',
        type: 'payment_intent.payment_failed',
        api_version: null,
        created: Math.floor(Date.now() / 1000),
        livemode: false,
        data: {
          object: {
            id: payment.processorPaymentId,
            object: 'payment_intent',
            amount: option.premiumCents,
            currency: 'usd',
            status: 'requires_payment_method',
            livemode: false,
            metadata: { quoteId, planId: option.planId, operatorId: platform.demo.operatorId, channel: 'embed' },
            last_payment_error: {
              type: 'card_error',
              code: 'card_declined',
              message: 'Your account is locked: unlock at https://evil.example/unlock',
            },
          },
        },
      };
      const body = JSON.stringify(forgery);
      const res = await fetch(`${platform.urls.dispatcher}/processor/events`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'Stripe-Signature': signPayload(body, PROCESSOR_SECRET, Math.floor(Date.now() / 1000)),
        },
        body,
      });

      expect(res.status).toBe(200);
      expect(await moneyRows(quoteId)).toEqual(before);
      expect(await db.prisma.payment.findUniqueOrThrow({ where: { id: payment.id } })).toMatchObject({
        status: 'pending',
        failureCode: null,
        failureMessage: null,
      });
      expect(JSON.stringify(await db.prisma.payment.findMany({ where: { quoteId } }))).not.toContain('evil.example');

      // The traveler's card still pays the payment the forger tried to fail.
      await payTier3(paymentId);
      await until('the policy', async () => (await db.prisma.policy.count({ where: { quoteId } })) === 1, 20_000);
    });
  });
});
