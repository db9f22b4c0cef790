import type { Database } from '@expedition/db';
import { describeWithPostgres, scanTextColumns } from '@expedition/db/testing';
import type { Launched } from '../launcher-harness';
import { unique } from './hostile.helpers';
import { json, TRIP, useMoneyPlatform } from './money.helpers';

/**
 * Issue 20, items 10 and 13 (tokens), replayed against the running platform on PostgreSQL (money.helpers.ts): no
 * bearer token in clear at rest after a sale through every channel, and a policy look-up that tells an unknown number
 * from a wrong token in nothing (TRUST_PROXY=loopback lets the two look-ups come from two clients, each its own
 * rate-limit window, so even RateLimit-Remaining is the same).
 */
describeWithPostgres()('hostile: money on the running platform (PostgreSQL)', () => {
  const money = useMoneyPlatform();
  const { agentKey, acp, apiQuote, mppPurchase, tier3Payment, payTier3, deliveredToken } = money;
  let platform: Launched;
  let db: Database;
  beforeAll(() => ({ platform, db } = money));

  describe('item 10: no bearer token in clear at rest', () => {
    it('after sales through the checkout link, MPP, ACP and Tier 3, no text or JSON column of any table holds a policy token or a checkout link', async () => {
      // Checkout link, opened with an Idempotency-Key (its answer is cached), paid with a test card.
      const linked = await apiQuote();
      const link = await fetch(
        `${platform.urls.quote}/api/v1/checkout`,
        json(
          { quoteId: linked.quoteId, planId: linked.planId, sessionId: linked.sessionId },
          { 'Idempotency-Key': `link-${unique()}` },
        ),
      );
      expect(link.status).toBe(200);
      const { checkoutUrl } = (await link.json()) as { checkoutUrl: string };
      const paid = await fetch(`${checkoutUrl}/pay`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: 'cardNumber=4242+4242+4242+4242&expiry=12%2F30&cvc=123',
        redirect: 'manual',
      });
      expect(paid.status).toBe(303);
      // MPP with an Idempotency-Key (the receipt is cached for replays).
      const bought = await apiQuote();
      const receipt = await mppPurchase(bought.quoteId, bought.planId, `spt_test_success_${unique()}`, {
        'Idempotency-Key': `mpp-${unique()}`,
      });
      expect(receipt.status).toBe(200);
      const { accessToken } = (await receipt.json()) as { accessToken: string };
      expect(accessToken).toMatch(/^pat_/);
      // ACP under a test agent key.
      const testKey = agentKey('test');
      const session = await acp(testKey, '/checkout_sessions', {
        line_items: [{ id: bought.planId }],
        currency: 'usd',
        capabilities: {},
        metadata: { trip: TRIP },
        buyer: { email: 'traveler@hostile.example' },
      });
      expect(session.status).toBe(201);
      const completed = await acp(
        testKey,
        `/checkout_sessions/${((await session.json()) as { id: string }).id}/complete`,
        {
          payment_data: {
            handler_id: 'stripe_spt',
            instrument: { type: 'card', credential: { type: 'spt', token: `spt_test_success_${unique()}` } },
          },
        },
      );
      const order = (await completed.json()) as { status: string; order: { permalink_url: string } };
      expect(order.status).toBe('completed');
      // Tier 3.
      const tier3 = await tier3Payment();
      await payTier3(tier3.paymentId);

      const handedOut = [
        accessToken,
        new URL(order.order.permalink_url).searchParams.get('access_token')!,
        (await deliveredToken(linked.quoteId)).token,
        (await deliveredToken(tier3.quoteId)).token,
        checkoutUrl.split('/checkout/')[1]!,
      ];
      for (const token of handedOut) expect(token).toEqual(expect.any(String));
      const tables = (
        await db.prisma.$queryRaw<{ name: string }[]>`
        SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`
      ).map((t) => t.name);

      const scan = await scanTextColumns(db.prisma, tables, ['pat_', '/checkout/cs_', ...handedOut]);

      expect(scan.columns).toEqual(
        expect.arrayContaining([
          'policies.policy_number',
          'idempotency_records.body',
          'webhook_events.payload',
          'acp_checkout_sessions.order',
        ]),
      );
      expect(scan.hits).toEqual([]);
      expect(
        await db.prisma.policy.count({ where: { quoteId: { in: [linked.quoteId, bought.quoteId, tier3.quoteId] } } }),
      ).toBe(3);
    });
  });

  describe('item 13: the policy look-up tells an unknown number from a wrong token in nothing', () => {
    it('GET /api/v1/policies/{n}: an unknown number and an existing one with a wrong token get the same status, headers (but the request id) and body', async () => {
      const bought = await apiQuote();
      const paid = await mppPurchase(bought.quoteId, bought.planId, `spt_test_success_${unique()}`);
      const { policyNumber, accessToken } = (await paid.json()) as { policyNumber: string; accessToken: string };
      const wrongToken = `${accessToken.slice(0, -2)}${accessToken.endsWith('xx') ? 'yy' : 'xx'}`;
      const unknownNumber = policyNumber.replace(/[A-Z0-9]{4}$/, (tail) => (tail === 'ZZZZ' ? 'YYYY' : 'ZZZZ'));
      expect(await db.prisma.policy.count({ where: { policyNumber: unknownNumber } })).toBe(0);
      let client = 0;
      const lookUp = async (number: string, token: string) => {
        // Each look-up from its own client: a fresh rate-limit window, so RateLimit-Remaining cannot differ.
        const res = await fetch(`${platform.urls.quote}/api/v1/policies/${number}`, {
          headers: { Authorization: `Bearer ${token}`, 'X-Forwarded-For': `198.51.100.${++client}` },
        });
        // Date is the clock, not the policy: two answers a second apart differ there whatever the look-up did.
        const headers: Record<string, string> = {};
        res.headers.forEach((value, name) => {
          if (name !== 'x-request-id' && name !== 'date') headers[name] = value;
        });
        // The body's requestId is this answer's X-Request-Id: compared as such, the rest byte for byte.
        const body = (await res.text()).replace(res.headers.get('x-request-id')!, '<X-Request-Id>');
        return { status: res.status, headers, body };
      };

      const unknown = await lookUp(unknownNumber, wrongToken);
      const wrong = await lookUp(policyNumber, wrongToken);

      expect(unknown.status).toBe(404);
      expect(unknown.body).toContain('"requestId":"<X-Request-Id>"');
      expect(wrong).toEqual(unknown);
      expect((await lookUp(policyNumber, accessToken)).status).toBe(200);
    });
  });
});
