import request from 'supertest';
import { ACP_API_VERSION, PolicyIssuedPayloadSchema } from '@expedition/contracts';
import { scanTextColumns } from '@expedition/db/testing';
import { createPolicyTokens, DEV_POLICY_TOKEN_SECRET, withAccessToken } from '@expedition/fulfillment';
import { formatAuthorizationPayment, parsePaymentChallenges, TEST_CARDS } from '@expedition/payments';
import { hashToken, randomToken } from '@expedition/platform';
import { antarcticaQuote, createHarness, iceToursOperator, PUBLIC_URL, type Harness } from './harness';

/**
 * Issue 20, items 10 and 13. No bearer token in clear at rest: a policy's access token is derived from its number
 * (never stored), a cached checkout link is sealed under the caller's sessionId, and certificate links are stored
 * without their token. Every replay, receipt and order read still hands out a token that opens the policy. And the
 * policy look-up runs the same statements for an unknown number as for a known one with a wrong token.
 */
const DEV_TOKENS = createPolicyTokens({ secret: DEV_POLICY_TOKEN_SECRET });
/** The tables a purchase writes to that could hold a token or a link (issue 20 item 10). */
const TABLES = [
  'policies',
  'idempotency_records',
  'webhook_events',
  'acp_checkout_sessions',
  'checkout_sessions',
  'payments',
];

let h: Harness;
/** Every SQL statement of the harness's Prisma client while `recording` is on. */
let statements: string[] = [];
let recording = false;
let operatorId: string;
let agentKey: string;
beforeAll(async () => {
  h = await createHarness({}, { database: { onQuery: (sql) => void (recording && statements.push(sql)) } });
  const operator = await iceToursOperator(h);
  operatorId = operator.id;
  agentKey = randomToken('acpk_test', 32);
  await h.db.prisma.agentKey.create({
    data: { name: 'Test platform', mode: 'test', prefix: agentKey.slice(0, 16), hash: hashToken(agentKey) },
  });
});
afterAll(() => h.close());

let seq = 0;
const purchase = (body: object, headers: Record<string, string> = {}) =>
  request(h.app).post('/api/v1/purchase').set(headers).send(body);
const lookup = (policyNumber: string, token: string) =>
  request(h.app).get(`/api/v1/policies/${policyNumber}`).set('Authorization', `Bearer ${token}`);

/** A quote attributed to the operator (so the sale writes a `policy.issued` outbox row). */
async function newQuote() {
  const res = await request(h.app)
    .post('/api/v1/quotes')
    .send({ ...antarcticaQuote, operator: operatorId });
  expect(res.status).toBe(200);
  const plan = (res.body.plans as { planId: string; availabilityMode: string }[]).find(
    (p) => p.availabilityMode === 'full',
  )!;
  return { quoteId: res.body.quoteId as string, sessionId: res.body.sessionId as string, planId: plan.planId };
}

/** MPP with an Idempotency-Key: the receipt and the headers that replay it. */
async function boughtByMpp() {
  const q = await newQuote();
  const body = { quoteId: q.quoteId, planId: q.planId };
  const challenge = parsePaymentChallenges((await purchase(body)).headers['www-authenticate'] as string)[0]!;
  const headers = {
    Authorization: formatAuthorizationPayment({ challenge, payload: { spt: `spt_test_success_rest_${++seq}` } }),
    'Idempotency-Key': `rest-purchase-${seq}`,
  };
  const paid = await purchase(body, headers);
  expect(paid.status).toBe(200);
  return { body, headers, receipt: paid.body as { policyNumber: string; accessToken: string; documentUrl: string } };
}

/** A checkout link opened with an Idempotency-Key, then paid with a test card. */
async function boughtByLink() {
  const q = await newQuote();
  const body = { quoteId: q.quoteId, planId: q.planId, sessionId: q.sessionId };
  const key = `rest-checkout-${++seq}`;
  const link = await request(h.app).post('/api/v1/checkout').set('Idempotency-Key', key).send(body);
  expect(link.status).toBe(200);
  const path = new URL(link.body.checkoutUrl as string).pathname;
  const paid = await request(h.app)
    .post(`${path}/pay`)
    .type('form')
    .send({ cardNumber: TEST_CARDS.success, expiry: '12/30', cvc: '123' });
  expect(paid.status).toBe(303);
  return { body, key, checkoutUrl: link.body.checkoutUrl as string, path, quoteId: q.quoteId };
}

/** An ACP session completed with a Shared Payment Token. */
async function boughtByAcp() {
  const headers = (idempotencyKey?: string) => ({
    Authorization: `Bearer ${agentKey}`,
    'API-Version': ACP_API_VERSION,
    ...(idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : {}),
  });
  const planId = (await newQuote()).planId;
  const created = await request(h.app)
    .post('/acp/v1/checkout_sessions')
    .set(headers(`rest-acp-create-${++seq}`))
    .send({
      line_items: [{ id: planId }],
      currency: 'usd',
      capabilities: {},
      buyer: { email: 'traveler@example.com' },
      metadata: { trip: antarcticaQuote },
    });
  expect(created.status).toBe(201);
  const completeKey = `rest-acp-complete-${seq}`;
  const payment = {
    payment_data: {
      handler_id: 'stripe_spt',
      instrument: { type: 'card', credential: { type: 'spt', token: `spt_test_success_acp_${seq}` } },
    },
  };
  const complete = () =>
    request(h.app)
      .post(`/acp/v1/checkout_sessions/${created.body.id}/complete`)
      .set(headers(completeKey))
      .send(payment);
  const done = await complete();
  expect(done.status).toBe(200);
  return {
    done: done.body as { id: string; order: { order_number: string; permalink_url: string } },
    complete,
    read: () => request(h.app).get(`/acp/v1/checkout_sessions/${created.body.id}`).set(headers()),
  };
}

const tokenOf = (url: string) => new URL(url).searchParams.get('access_token')!;

describe('bearer tokens at rest (issue 20 item 10)', () => {
  it('after a checkout link, an MPP purchase and an ACP purchase, no text or JSON column holds a policy token or a checkout link', async () => {
    const link = await boughtByLink();
    const mpp = await boughtByMpp();
    const acp = await boughtByAcp();
    const linkPolicy = await h.db.prisma.policy.findUniqueOrThrow({ where: { quoteId: link.quoteId } });
    const handedOut = [
      mpp.receipt.accessToken,
      tokenOf(acp.done.order.permalink_url),
      DEV_TOKENS.tokenFor(linkPolicy),
      link.checkoutUrl.split('/checkout/')[1]!,
    ];
    expect(mpp.receipt.accessToken).toMatch(/^pat_[A-Za-z0-9_-]{43}$/);

    const scan = await scanTextColumns(h.db.prisma, TABLES, ['pat_', '/checkout/cs_', ...handedOut]);

    for (const table of TABLES) expect(scan.columns.some((c) => c.startsWith(`${table}.`))).toBe(true);
    expect(scan.columns).toEqual(
      expect.arrayContaining(['idempotency_records.body', 'webhook_events.payload', 'acp_checkout_sessions.order']),
    );
    expect(scan.hits).toEqual([]);
    // What is stored instead: no token column value for new policies, certificate links without their token.
    expect(linkPolicy.accessTokenHash).toBeNull();
    const outbox = await h.db.prisma.webhookEvent.findMany({ where: { operatorId } });
    expect(outbox.length).toBeGreaterThanOrEqual(2);
    for (const row of outbox) {
      const payload = PolicyIssuedPayloadSchema.parse(row.payload);
      expect(payload.documentUrl).toBe(`${PUBLIC_URL}/api/v1/policies/${payload.policyNumber}/certificate.pdf`);
    }
  });

  it('replays still answer the same token and link, and the token opens the policy (MPP receipt, checkout link, ACP order)', async () => {
    const mpp = await boughtByMpp();
    const replay = await purchase(mpp.body, mpp.headers);
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual(mpp.receipt);
    expect(replay.body.documentUrl).toBe(
      `${PUBLIC_URL}/api/v1/policies/${mpp.receipt.policyNumber}/certificate.pdf?access_token=${mpp.receipt.accessToken}`,
    );
    expect((await lookup(mpp.receipt.policyNumber, replay.body.accessToken)).status).toBe(200);

    // A checkout link replayed within its 30 minutes: the very same link, opened from its sealed copy.
    const q = await newQuote();
    const body = { quoteId: q.quoteId, planId: q.planId, sessionId: q.sessionId };
    const first = await request(h.app)
      .post('/api/v1/checkout')
      .set('Idempotency-Key', `rest-replay-${++seq}`)
      .send(body);
    const again = await request(h.app).post('/api/v1/checkout').set('Idempotency-Key', `rest-replay-${seq}`).send(body);
    expect(again.status).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect((await request(h.app).get(new URL(again.body.checkoutUrl as string).pathname)).status).toBe(200);

    const acp = await boughtByAcp();
    const acpReplay = await acp.complete();
    expect(acpReplay.headers['idempotent-replayed']).toBe('true');
    expect(acpReplay.body).toEqual(acp.done);
    expect((await acp.read()).body.order).toEqual(acp.done.order);
    const pdf = await request(h.app).get(acp.done.order.permalink_url.replace(PUBLIC_URL, ''));
    expect(pdf.status).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
  });

  it('the checkout success page links the certificate with the derived token, which opens it', async () => {
    const link = await boughtByLink();
    const policy = await h.db.prisma.policy.findUniqueOrThrow({ where: { quoteId: link.quoteId } });
    const page = await request(h.app).get(link.path);
    const token = DEV_TOKENS.tokenFor(policy);
    expect(page.text).toContain(
      `href="${PUBLIC_URL}/api/v1/policies/${policy.policyNumber}/certificate.pdf?access_token=${token}"`,
    );
    expect((await lookup(policy.policyNumber, token)).status).toBe(200);
  });

  it('the policy.issued outbox row, completed as the dispatcher delivers it, opens the certificate', async () => {
    const mpp = await boughtByMpp();
    const row = await h.db.prisma.webhookEvent.findFirstOrThrow({
      where: { payload: { path: ['policyNumber'], equals: mpp.receipt.policyNumber } },
    });
    const payload = PolicyIssuedPayloadSchema.parse(row.payload);
    // apps/webhook-dispatcher deliveredPayload(): the stored link plus the token derived from the policy number.
    const delivered = withAccessToken(payload.documentUrl!, DEV_TOKENS.tokenFor(payload));
    expect(delivered).toBe(mpp.receipt.documentUrl);
    const pdf = await request(h.app).get(delivered.replace(PUBLIC_URL, ''));
    expect(pdf.status).toBe(200);
  });

  it('a policy issued before tokens were derived opens with its old random token (kept as a hash) and with the derived one', async () => {
    const mpp = await boughtByMpp();
    const legacy = `pat_${'L'.repeat(43)}`;
    await h.db.prisma.policy.update({
      where: { policyNumber: mpp.receipt.policyNumber },
      data: { accessTokenHash: hashToken(legacy) },
    });

    expect((await lookup(mpp.receipt.policyNumber, legacy)).status).toBe(200);
    expect((await lookup(mpp.receipt.policyNumber, mpp.receipt.accessToken)).status).toBe(200);
    expect((await lookup(mpp.receipt.policyNumber, `${legacy.slice(0, -1)}x`)).status).toBe(404);
  });

  it('a token derived under the previous secret opens the policy during a rotation, and not after it', () => {
    const before = createPolicyTokens({ secret: 'old-policy-token-secret-0123456789abcdef' });
    const during = createPolicyTokens({
      secret: 'new-policy-token-secret-0123456789abcdef',
      previous: 'old-policy-token-secret-0123456789abcdef',
    });
    const after = createPolicyTokens({ secret: 'new-policy-token-secret-0123456789abcdef' });
    const policy = { policyNumber: 'POL-2026-ABCDEF', accessTokenHash: null };
    const old = before.tokenFor(policy);
    expect(during.tokenFor(policy)).not.toBe(old);
    expect(during.verify(policy, old)).toBe(true);
    expect(during.verify(policy, during.tokenFor(policy))).toBe(true);
    expect(after.verify(policy, old)).toBe(false);
    expect(after.verify({ policyNumber: 'POL-2026-OTHER1', accessTokenHash: null }, after.tokenFor(policy))).toBe(
      false,
    );
  });
});

describe('GET /api/v1/policies/{n}: no timing oracle (issue 20 item 13)', () => {
  it('runs the same SQL statements for an unknown number as for an existing number with a wrong token', async () => {
    const mpp = await boughtByMpp();
    const wrongToken = `${mpp.receipt.accessToken.slice(0, -1)}${mpp.receipt.accessToken.endsWith('x') ? 'y' : 'x'}`;
    const run = async (policyNumber: string) => {
      statements = [];
      recording = true;
      const res = await lookup(policyNumber, wrongToken);
      recording = false;
      expect(res.status).toBe(404);
      return statements;
    };

    const unknown = await run('POL-2026-ZZZZZZ');
    const existing = await run(mpp.receipt.policyNumber);

    expect(unknown.length).toBeGreaterThan(0);
    expect(existing).toEqual(unknown);
    // A match reads the details after the same first statement.
    statements = [];
    recording = true;
    expect((await lookup(mpp.receipt.policyNumber, mpp.receipt.accessToken)).status).toBe(200);
    recording = false;
    expect(statements[0]).toBe(unknown[0]);
    expect(statements.length).toBeGreaterThan(unknown.length);
  });
});
