import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { ACP_API_VERSION, type Mode } from '@expedition/contracts';
import { createDatabase, type Database } from '@expedition/db';
import { formatAuthorizationPayment, parsePaymentChallenges } from '@expedition/payments';
import { launch, waitForPolicyIssued, type Launched } from '../launcher-harness';
import { until } from '../portal-journey.helpers';
import { postgresLaunch, stopLaunched, unique } from './hostile.helpers';
import { withoutEndpoints } from '@expedition/platform/testing';

/**
 * The platform of the hostile money suites (money-tokens and money-live-and-forged .e2e.spec.ts): `npm start`'s
 * launcher on real PostgreSQL (DATABASE_URL to a fresh schema of TEST_DATABASE_URL, dropped afterwards) so that a test
 * can read what was and was not written, and the ways a buyer pays (checkout link, MPP, ACP, Tier 3). The simulated
 * processor signs its events with PROCESSOR_SECRET, which the suite sets: that is "the real secret" a forger is
 * assumed to have. Agent keys are minted with the admin CLI, as the platform team does. TRUST_PROXY=loopback lets two
 * look-ups come from two clients.
 */
const root = path.resolve(__dirname, '../../..');
export const PROCESSOR_SECRET = `whsec_hostile_${randomBytes(16).toString('hex')}`;
export const json = (body: unknown, headers: Record<string, string> = {}) => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json', ...headers },
  body: JSON.stringify(body),
});
export const nextYear = new Date().getUTCFullYear() + 1;
export const TRIP = {
  destination: 'Antarctica',
  startDate: `${nextYear}-01-10`,
  durationDays: 14,
  tripCost: 24000,
  travelers: 2,
  travelerAges: [45, 52],
  residence: 'GB',
};

/** No payment, purchase, policy or commission of the quote. */
export const NOTHING = { payments: 0, purchases: 0, policies: 0, commissions: 0 };

/** Launches the platform (on ports the OS picks) before the suite, stops it after. */
export function useMoneyPlatform() {
  let platform: Launched;
  let db: Database;
  const database = postgresLaunch('hostile');
  const launchEnv: Record<string, string> = {
    ...database.env,
    SIMULATED_PROCESSOR_WEBHOOK_SECRET: PROCESSOR_SECRET,
    TRUST_PROXY: 'loopback',
  };

  beforeAll(async () => {
    platform = await launch({ env: launchEnv });
    db = await createDatabase({ databaseUrl: launchEnv['DATABASE_URL']! });
  }, 120_000);
  afterAll(async () => {
    if (platform) await stopLaunched(platform);
    await db?.close();
    await database.drop();
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
      {
        cwd: root,
        env: { ...withoutEndpoints(process.env), ...launchEnv, NODE_OPTIONS: '' },
        encoding: 'utf8',
        timeout: 60_000,
      },
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

  return {
    get platform() {
      return platform;
    },
    get db() {
      return db;
    },
    moneyRows,
    agentKey,
    acp,
    apiQuote,
    mppPurchase,
    embed,
    recommendedOption,
    tier3Payment,
    payTier3,
    deliveredToken,
  };
}
