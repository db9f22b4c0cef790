import request from 'supertest';
import { ACP_API_VERSION, type Mode } from '@expedition/contracts';
import { formatAuthorizationPayment, parsePaymentChallenges, type PaymentChallenge } from '@expedition/payments';
import { hashToken, randomToken } from '@expedition/platform';
import { antarcticaQuote, createHarness, type Harness } from './harness';

/**
 * Test money never buys live cover (issue 20, item 11). How the hostile run got there: a live agent key (`acpk_live_…`)
 * created live quotes through ACP whatever QUOTE_API_MODE said; the simulated processor then settled
 * `spt_test_success_…` for such a quote through MPP (or ACP) and a live policy, payment and commission were written.
 * Since issue 26 the deployment's mode wins (a key of the other mode is refused, below); the live quotes here come
 * from a live deployment on the simulated processor, the one way left to meet test money with a live quote.
 */

let seq = 0;
const unique = () => `${process.pid}_${++seq}`;

async function agentKey(h: Harness, mode: Mode): Promise<string> {
  const secret = randomToken(`acpk_${mode}`, 32);
  await h.db.prisma.agentKey.create({
    data: { name: `${mode} platform`, mode, prefix: secret.slice(0, 16), hash: hashToken(secret) },
  });
  return secret;
}
const liveAgentKey = (h: Harness) => agentKey(h, 'live');

async function fullPlan(h: Harness): Promise<string> {
  const res = await request(h.app).post('/api/v1/quotes').send(antarcticaQuote);
  return (res.body.plans as { planId: string; availabilityMode: string }[]).find((p) => p.availabilityMode === 'full')!
    .planId;
}

/** A live quote: an ACP session under a live agent key, on a live deployment. */
async function liveSession(h: Harness, key: string) {
  const planId = await fullPlan(h);
  const res = await request(h.app)
    .post('/acp/v1/checkout_sessions')
    .set({ Authorization: `Bearer ${key}`, 'API-Version': ACP_API_VERSION, 'Idempotency-Key': `idem-${unique()}` })
    .send({
      line_items: [{ id: planId }],
      currency: 'usd',
      capabilities: {},
      metadata: { trip: antarcticaQuote },
      buyer: { email: 'traveler@example.com' },
    });
  expect(res.status).toBe(201);
  expect(await h.db.prisma.quote.findUniqueOrThrow({ where: { id: res.body.quote_id } })).toMatchObject({
    mode: 'live',
  });
  return { sessionId: res.body.id as string, quoteId: res.body.quote_id as string, planId };
}

async function mppPurchase(h: Harness, quoteId: string, planId: string, spt: string) {
  const first = await request(h.app).post('/api/v1/purchase').send({ quoteId, planId });
  expect(first.status).toBe(402);
  const challenge = parsePaymentChallenges(first.headers['www-authenticate'] as string)[0] as PaymentChallenge;
  return request(h.app)
    .post('/api/v1/purchase')
    .set({ Authorization: formatAuthorizationPayment({ challenge, payload: { spt } }) })
    .send({ quoteId, planId });
}

const acpComplete = (h: Harness, key: string, sessionId: string, token: string) =>
  request(h.app)
    .post(`/acp/v1/checkout_sessions/${sessionId}/complete`)
    .set({ Authorization: `Bearer ${key}`, 'API-Version': ACP_API_VERSION, 'Idempotency-Key': `idem-${unique()}` })
    .send({
      payment_data: { handler_id: 'stripe_spt', instrument: { type: 'card', credential: { type: 'spt', token } } },
    });

async function moneyRows(h: Harness, quoteId: string) {
  const where = { where: { quoteId } };
  return {
    payments: await h.db.prisma.payment.count(where),
    purchases: await h.db.prisma.purchase.count(where),
    policies: await h.db.prisma.policy.count(where),
    commissions: await h.db.prisma.commission.count({ where: { policy: { quoteId } } }),
  };
}
const NOTHING = { payments: 0, purchases: 0, policies: 0, commissions: 0 };

describe('a live quote on the simulated processor (live mode not enabled: the default)', () => {
  let h: Harness;
  let key: string;
  beforeAll(async () => {
    h = await createHarness({ mode: 'live' });
    key = await liveAgentKey(h);
  });
  afterAll(() => h.close());

  it('MPP refuses spt_test_success_… for a live quote (402, nothing written)', async () => {
    const { quoteId, planId } = await liveSession(h, key);
    const res = await mppPurchase(h, quoteId, planId, `spt_test_success_${unique()}`);
    expect(res.status).toBe(402);
    expect(res.body.detail).toMatch(/live-mode payments/);
    expect(await moneyRows(h, quoteId)).toEqual(NOTHING);
    expect(await h.db.prisma.quote.findUniqueOrThrow({ where: { id: quoteId } })).toMatchObject({ status: 'quoted' });
  });

  it('ACP does not complete a live session with spt_test_success_… (nothing written)', async () => {
    const { sessionId, quoteId } = await liveSession(h, key);
    const res = await acpComplete(h, key, sessionId, `spt_test_success_${unique()}`);
    expect(res.body.status).not.toBe('completed');
    expect(await moneyRows(h, quoteId)).toEqual(NOTHING);
  });
});

describe('a live quote on the simulated processor with live mode enabled (demos and tests)', () => {
  let h: Harness;
  let key: string;
  beforeAll(async () => {
    h = await createHarness({ mode: 'live' }, { allowLiveMode: true });
    key = await liveAgentKey(h);
  });
  afterAll(() => h.close());

  it('a test-mode token still never pays it, through MPP or ACP; the simulator’s live token does, and the policy is live', async () => {
    const { sessionId, quoteId, planId } = await liveSession(h, key);
    expect((await mppPurchase(h, quoteId, planId, `spt_test_success_${unique()}`)).status).toBe(402);
    expect((await acpComplete(h, key, sessionId, `spt_test_success_${unique()}`)).body.status).not.toBe('completed');
    expect(await moneyRows(h, quoteId)).toEqual(NOTHING);

    const paid = await mppPurchase(h, quoteId, planId, `spt_live_success_${unique()}`);
    expect(paid.status).toBe(200);
    expect(await h.db.prisma.policy.findUniqueOrThrow({ where: { quoteId } })).toMatchObject({ mode: 'live' });
    expect(await h.db.prisma.payment.findFirstOrThrow({ where: { quoteId, status: 'succeeded' } })).toMatchObject({
      mode: 'live',
    });
  });
});

describe("an agent key of the other mode: the deployment's mode (QUOTE_API_MODE) wins", () => {
  const create = (h: Harness, key: string) =>
    request(h.app)
      .post('/acp/v1/checkout_sessions')
      .set({ Authorization: `Bearer ${key}`, 'API-Version': ACP_API_VERSION, 'Idempotency-Key': `idem-${unique()}` })
      .send({ line_items: [{ id: 'any' }], currency: 'usd', capabilities: {}, metadata: { trip: antarcticaQuote } });

  async function expectRefused(deployment: Mode, keyMode: Mode) {
    const h = await createHarness({ mode: deployment });
    try {
      const key = await agentKey(h, keyMode);
      for (const res of [
        await create(h, key),
        await request(h.app)
          .get('/acp/v1/checkout_sessions/acs_x')
          .set({ Authorization: `Bearer ${key}`, 'API-Version': ACP_API_VERSION }),
      ]) {
        expect(res.status).toBe(403);
        expect(res.body).toEqual({
          type: 'invalid_request',
          code: 'key_mode_mismatch',
          message: expect.stringContaining(`serves ${deployment} mode only`),
        });
      }
      expect(await h.db.prisma.acpCheckoutSession.count()).toBe(0);
      expect(await h.db.prisma.quote.count()).toBe(0);
      expect(await h.db.prisma.idempotencyRecord.count()).toBe(0);
    } finally {
      await h.close();
    }
  }

  it('a live key against a test deployment: 403 key_mode_mismatch, no session, no quote', () =>
    expectRefused('test', 'live'));
  it('a test key against a live deployment: 403 key_mode_mismatch, no session, no quote', () =>
    expectRefused('live', 'test'));
});
