import { readFileSync } from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { ACP_API_VERSION, type Mode } from '@expedition/contracts';
import type { SettleSharedPaymentTokenInput } from '@expedition/payments';
import { createPolicyTokens, DEV_POLICY_TOKEN_SECRET } from '@expedition/fulfillment';
import { hashToken, randomToken } from '@expedition/platform';
import { antarcticaQuote, createHarness, type Harness } from './harness';

/**
 * What the /acp/v1 specs (Agentic Commerce Protocol 2026-04-17, over the composed app) share: one harness per file
 * whose processor records (and can hold or fail) each SPT settlement, an agent key, request helpers, and the
 * protocol's own JSON Schema (fixtures/acp-2026-04-17.schema.json, fragments of the release) to check answers against.
 * The `let` exports are live: set by the hooks `useAcpHarness()` registers.
 */

export let h: Harness;
export let settlements: SettleSharedPaymentTokenInput[];
let holdNext: Promise<void> | undefined;
let failNext: Error | undefined;
let key: string;
/** A plan of the Antarctica trip that can be bought online. */
export let PLAN: string;

/** The next settlement waits for `gate` before it reaches the processor. */
export const holdNextSettlement = (gate: Promise<void>) => (holdNext = gate);
/** The next settlement throws `err` instead of reaching the processor. */
export const failNextSettlement = (err: Error) => (failNext = err);

export const DEV_TOKENS = createPolicyTokens({ secret: DEV_POLICY_TOKEN_SECRET });
export const trip = { ...antarcticaQuote };
const { residence: _r, ...withoutResidence } = trip;
export const tripWithoutResidence = withoutResidence;
export const buyer = { email: 'traveler@example.com', first_name: 'Ada' };
export const spt = (token: string) => ({
  handler_id: 'stripe_spt',
  instrument: { type: 'card', credential: { type: 'spt', token } },
});
// A Shared Payment Token is single use: each payment gets its own.
let sptSeq = 0;
export const ok = () => spt(`spt_test_success_${process.pid}_${++sptSeq}`);

/** Registers the file's hooks: a harness, its agent key and PLAN before all; no held or failing settlement per test. */
export function useAcpHarness(): void {
  beforeAll(async () => {
    h = await createHarness();
    const settle = h.processor.settleSharedPaymentToken.bind(h.processor);
    h.processor.settleSharedPaymentToken = async (input) => {
      settlements.push(input);
      const hold = holdNext;
      holdNext = undefined;
      if (hold) await hold;
      const fail = failNext;
      failNext = undefined;
      if (fail) throw fail;
      return settle(input);
    };
    key = await newKey();
    PLAN = (await planIds())[0]!;
  });
  beforeEach(() => {
    settlements = [];
    holdNext = undefined;
    failNext = undefined;
  });
  afterAll(() => h.close());
}

export async function newKey(mode: Mode = 'test', revoked = false): Promise<string> {
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
export const idem = () => `idem-${process.pid}-${++keySeq}`;
export const headers = (extra: Record<string, string | undefined> = {}) => {
  const all: Record<string, string | undefined> = {
    Authorization: `Bearer ${key}`,
    'API-Version': ACP_API_VERSION,
    ...extra,
  };
  return Object.fromEntries(Object.entries(all).filter(([, v]) => v !== undefined)) as Record<string, string>;
};
export const post = (p: string, body: unknown, extra: Record<string, string | undefined> = {}) =>
  request(h.app)
    .post(`/acp/v1${p}`)
    .set(headers({ 'Idempotency-Key': idem(), ...extra }))
    .send(body as object);
export const get = (p: string, extra: Record<string, string | undefined> = {}) =>
  request(h.app).get(`/acp/v1${p}`).set(headers(extra));

export const createBody = (over: Record<string, unknown> = {}) => ({
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

export async function readySession() {
  const res = await post('/checkout_sessions', createBody({ line_items: [{ id: PLAN }] }));
  expect(res.status).toBe(201);
  expect(res.body.status).toBe('ready_for_payment');
  return res.body as { id: string; quote_id: string; totals: { type: string; amount: number }[] };
}

export const counts = async () => ({
  sessions: await h.db.prisma.acpCheckoutSession.count(),
  quotes: await h.db.prisma.quote.count(),
  payments: await h.db.prisma.payment.count(),
  purchases: await h.db.prisma.purchase.count(),
  idempotency: await h.db.prisma.idempotencyRecord.count(),
});

export function deferred() {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

export async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(check()).toBe(true);
}

const schema = JSON.parse(readFileSync(path.join(__dirname, 'fixtures/acp-2026-04-17.schema.json'), 'utf8'));
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema(schema);
export const validator = (def: string) => ajv.getSchema(`${schema.$id}#/$defs/${def}`)!;
export function conforms(def: 'CheckoutSession' | 'CheckoutSessionWithOrder' | 'Error', body: unknown): void {
  const validate = validator(def);
  const ok = validate(body);
  expect(validate.errors ?? []).toEqual([]);
  expect(ok).toBe(true);
}
