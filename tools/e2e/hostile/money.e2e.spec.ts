import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { ACP_API_VERSION, type Mode } from '@expedition/contracts';
import { createDatabase, type Database } from '@expedition/db';
import { describeWithPostgres, scanTextColumns, testDatabaseUrl } from '@expedition/db/testing';
import { formatAuthorizationPayment, parsePaymentChallenges } from '@expedition/payments';
import { signPayload } from '@expedition/webhook-signature';
import { launch, waitForPolicyIssued, type Launched } from '../launcher-harness';
import { until } from '../portal-journey.helpers';
import { PortalCaller, providerAdmin, stopLaunched, unique } from './hostile.helpers';

/**
 * Issue 20, items 10–13 (tokens and money), replayed against the running platform: `npm start`'s launcher on real
 * PostgreSQL (DATABASE_URL to a fresh schema of TEST_DATABASE_URL, dropped afterwards) so that the test can read what
 * was and was not written. The simulated processor signs its events with SIMULATED_PROCESSOR_WEBHOOK_SECRET, which the
 * suite sets: that is "the real secret" a forger is assumed to have. Agent keys are minted with the admin CLI, as the
 * platform team does. Item 11 turns the demo operator live (a live key, a public origin, embedding enabled by the
 * provider admin) after items 10 and 13 are done; item 12 uses its test key, which that does not change. TRUST_PROXY=loopback lets two look-ups come from two clients (item 13: each its own rate-limit
 * window, so even RateLimit-Remaining is the same). Ports 15041–15045 (demo site 15050).
 */
const root = path.resolve(__dirname, '../../..');
const PROCESSOR_SECRET = `whsec_hostile_${randomBytes(16).toString('hex')}`;
const schema = `hostile_${randomBytes(5).toString('hex')}`;

function databaseUrl(): string {
  const url = new URL(testDatabaseUrl());
  url.searchParams.set('schema', schema);
  return url.toString();
}

const json = (body: unknown, headers: Record<string, string> = {}) => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json', ...headers },
  body: JSON.stringify(body),
});
const nextYear = new Date().getUTCFullYear() + 1;
const TRIP = {
  destination: 'Antarctica',
  startDate: `${nextYear}-01-10`,
  durationDays: 14,
  tripCost: 24000,
  travelers: 2,
  travelerAges: [45, 52],
  residence: 'GB',
};

describeWithPostgres()('hostile: money on the running platform (PostgreSQL)', () => {
  let platform: Launched;
  let db: Database;
  const env = () => ({
    DATABASE_URL: databaseUrl(),
    WEBHOOK_SECRET_KEYS: `hostile:${randomBytes(32).toString('base64')}`,
    SIMULATED_PROCESSOR_WEBHOOK_SECRET: PROCESSOR_SECRET,
    TRUST_PROXY: 'loopback',
  });
  let launchEnv: Record<string, string>;

  beforeAll(async () => {
    launchEnv = env();
    platform = await launch(15040, { demoPort: 15050, env: launchEnv });
    db = await createDatabase({ databaseUrl: launchEnv['DATABASE_URL']! });
  }, 120_000);
  afterAll(async () => {
    if (platform) await stopLaunched(platform);
    if (db) {
      await db.withConnection((sql) => sql.exec(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`));
      await db.close();
    }
  });

  async function moneyRows(quoteId: string) {
    const where = { where: { quoteId } };
    return {
      payments: await db.prisma.payment.count(where),
      purchases: await db.prisma.purchase.count(where),
      policies: await db.prisma.policy.count(where),
      commissions: await db.prisma.commission.count({ where: { policy: { quoteId } } }),
    };
  }
  const NOTHING = { payments: 0, purchases: 0, policies: 0, commissions: 0 };

  /** Mints an agent platform's key with the admin CLI against the launcher's database. */
  function agentKey(mode: Mode): string {
    const minted = spawnSync(
      process.execPath,
      [
        path.join(root, 'node_modules/tsx/dist/cli.mjs'),
        '--tsconfig',
        'tools/tsconfig.json',
        'tools/admin/main.ts',
        'agent-key:create',
        `Hostile ${mode} platform`,
        '--mode',
        mode,
        '--json',
      ],
      { cwd: root, env: { ...process.env, ...launchEnv, NODE_OPTIONS: '' }, encoding: 'utf8', timeout: 60_000 },
    );
    if (minted.status !== 0) throw new Error(`admin CLI failed: ${minted.stderr}`);
    const { key } = JSON.parse(minted.stdout) as { key: string };
    expect(key).toMatch(new RegExp(`^acpk_${mode}_`));
    return key;
  }

  const acp = (key: string, pathname: string, body: unknown) =>
    fetch(
      `${platform.urls.quote}/acp/v1${pathname}`,
      json(body, {
        Authorization: `Bearer ${key}`,
        'API-Version': ACP_API_VERSION,
        'Idempotency-Key': `idem-${unique()}`,
      }),
    );

  /** An /api/v1 quote attributed to the demo operator (so its sale is delivered to the demo site's receiver). */
  async function apiQuote() {
    const quoted = await fetch(
      `${platform.urls.quote}/api/v1/quotes`,
      json({ ...TRIP, operator: platform.demo.operatorId }),
    );
    expect(quoted.status).toBe(200);
    const body = (await quoted.json()) as {
      quoteId: string;
      sessionId: string;
      plans: { planId: string; availabilityMode: string }[];
    };
    return {
      quoteId: body.quoteId,
      sessionId: body.sessionId,
      planId: body.plans.find((p) => p.availabilityMode === 'full')!.planId,
    };
  }

  /** MPP: the 402 challenge answered with a Shared Payment Token. */
  async function mppPurchase(quoteId: string, planId: string, spt: string, headers: Record<string, string> = {}) {
    const first = await fetch(`${platform.urls.quote}/api/v1/purchase`, json({ quoteId, planId }));
    expect(first.status).toBe(402);
    const [challenge] = parsePaymentChallenges(first.headers.get('www-authenticate')!);
    return fetch(
      `${platform.urls.quote}/api/v1/purchase`,
      json(
        { quoteId, planId },
        { ...headers, Authorization: formatAuthorizationPayment({ challenge: challenge!, payload: { spt } }) },
      ),
    );
  }

  const embedHeaders = () => ({ Origin: platform.urls.demo, 'X-SVC-Publishable-Key': platform.demo.publishableKey });
  const embed = (pathname: string, body: unknown) =>
    fetch(`${platform.urls.embed}${pathname}`, json(body, embedHeaders()));

  /** Polls GET /api/embed/options until the quote's options are ready; the recommended one. */
  const recommendedOption = (quoteId: string, headers: Record<string, string>) =>
    until(
      'ready options',
      async () => {
        const res = await fetch(`${platform.urls.embed}/api/embed/options?quoteId=${quoteId}`, { headers });
        const body = (await res.json()) as {
          pending?: boolean;
          options: { planId: string; premiumCents: number; isRecommended: boolean }[];
        };
        return body.pending ? false : body.options.find((o) => o.isRecommended);
      },
      20_000,
      200,
    );

  /** Tier 3 up to a started (pending) payment: embed quote, ready options, POST /api/embed/payments. */
  async function tier3Payment() {
    const created = await embed('/api/embed/quote', {
      destination: 'galapagos',
      tripCost: 9000,
      travelers: 1,
      travelerAges: [38],
      residence: 'DE',
      email: 'traveler@hostile.example',
      startDate: `${nextYear}-03-01`,
      endDate: `${nextYear}-03-11`,
    });
    expect(created.status).toBe(200);
    const { quoteId } = (await created.json()) as { quoteId: string };
    const option = await recommendedOption(quoteId, embedHeaders());
    const started = await embed('/api/embed/payments', { quoteId, planId: option.planId });
    expect(started.status).toBe(200);
    const { paymentId } = (await started.json()) as { paymentId: string };
    return { quoteId, option, paymentId };
  }

  const payTier3 = async (paymentId: string) => {
    const confirmed = await embed('/api/embed/payments/confirm', { paymentId, paymentMethod: '4242424242424242' });
    expect(((await confirmed.json()) as { status: string }).status).toBe('succeeded');
  };

  /** The policy token in a delivered policy.issued (the dispatcher adds it to documentUrl when it sends). */
  const deliveredToken = async (quoteId: string) => {
    const received = await waitForPolicyIssued(platform.urls.demo, quoteId);
    return {
      policyNumber: String(received.payload['policyNumber']),
      token: new URL(String(received.payload['documentUrl'])).searchParams.get('access_token')!,
    };
  };

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
