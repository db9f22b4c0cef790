import { readFileSync } from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { ACP_API_VERSION, type Mode } from '@expedition/contracts';
import {
  PaymentProcessorError,
  formatAuthorizationPayment,
  parsePaymentChallenges,
  type SettleSharedPaymentTokenInput,
} from '@expedition/payments';
import { createPolicyTokens, DEV_POLICY_TOKEN_SECRET } from '@expedition/fulfillment';
import { createRateLimiter, hashToken, randomToken } from '@expedition/platform';
import { antarcticaQuote, createHarness, PUBLIC_URL, type Harness } from './harness';

/**
 * /acp/v1 (Agentic Commerce Protocol 2026-04-17) over the composed app: headers, idempotency, the session's
 * statuses, payment through the shared money path (one charge per quote across channels), and the answers checked
 * against the protocol's own JSON Schema (fixtures/acp-2026-04-17.schema.json, fragments of the release).
 */

let h: Harness;
let settlements: SettleSharedPaymentTokenInput[];
let holdNextSettlement: Promise<void> | undefined;
let failNextSettlement: Error | undefined;
let key: string;

const DEV_TOKENS = createPolicyTokens({ secret: DEV_POLICY_TOKEN_SECRET });
const trip = { ...antarcticaQuote };
const { residence: _r, ...tripWithoutResidence } = trip;
const buyer = { email: 'traveler@example.com', first_name: 'Ada' };
const spt = (token: string) => ({
  handler_id: 'stripe_spt',
  instrument: { type: 'card', credential: { type: 'spt', token } },
});
// A Shared Payment Token is single use: each payment gets its own.
let sptSeq = 0;
const ok = () => spt(`spt_test_success_${process.pid}_${++sptSeq}`);

beforeAll(async () => {
  h = await createHarness();
  const settle = h.processor.settleSharedPaymentToken.bind(h.processor);
  h.processor.settleSharedPaymentToken = async (input) => {
    settlements.push(input);
    const hold = holdNextSettlement;
    holdNextSettlement = undefined;
    if (hold) await hold;
    const fail = failNextSettlement;
    failNextSettlement = undefined;
    if (fail) throw fail;
    return settle(input);
  };
  key = await newKey();
});
beforeEach(() => {
  settlements = [];
  holdNextSettlement = undefined;
  failNextSettlement = undefined;
});
afterAll(() => h.close());

async function newKey(mode: Mode = 'test', revoked = false): Promise<string> {
  const secret = randomToken(`acpk_${mode}`, 32);
  await h.db.prisma.agentKey.create({
    data: {
      name: 'Test platform',
      mode,
      prefix: secret.slice(0, 16),
      hash: hashToken(secret),
      revokedAt: revoked ? new Date() : null,
    },
  });
  return secret;
}

let keySeq = 0;
const idem = () => `idem-${process.pid}-${++keySeq}`;
const headers = (extra: Record<string, string | undefined> = {}) => {
  const all: Record<string, string | undefined> = {
    Authorization: `Bearer ${key}`,
    'API-Version': ACP_API_VERSION,
    ...extra,
  };
  return Object.fromEntries(Object.entries(all).filter(([, v]) => v !== undefined)) as Record<string, string>;
};
const post = (p: string, body: unknown, extra: Record<string, string | undefined> = {}) =>
  request(h.app)
    .post(`/acp/v1${p}`)
    .set(headers({ 'Idempotency-Key': idem(), ...extra }))
    .send(body as object);
const get = (p: string, extra: Record<string, string | undefined> = {}) =>
  request(h.app).get(`/acp/v1${p}`).set(headers(extra));

const createBody = (over: Record<string, unknown> = {}) => ({
  line_items: [{ id: PLAN ?? 'plan-not-known-yet' }],
  currency: 'usd',
  capabilities: {},
  metadata: { trip },
  buyer,
  ...over,
});

async function planIds(): Promise<string[]> {
  const res = await request(h.app).post('/api/v1/quotes').send(antarcticaQuote);
  return (res.body.plans as { planId: string; availabilityMode: string }[])
    .filter((p) => p.availabilityMode === 'full')
    .map((p) => p.planId);
}
let PLAN: string;
beforeAll(async () => {
  PLAN = (await planIds())[0]!;
});

async function readySession() {
  const res = await post('/checkout_sessions', createBody({ line_items: [{ id: PLAN }] }));
  expect(res.status).toBe(201);
  expect(res.body.status).toBe('ready_for_payment');
  return res.body as { id: string; quote_id: string; totals: { type: string; amount: number }[] };
}

const counts = async () => ({
  sessions: await h.db.prisma.acpCheckoutSession.count(),
  quotes: await h.db.prisma.quote.count(),
  payments: await h.db.prisma.payment.count(),
  purchases: await h.db.prisma.purchase.count(),
  idempotency: await h.db.prisma.idempotencyRecord.count(),
});

function deferred() {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(check()).toBe(true);
}

// ---------------------------------------------------------------------------------------------------------------
const schema = JSON.parse(readFileSync(path.join(__dirname, 'fixtures/acp-2026-04-17.schema.json'), 'utf8'));
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema(schema);
const validator = (def: string) => ajv.getSchema(`${schema.$id}#/$defs/${def}`)!;
function conforms(def: 'CheckoutSession' | 'CheckoutSessionWithOrder' | 'Error', body: unknown): void {
  const validate = validator(def);
  const ok = validate(body);
  expect(validate.errors ?? []).toEqual([]);
  expect(ok).toBe(true);
}

describe('ACP conformance fixture', () => {
  it('rejects what the protocol rejects (the schema check can fail)', () => {
    expect(validator('Error')({ type: 'oops', code: 'x', message: 'y' })).toBe(false);
    expect(validator('CheckoutSession')({ id: 'x', status: 'completed' })).toBe(false);
  });
});

describe('GET /acp/v1/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document of the five operations, public', async () => {
    const res = await request(h.app).get('/acp/v1/openapi.json');
    expect(res.status).toBe(200);
    const { Validator } = await import('@seriousme/openapi-schema-validator');
    const result = await new Validator().validate(res.body);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(res.body.info.version).toBe(ACP_API_VERSION);
    expect(res.body.servers).toEqual([{ url: `${PUBLIC_URL}/acp/v1` }]);
    const ops = Object.values(res.body.paths as Record<string, Record<string, { operationId: string }>>).flatMap((p) =>
      Object.values(p).map((o) => o.operationId),
    );
    expect(ops.sort()).toEqual([
      'cancelCheckoutSession',
      'completeCheckoutSession',
      'createCheckoutSession',
      'getCheckoutSession',
      'updateCheckoutSession',
    ]);
  });
});

describe('protocol headers', () => {
  it('400 missing_api_version / unsupported_api_version with the supported list', async () => {
    const missing = await get('/checkout_sessions/acs_x', { 'API-Version': undefined });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({
      type: 'invalid_request',
      code: 'missing_api_version',
      message: expect.any(String),
      supported_versions: [ACP_API_VERSION],
    });
    conforms('Error', missing.body);
    const old = await get('/checkout_sessions/acs_x', { 'API-Version': '2025-09-29' });
    expect(old.status).toBe(400);
    expect(old.body).toMatchObject({ code: 'unsupported_api_version', supported_versions: [ACP_API_VERSION] });
  });

  it('401 for no, unknown, malformed or revoked keys, in the protocol error shape', async () => {
    const revoked = await newKey('test', true);
    for (const auth of [undefined, 'Bearer acpk_test_unknown', 'Basic abc', `Bearer ${revoked}`]) {
      const res = await get('/checkout_sessions/acs_x', { Authorization: auth });
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ type: 'invalid_request', code: 'unauthorized' });
      conforms('Error', res.body);
    }
  });

  it('400 idempotency_key_required on a POST without the key; nothing written', async () => {
    const before = await counts();
    const res = await request(h.app).post('/acp/v1/checkout_sessions').set(headers()).send(createBody());
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ type: 'invalid_request', code: 'idempotency_key_required' });
    expect(await counts()).toEqual(before);
  });

  it('echoes Request-Id and Idempotency-Key', async () => {
    const res = await post('/checkout_sessions', createBody(), {
      'Request-Id': 'req-123',
      'Idempotency-Key': 'echo-me-1',
    });
    expect(res.status).toBe(201);
    expect(res.headers['request-id']).toBe('req-123');
    expect(res.headers['idempotency-key']).toBe('echo-me-1');
    const got = await get(`/checkout_sessions/${res.body.id}`, { 'Request-Id': 'req-456' });
    expect(got.headers['request-id']).toBe('req-456');
  });

  it('404 for an unknown session and for another platform’s session', async () => {
    expect((await get('/checkout_sessions/acs_nope')).status).toBe(404);
    const mine = await readySession();
    const other = await newKey();
    const res = await get(`/checkout_sessions/${mine.id}`, { Authorization: `Bearer ${other}` });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ type: 'invalid_request', code: 'not_found' });
  });

  it('429 past the per-key limit, other keys unaffected', async () => {
    const limited = await createHarness({
      rateLimitPerMinute: 2,
      rateLimiter: createRateLimiter({ points: 2, durationSec: 60 }),
    });
    try {
      const secret = randomToken('acpk_test', 32);
      await limited.db.prisma.agentKey.create({
        data: { name: 'x', mode: 'test', prefix: 'p', hash: hashToken(secret) },
      });
      const call = () =>
        request(limited.app)
          .get('/acp/v1/checkout_sessions/acs_x')
          .set({ Authorization: `Bearer ${secret}`, 'API-Version': ACP_API_VERSION });
      expect((await call()).status).toBe(404);
      expect((await call()).status).toBe(404);
      const refused = await call();
      expect(refused.status).toBe(429);
      expect(refused.headers['retry-after']).toMatch(/^\d+$/);
      expect(refused.body).toMatchObject({ type: 'invalid_request', code: 'rate_limited' });
    } finally {
      await limited.close();
    }
  });
});

describe('the session: create → update → complete', () => {
  it('walks not_ready_for_payment → ready_for_payment → completed, and the order links the policy certificate', async () => {
    const created = await post('/checkout_sessions', createBody({ buyer: undefined, line_items: [{ id: PLAN }] }));
    expect(created.status).toBe(201);
    conforms('CheckoutSession', created.body);
    expect(created.body.status).toBe('not_ready_for_payment');
    expect(created.body.messages).toEqual([
      expect.objectContaining({ type: 'error', code: 'missing', param: '$.buyer.email' }),
    ]);
    const premium = created.body.totals.find((t: { type: string }) => t.type === 'total').amount;
    expect(Number.isInteger(premium)).toBe(true);
    expect(created.body.line_items[0]).toMatchObject({ item: { id: PLAN }, quantity: 1, unit_amount: premium });

    const updated = await post(`/checkout_sessions/${created.body.id}`, { buyer });
    expect(updated.status).toBe(200);
    conforms('CheckoutSession', updated.body);
    expect(updated.body).toMatchObject({ status: 'ready_for_payment', messages: [], buyer });
    const fetched = await get(`/checkout_sessions/${created.body.id}`);
    expect(fetched.body).toEqual(updated.body);

    const done = await post(`/checkout_sessions/${created.body.id}/complete`, { payment_data: ok() });
    expect(done.status).toBe(200);
    conforms('CheckoutSessionWithOrder', done.body);
    expect(done.body.status).toBe('completed');
    const policy = await h.db.prisma.policy.findUniqueOrThrow({ where: { quoteId: updated.body.quote_id } });
    expect(done.body.order).toEqual({
      id: `ord_${policy.id}`,
      checkout_session_id: created.body.id,
      order_number: policy.policyNumber,
      permalink_url: `${PUBLIC_URL}/api/v1/policies/${policy.policyNumber}/certificate.pdf?access_token=${encodeURIComponent(DEV_TOKENS.tokenFor(policy))}`,
      status: 'confirmed',
    });
    const purchase = await h.db.prisma.purchase.findUniqueOrThrow({ where: { quoteId: updated.body.quote_id } });
    expect(purchase).toMatchObject({ channel: 'acp', amountCents: premium, planId: PLAN });
    expect(settlements).toHaveLength(1);
    expect(settlements[0]).toMatchObject({
      amountCents: premium,
      spt: expect.stringMatching(/^spt_test_success_/),
      metadata: { channel: 'acp', quoteId: updated.body.quote_id },
    });
    expect((await get(`/checkout_sessions/${created.body.id}`)).body).toEqual(done.body);
  });

  it('reports invalid trip facts in messages[] with JSONPaths, and re-quotes when the trip is updated', async () => {
    const created = await post(
      '/checkout_sessions',
      createBody({ metadata: { trip: { ...trip, travelerAges: [45] } } }),
    );
    expect(created.status).toBe(201);
    expect(created.body.status).toBe('not_ready_for_payment');
    expect(created.body.messages[0]).toMatchObject({
      type: 'error',
      code: 'invalid',
      param: '$.metadata.trip.travelerAges',
    });
    expect(created.body.totals).toEqual([]);
    const noResidence = await post(`/checkout_sessions/${created.body.id}`, {
      metadata: { trip: tripWithoutResidence },
    });
    expect(noResidence.body.messages[0]).toMatchObject({ param: '$.metadata.trip.residence' });
    const fixed = await post(`/checkout_sessions/${created.body.id}`, { metadata: { trip } });
    expect(fixed.body.status).toBe('ready_for_payment');
    expect(fixed.body.quote_id).toEqual(expect.any(String));
    const otherPlan = await post(`/checkout_sessions/${created.body.id}`, { line_items: [{ id: 'no-such-plan' }] });
    expect(otherPlan.body.status).toBe('not_ready_for_payment');
    expect(otherPlan.body.messages[0]).toMatchObject({ code: 'invalid', param: '$.line_items[0].id' });
  });

  it('declines the sandbox token in test mode: the session stays open, nothing is bought; a good token then completes', async () => {
    const s = await readySession();
    const declined = await post(`/checkout_sessions/${s.id}/complete`, { payment_data: spt('spt_test_decline_1') });
    expect(declined.status).toBe(200);
    conforms('CheckoutSession', declined.body);
    expect(declined.body.status).toBe('ready_for_payment');
    expect(declined.body.messages).toEqual([
      expect.objectContaining({ type: 'error', code: 'payment_declined', param: '$.payment_data' }),
    ]);
    expect(await h.db.prisma.purchase.count({ where: { quoteId: s.quote_id } })).toBe(0);
    const paid = await post(`/checkout_sessions/${s.id}/complete`, { payment_data: spt('spt_test_success_2') });
    expect(paid.body.status).toBe('completed');
  });

  it('refuses to complete a session that is not ready (400, nothing charged)', async () => {
    const created = await post('/checkout_sessions', createBody({ buyer: undefined, line_items: [{ id: PLAN }] }));
    const res = await post(`/checkout_sessions/${created.body.id}/complete`, { payment_data: ok() });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ type: 'invalid_request', code: 'session_not_ready', param: '$.buyer.email' });
    expect(settlements).toHaveLength(0);
  });
});

describe('cancel', () => {
  it('cancels an open session; canceling again, updating or completing it is 405', async () => {
    const s = await readySession();
    const canceled = await post(`/checkout_sessions/${s.id}/cancel`, {});
    expect(canceled.status).toBe(200);
    conforms('CheckoutSession', canceled.body);
    expect(canceled.body.status).toBe('canceled');
    for (const [p, body] of [
      ['/cancel', {}],
      ['', { buyer }],
      ['/complete', { payment_data: ok() }],
    ] as const) {
      const res = await post(`/checkout_sessions/${s.id}${p}`, body);
      expect(res.status).toBe(405);
      expect(res.body).toMatchObject({ type: 'invalid_request', code: 'session_canceled' });
    }
    expect(settlements).toHaveLength(0);
  });

  it('cancel after complete is 405, and the session stays completed', async () => {
    const s = await readySession();
    expect((await post(`/checkout_sessions/${s.id}/complete`, { payment_data: ok() })).body.status).toBe('completed');
    const res = await post(`/checkout_sessions/${s.id}/cancel`, {});
    expect(res.status).toBe(405);
    expect(res.body).toMatchObject({ code: 'session_completed' });
    conforms('Error', res.body);
    expect((await get(`/checkout_sessions/${s.id}`)).body.status).toBe('completed');
  });
});

describe('Idempotency-Key', () => {
  it('replays the stored answer (same status, body, Idempotent-Replayed: true) without running it again', async () => {
    const before = await counts();
    const first = await post('/checkout_sessions', createBody(), { 'Idempotency-Key': 'replay-1' });
    // Same JSON, keys in another order: semantically equal.
    const { currency, line_items, capabilities, metadata } = createBody();
    const again = await post(
      '/checkout_sessions',
      { metadata, capabilities, line_items, currency, buyer },
      { 'Idempotency-Key': 'replay-1' },
    );
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(again.body).toEqual(first.body);
    const after = await counts();
    expect(after.sessions).toBe(before.sessions + 1);
    expect(after.quotes).toBe(before.quotes + 1);
  });

  it('422 idempotency_conflict for the same key with another body', async () => {
    await post('/checkout_sessions', createBody(), { 'Idempotency-Key': 'conflict-1' });
    const res = await post('/checkout_sessions', createBody({ buyer: { email: 'other@example.com' } }), {
      'Idempotency-Key': 'conflict-1',
    });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ type: 'invalid_request', code: 'idempotency_conflict' });
    conforms('Error', res.body);
  });

  it('keys are scoped to the agent key: another platform may use the same key', async () => {
    const other = await newKey();
    const a = await post('/checkout_sessions', createBody(), { 'Idempotency-Key': 'shared-1' });
    const b = await post('/checkout_sessions', createBody(), {
      'Idempotency-Key': 'shared-1',
      Authorization: `Bearer ${other}`,
    });
    expect(b.status).toBe(201);
    expect(b.headers['idempotent-replayed']).toBeUndefined();
    expect(b.body.id).not.toBe(a.body.id);
  });

  it('409 idempotency_in_flight with Retry-After while the first request runs; then the replay', async () => {
    const s = await readySession();
    const gate = deferred();
    holdNextSettlement = gate.promise;
    const pay = { payment_data: ok() };
    const first = post(`/checkout_sessions/${s.id}/complete`, pay, { 'Idempotency-Key': 'inflight-1' }).then((r) => r);
    await until(() => settlements.length === 1);
    const twin = await post(`/checkout_sessions/${s.id}/complete`, pay, { 'Idempotency-Key': 'inflight-1' });
    expect(twin.status).toBe(409);
    expect(twin.headers['retry-after']).toMatch(/^\d+$/);
    expect(twin.body).toMatchObject({ type: 'invalid_request', code: 'idempotency_in_flight' });
    gate.open();
    expect((await first).body.status).toBe('completed');
    const replay = await post(`/checkout_sessions/${s.id}/complete`, pay, { 'Idempotency-Key': 'inflight-1' });
    expect(replay.status).toBe(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(settlements).toHaveLength(1);
  });

  it('never keeps a 5xx: the same key after a processor outage runs afresh', async () => {
    const s = await readySession();
    failNextSettlement = new PaymentProcessorError('processor_unavailable', 'processor down');
    const pay = { payment_data: ok() };
    const down = await post(`/checkout_sessions/${s.id}/complete`, pay, { 'Idempotency-Key': 'outage-1' });
    expect(down.status).toBe(503);
    expect(down.body).toMatchObject({ type: 'service_unavailable' });
    const retry = await post(`/checkout_sessions/${s.id}/complete`, pay, { 'Idempotency-Key': 'outage-1' });
    expect(retry.status).toBe(200);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    expect(retry.body.status).toBe('completed');
    expect(settlements).toHaveLength(2);
  });
});

describe('one charge per quote', () => {
  it('the same complete sent twice at once (two keys) charges once', async () => {
    const s = await readySession();
    const gate = deferred();
    holdNextSettlement = gate.promise;
    const a = post(`/checkout_sessions/${s.id}/complete`, { payment_data: ok() }).then((r) => r);
    await until(() => settlements.length === 1);
    const b = await post(`/checkout_sessions/${s.id}/complete`, { payment_data: ok() });
    expect(b.status).toBe(409);
    expect(b.body).toMatchObject({ code: 'payment_in_progress' });
    gate.open();
    expect((await a).body.status).toBe('completed');
    expect(settlements).toHaveLength(1);
    expect(await h.db.prisma.payment.count({ where: { quoteId: s.quote_id } })).toBe(1);
    // Afterwards, another complete answers the completed session and charges nothing.
    const later = await post(`/checkout_sessions/${s.id}/complete`, { payment_data: spt('spt_test_success_9') });
    expect(later.body.status).toBe('completed');
    expect(settlements).toHaveLength(1);
  });

  it('complete racing an MPP purchase of the same quote: one charge', async () => {
    const s = await readySession();
    const planId = PLAN;
    const unpaid = await request(h.app).post('/api/v1/purchase').send({ quoteId: s.quote_id, planId });
    expect(unpaid.status).toBe(402);
    const challenge = parsePaymentChallenges(unpaid.headers['www-authenticate'] as string)[0]!;
    const gate = deferred();
    holdNextSettlement = gate.promise;
    const acp = post(`/checkout_sessions/${s.id}/complete`, { payment_data: ok() }).then((r) => r);
    await until(() => settlements.length === 1);
    const mpp = await request(h.app)
      .post('/api/v1/purchase')
      .set('Authorization', formatAuthorizationPayment({ challenge, payload: { spt: 'spt_test_success_mpp' } }))
      .send({ quoteId: s.quote_id, planId });
    expect(mpp.status).toBe(409);
    gate.open();
    expect((await acp).body.status).toBe('completed');
    expect(settlements).toHaveLength(1);
    expect(await h.db.prisma.payment.count({ where: { quoteId: s.quote_id } })).toBe(1);
    // MPP now sees the quote paid, without a charge.
    const after = await request(h.app)
      .post('/api/v1/purchase')
      .set('Authorization', formatAuthorizationPayment({ challenge, payload: { spt: 'spt_test_success_mpp' } }))
      .send({ quoteId: s.quote_id, planId });
    expect(after.body.status).toBe('already_paid');
    expect(settlements).toHaveLength(1);
  });

  it('a quote paid through MPP first cannot be charged again through the session', async () => {
    const s = await readySession();
    const unpaid = await request(h.app).post('/api/v1/purchase').send({ quoteId: s.quote_id, planId: PLAN });
    const challenge = parsePaymentChallenges(unpaid.headers['www-authenticate'] as string)[0]!;
    const mpp = await request(h.app)
      .post('/api/v1/purchase')
      .set('Authorization', formatAuthorizationPayment({ challenge, payload: { spt: 'spt_test_success_first' } }))
      .send({ quoteId: s.quote_id, planId: PLAN });
    expect(mpp.status).toBe(200);
    const res = await post(`/checkout_sessions/${s.id}/complete`, { payment_data: ok() });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'session_not_ready' });
    expect(settlements).toHaveLength(1);
  });
});

describe('operator-attributed trips', () => {
  it('issue policy.issued for the operator, as every other channel does', async () => {
    const operator = await h.db.prisma.operator.create({
      data: { name: 'ACP Voyages', status: 'active', webhookUrl: 'https://operator.example/hook' },
    });
    const created = await post(
      '/checkout_sessions',
      createBody({ line_items: [{ id: PLAN }], metadata: { trip: { ...trip, operator: operator.id } } }),
    );
    expect(created.body.status).toBe('ready_for_payment');
    const done = await post(`/checkout_sessions/${created.body.id}/complete`, { payment_data: ok() });
    expect(done.body.status).toBe('completed');
    const policy = await h.db.prisma.policy.findUniqueOrThrow({ where: { quoteId: created.body.quote_id } });
    expect(policy.operatorId).toBe(operator.id);
    expect(await h.db.prisma.commission.count({ where: { policyId: policy.id } })).toBe(1);
    expect(await h.db.prisma.webhookEvent.count({ where: { operatorId: operator.id, type: 'policy.issued' } })).toBe(1);
  });
});

describe('hostile input: 4xx, nothing written', () => {
  const bad: [string, unknown][] = [
    ['no line items', createBody({ line_items: [] })],
    ['two line items', createBody({ line_items: [{ id: 'a' }, { id: 'b' }] })],
    ['a line item without id', createBody({ line_items: [{}] })],
    ['unknown item field', createBody({ line_items: [{ id: 'a', price: 0 }] })],
    ['no currency', createBody({ currency: undefined })],
    ['a non-usd currency', createBody({ currency: 'eur' })],
    ['no capabilities', createBody({ capabilities: undefined })],
    ['a string body', 'hello'],
    ['an array body', [createBody()]],
    ['a bad email', createBody({ buyer: { email: 'not-an-email' } })],
    ['a huge metadata value', createBody({ metadata: { trip, note: 'x'.repeat(1000) } })],
    ['a NUL byte', createBody({ buyer: { email: 'a@b.co', first_name: 'A\u0000B' } })],
  ];
  it.each(bad)('%s', async (_name, body) => {
    const before = await counts();
    const res = await request(h.app)
      .post('/acp/v1/checkout_sessions')
      .set(headers({ 'Idempotency-Key': idem(), 'Content-Type': 'application/json' }))
      .send(JSON.stringify(body));
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(res.body).toMatchObject({ type: 'invalid_request', code: expect.any(String), message: expect.any(String) });
    expect(JSON.stringify(res.body)).not.toMatch(/at .*\.ts|stack/i);
    expect(await counts()).toEqual(before);
  });

  it('malformed JSON and an oversized body', async () => {
    const before = await counts();
    const broken = await request(h.app)
      .post('/acp/v1/checkout_sessions')
      .set(headers({ 'Idempotency-Key': idem(), 'Content-Type': 'application/json' }))
      .send('{"line_items": [');
    expect(broken.status).toBe(400);
    expect(broken.body).toMatchObject({ type: 'invalid_request', code: 'invalid_json' });
    const huge = await request(h.app)
      .post('/acp/v1/checkout_sessions')
      .set(headers({ 'Idempotency-Key': idem(), 'Content-Type': 'application/json' }))
      .send(JSON.stringify({ ...createBody(), pad: 'x'.repeat(2_000_000) }));
    expect(huge.status).toBe(413);
    expect(await counts()).toEqual(before);
  });

  it('an over-long Idempotency-Key, and a complete body that is not an SPT', async () => {
    const before = await counts();
    const long = await post('/checkout_sessions', createBody(), { 'Idempotency-Key': 'k'.repeat(256) });
    expect(long.status).toBe(400);
    const s = await readySession();
    const mid = await counts();
    for (const payment_data of [
      {},
      { handler_id: 'other', instrument: ok().instrument },
      { ...ok(), instrument: { type: 'card', credential: { type: 'card', token: '4242' } } },
    ]) {
      const res = await post(`/checkout_sessions/${s.id}/complete`, { payment_data });
      expect(res.status).toBe(400);
    }
    expect(await counts()).toEqual(mid);
    expect(mid.sessions).toBe(before.sessions + 1);
    expect(settlements).toHaveLength(0);
  });
});

describe("ACP: the buyer's language", () => {
  it("records the request's `locale` (by language), else its Accept-Language, on the session and on every quote it makes", async () => {
    const withLocale = await post('/checkout_sessions', createBody({ locale: 'de-DE' }), { 'Accept-Language': 'fr' });
    expect(withLocale.status).toBe(201);
    const quoteLocale = async (quoteId: string) =>
      (await h.db.prisma.quote.findUniqueOrThrow({ where: { id: quoteId } })).locale;
    expect(await quoteLocale(withLocale.body.quote_id)).toBe('de');
    expect((await h.db.prisma.acpCheckoutSession.findUniqueOrThrow({ where: { id: withLocale.body.id } })).locale).toBe(
      'de',
    );

    const fromHeader = await post('/checkout_sessions', createBody(), { 'Accept-Language': 'es-419, en;q=0.5' });
    expect(await quoteLocale(fromHeader.body.quote_id)).toBe('es');
    // A new trip re-quotes the session: the new quote keeps the session's language.
    const requoted = await post(`/checkout_sessions/${fromHeader.body.id}`, {
      metadata: { trip: { ...trip, travelers: 1, travelerAges: [40] } },
    });
    expect(requoted.body.quote_id).not.toBe(fromHeader.body.quote_id);
    expect(await quoteLocale(requoted.body.quote_id)).toBe('es');

    const neither = await post('/checkout_sessions', createBody());
    expect(await quoteLocale(neither.body.quote_id)).toBe('en');
  });
});
