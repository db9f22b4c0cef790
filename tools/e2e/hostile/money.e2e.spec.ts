import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { ACP_API_VERSION } from '@expedition/contracts';
import { createDatabase, type Database } from '@expedition/db';
import { describeWithPostgres, testDatabaseUrl } from '@expedition/db/testing';
import { formatAuthorizationPayment, parsePaymentChallenges } from '@expedition/payments';
import { signPayload } from '@expedition/webhook-signature';
import { launch, type Launched } from '../launcher-harness';
import { until } from '../portal-journey.helpers';
import { unique } from './hostile.helpers';

/**
 * Issue 20, items 11 and 12 (money), replayed against the running platform: `npm start`'s launcher on real PostgreSQL
 * (DATABASE_URL to a fresh schema of TEST_DATABASE_URL, dropped afterwards) so that the test can read what was and was
 * not written. The simulated processor signs its events with SIMULATED_PROCESSOR_WEBHOOK_SECRET, which the suite sets:
 * that is "the real secret" a forger is assumed to have. Ports 15041–15045 (demo site 15050).
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
const TRIP = { destination: 'Antarctica', startDate: `${nextYear}-01-10`, durationDays: 14, tripCost: 24000, travelers: 2, travelerAges: [45, 52], residence: 'GB' };

describeWithPostgres()('hostile: money on the running platform (PostgreSQL)', () => {
  let platform: Launched;
  let db: Database;
  const env = () => ({
    DATABASE_URL: databaseUrl(),
    WEBHOOK_SECRET_KEYS: `hostile:${randomBytes(32).toString('base64')}`,
    SIMULATED_PROCESSOR_WEBHOOK_SECRET: PROCESSOR_SECRET,
  });
  let launchEnv: Record<string, string>;

  beforeAll(async () => {
    launchEnv = env();
    platform = await launch(15040, { demoPort: 15050, env: launchEnv });
    db = await createDatabase({ databaseUrl: launchEnv['DATABASE_URL']! });
  }, 120_000);
  afterAll(async () => {
    if (platform) expect(await platform.stop()).toBe(0);
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

  describe('item 11: test money never buys live cover', () => {
    let liveKey: string;
    beforeAll(() => {
      // Minted as the platform team does, with the admin CLI against the launcher's database.
      const minted = spawnSync(
        process.execPath,
        [path.join(root, 'node_modules/tsx/dist/cli.mjs'), '--tsconfig', 'tools/tsconfig.json', 'tools/admin/main.ts', 'agent-key:create', 'Live agent platform', '--mode', 'live', '--json'],
        { cwd: root, env: { ...process.env, ...launchEnv, NODE_OPTIONS: '' }, encoding: 'utf8', timeout: 60_000 },
      );
      if (minted.status !== 0) throw new Error(`admin CLI failed: ${minted.stderr}`);
      liveKey = (JSON.parse(minted.stdout) as { key: string }).key;
      expect(liveKey).toMatch(/^acpk_live_/);
    }, 60_000);

    const acp = (pathname: string, body: unknown) =>
      fetch(`${platform.urls.quote}/acp/v1${pathname}`, json(body, { Authorization: `Bearer ${liveKey}`, 'API-Version': ACP_API_VERSION, 'Idempotency-Key': `idem-${unique()}` }));

    /** A live quote, as the hostile run made one: an ACP checkout session under a live agent key. */
    async function liveSession() {
      const quoted = await fetch(`${platform.urls.quote}/api/v1/quotes`, json(TRIP));
      const planId = ((await quoted.json()) as { plans: { planId: string; availabilityMode: string }[] }).plans.find((p) => p.availabilityMode === 'full')!.planId;
      const created = await acp('/checkout_sessions', { line_items: [{ id: planId }], currency: 'usd', capabilities: {}, metadata: { trip: TRIP }, buyer: { email: 'traveler@hostile.example' } });
      expect(created.status).toBe(201);
      const session = (await created.json()) as { id: string; quote_id: string };
      expect(await db.prisma.quote.findUniqueOrThrow({ where: { id: session.quote_id } })).toMatchObject({ mode: 'live', status: 'quoted' });
      return { sessionId: session.id, quoteId: session.quote_id, planId };
    }

    it('MPP: spt_test_success_… for a live quote → 402, no payment, purchase, policy or commission', async () => {
      const { quoteId, planId } = await liveSession();
      const first = await fetch(`${platform.urls.quote}/api/v1/purchase`, json({ quoteId, planId }));
      expect(first.status).toBe(402);
      const [challenge] = parsePaymentChallenges(first.headers.get('www-authenticate')!);

      const paid = await fetch(
        `${platform.urls.quote}/api/v1/purchase`,
        json({ quoteId, planId }, { Authorization: formatAuthorizationPayment({ challenge: challenge!, payload: { spt: `spt_test_success_${unique()}` } }) }),
      );

      expect(paid.status).toBe(402);
      expect(paid.headers.get('payment-receipt')).toBeNull();
      expect(await moneyRows(quoteId)).toEqual(NOTHING);
      expect(await db.prisma.quote.findUniqueOrThrow({ where: { id: quoteId } })).toMatchObject({ status: 'quoted' });
    });

    it('ACP: completing a live session with spt_test_success_… is declined (payment_declined), nothing written', async () => {
      const { sessionId, quoteId } = await liveSession();

      const res = await acp(`/checkout_sessions/${sessionId}/complete`, {
        payment_data: { handler_id: 'stripe_spt', instrument: { type: 'card', credential: { type: 'spt', token: `spt_test_success_${unique()}` } } },
      });

      // ACP's documented decline: 200, the session stays ready_for_payment with a payment_declined message.
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ status: 'ready_for_payment', messages: [expect.objectContaining({ type: 'error', code: 'payment_declined' })] });
      expect(await moneyRows(quoteId)).toEqual(NOTHING);
      expect(await db.prisma.quote.findUniqueOrThrow({ where: { id: quoteId } })).toMatchObject({ status: 'quoted' });
    });
  });

  describe('item 12: a forged payment_intent.payment_failed is not recorded', () => {
    it('signed with the processor’s real secret, for a pending Tier 3 payment: 200 but nothing written; the card then pays', async () => {
      const headers = { Origin: platform.urls.demo, 'X-SVC-Publishable-Key': platform.demo.publishableKey };
      const embed = (pathname: string, body: unknown) => fetch(`${platform.urls.embed}${pathname}`, json(body, headers));
      const created = await embed('/api/embed/quote', {
        destination: 'galapagos', tripCost: 9000, travelers: 1, travelerAges: [38], residence: 'DE',
        email: 'traveler@hostile.example', startDate: `${nextYear}-03-01`, endDate: `${nextYear}-03-11`,
      });
      expect(created.status).toBe(200);
      const { quoteId } = (await created.json()) as { quoteId: string };
      const option = await until('ready options', async () => {
        const res = await fetch(`${platform.urls.embed}/api/embed/options?quoteId=${quoteId}`, { headers });
        const body = (await res.json()) as { pending?: boolean; options: { planId: string; premiumCents: number; isRecommended: boolean }[] };
        return body.pending ? false : body.options.find((o) => o.isRecommended);
      }, 20_000, 200);
      const started = await embed('/api/embed/payments', { quoteId, planId: option!.planId });
      expect(started.status).toBe(200);
      const { paymentId } = (await started.json()) as { paymentId: string };
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
            amount: option!.premiumCents,
            currency: 'usd',
            status: 'requires_payment_method',
            livemode: false,
            metadata: { quoteId, planId: option!.planId, operatorId: platform.demo.operatorId, channel: 'embed' },
            last_payment_error: { type: 'card_error', code: 'card_declined', message: 'Your account is locked: unlock at https://evil.example/unlock' },
          },
        },
      };
      const body = JSON.stringify(forgery);
      const res = await fetch(`${platform.urls.dispatcher}/processor/events`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'Stripe-Signature': signPayload(body, PROCESSOR_SECRET, Math.floor(Date.now() / 1000)) },
        body,
      });

      expect(res.status).toBe(200);
      expect(await moneyRows(quoteId)).toEqual(before);
      expect(await db.prisma.payment.findUniqueOrThrow({ where: { id: payment.id } })).toMatchObject({ status: 'pending', failureCode: null, failureMessage: null });
      expect(JSON.stringify(await db.prisma.payment.findMany({ where: { quoteId } }))).not.toContain('evil.example');

      // The traveler's card still pays the payment the forger tried to fail.
      const confirmed = await embed('/api/embed/payments/confirm', { paymentId, paymentMethod: '4242424242424242' });
      expect(((await confirmed.json()) as { status: string }).status).toBe('succeeded');
      await until('the policy', async () => (await db.prisma.policy.count({ where: { quoteId } })) === 1, 20_000);
    });
  });
});
