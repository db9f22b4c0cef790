import { randomBytes } from 'node:crypto';
import { AcpOrderEventSchema, ACP_ORDER_EVENT_MAX_ATTEMPTS } from '@expedition/contracts';
import type { Fulfillment } from '@expedition/fulfillment';
import { agentKeySecretContext } from '@expedition/operators';
import { createQuoteService } from '@expedition/quoting';
import { hashToken } from '@expedition/platform';
import { verifySignature } from '@expedition/webhook-signature';
import { antarcticaTrip } from './fixtures';
import { createHarness, silentLogger, TEST_SECRET_BOX, type Harness } from './harness';
import { DEV_TOKENS, QUOTE_API, testFulfillment } from './mail-harness';
import { startReceiver, type Receiver } from './receiver';
import { createAcpOrderWorker, type AcpOrderWorkerDeps } from '../src/acp-orders/acp-order-worker';

/**
 * ACP order webhooks (docs/acp.md, "Order webhooks"): the statement that issues an ACP sale's policy queues one
 * `order_create` for the session's agent platform when its key has a webhook URL; the dispatcher's worker POSTs it
 * signed with `Merchant-Signature`, retries, and gives up after ACP_ORDER_EVENT_MAX_ATTEMPTS.
 */
const PLATFORM_SECRET = 'whsec_platform_receiver_secret_0123456789';
let h: Harness;
let fulfillment: Fulfillment;
let receiver: Receiver;

beforeAll(async () => {
  h = await createHarness();
  receiver = await startReceiver();
  fulfillment = testFulfillment(h.prisma, h.clock, QUOTE_API);
});
beforeEach(() => {
  receiver.requests.length = 0;
  receiver.setReply(() => 200);
});
afterAll(async () => {
  await receiver?.close();
  await h?.close();
});

function worker(overrides: Partial<AcpOrderWorkerDeps> = {}) {
  return createAcpOrderWorker({
    prisma: h.prisma,
    logger: silentLogger,
    clock: h.clock,
    secretBox: TEST_SECRET_BOX,
    // An injected fetch: the receiver is on loopback (the keep-alive transport's address rules are tested on their own).
    fetch: (url, init) => fetch(url, init),
    allowPrivateNetworks: true,
    timeoutMs: 5_000,
    leaseMs: 30_000,
    batchSize: 10,
    pollIntervalMs: 50,
    retryDelaysMs: [60_000],
    ...overrides,
  });
}

async function agentKey(webhookUrl: string | null) {
  const row = await h.prisma.agentKey.create({
    data: { name: 'Platform', mode: 'test', prefix: 'acpk_test_x', hash: hashToken(randomBytes(16).toString('hex')) },
  });
  if (!webhookUrl) return row;
  return h.prisma.agentKey.update({
    where: { id: row.id },
    data: { webhookUrl, webhookSecret: TEST_SECRET_BOX.seal(PLATFORM_SECRET, agentKeySecretContext(row.id)) },
  });
}

/** An ACP sale as quote-api's complete makes it: the session's own quote, paid once through the fulfillment. */
async function acpSale(agentKeyId: string, paymentId = `pi_acp_${randomBytes(6).toString('hex')}`) {
  const { quote, estimates } = await createQuoteService({ prisma: h.prisma, clock: h.clock }).create({
    source: 'api',
    ...antarcticaTrip,
    email: 'buyer@traveler.test',
  });
  const estimate = estimates[0]!;
  const session = await h.prisma.acpCheckoutSession.create({
    data: {
      id: `acs_${randomBytes(8).toString('hex')}`,
      agentKeyId,
      status: 'ready_for_payment',
      currency: 'usd',
      planId: estimate.planId,
      quoteId: quote.id,
      messages: [],
      updatedAt: h.clock.now(),
    },
  });
  const payment = {
    paymentId,
    amountCents: estimate.premiumCents,
    currency: 'USD',
    mode: 'test' as const,
    quoteId: quote.id,
    planId: estimate.planId,
    channel: 'acp' as const,
  };
  const outcome = await fulfillment.recordSucceededPayment(payment);
  if (outcome.kind !== 'policy_issued') throw new Error(`expected a policy, got ${outcome.kind}`);
  return { session, payment, estimate, policyNumber: outcome.policyNumber, policyId: outcome.policyId };
}

const eventsOf = (agentKeyId: string) => h.prisma.acpOrderEvent.findMany({ where: { agentKeyId } });

describe('ACP order events', () => {
  it('an ACP sale yields exactly one order_create, delivered once, signed with Merchant-Signature, valid against its schema', async () => {
    const key = await agentKey(receiver.url);
    const sale = await acpSale(key.id);
    expect(await eventsOf(key.id)).toHaveLength(1);

    expect(await worker().runOnce()).toBe(1);
    expect(await worker().runOnce()).toBe(0);
    expect(receiver.requests).toHaveLength(1);
    const req = receiver.requests[0]!;
    const verdict = verifySignature({
      rawBody: req.body,
      header: req.headers['merchant-signature'],
      secrets: PLATFORM_SECRET,
      nowSec: Math.floor(h.clock.now().getTime() / 1000),
    });
    expect(verdict.ok).toBe(true);
    expect(req.headers['merchant-signature']).toMatch(/^t=\d+,v1=[a-f0-9]{64}$/);
    expect(req.headers['content-type']).toBe('application/json');
    const body = AcpOrderEventSchema.parse(JSON.parse(req.body.toString('utf8')));
    expect(body).toMatchObject({
      type: 'order_create',
      data: {
        type: 'order',
        id: `ord_${sale.policyId}`,
        checkout_session_id: sale.session.id,
        order_number: sale.policyNumber,
        status: 'confirmed',
        totals: [
          { type: 'subtotal', amount: sale.estimate.premiumCents },
          { type: 'total', amount: sale.estimate.premiumCents },
        ],
      },
    });
    // The permalink is the certificate, with the policy's derived access token (none is stored).
    expect(body.data.permalink_url).toBe(
      `${QUOTE_API}/api/v1/policies/${sale.policyNumber}/certificate.pdf?access_token=${DEV_TOKENS.tokenFor({ policyNumber: sale.policyNumber })}`,
    );
    const [row] = await eventsOf(key.id);
    expect(req.headers['request-id']).toBe(row!.eventId);
    expect(row).toMatchObject({ status: 'delivered', attempts: 1, lastStatusCode: 200, lastError: null });
    expect(JSON.stringify(row!.payload)).not.toContain('access_token');
  });

  it('a replayed report of the same payment adds no second event', async () => {
    const key = await agentKey(receiver.url);
    const sale = await acpSale(key.id);
    const again = await fulfillment.recordSucceededPayment(sale.payment);
    expect(again.kind).toBe('already_recorded');
    expect(await eventsOf(key.id)).toHaveLength(1);
    expect(await worker().runOnce()).toBe(1);
    expect(receiver.requests).toHaveLength(1);
  });

  it('no event is queued for a platform whose key has no webhook URL', async () => {
    const key = await agentKey(null);
    await acpSale(key.id);
    expect(await eventsOf(key.id)).toHaveLength(0);
  });

  it('is retried after a 500 and delivered on the next attempt, with the same Request-Id', async () => {
    const key = await agentKey(receiver.url);
    await acpSale(key.id);
    receiver.setReply((n) => (n === 1 ? 500 : 200));
    expect(await worker().runOnce()).toBe(1);
    let [row] = await eventsOf(key.id);
    expect(row).toMatchObject({ status: 'pending', attempts: 1, lastStatusCode: 500, lastError: 'HTTP 500' });
    // Not due before its pause is over.
    expect(await worker().runOnce()).toBe(0);
    h.clock.advance(60_000);
    expect(await worker().runOnce()).toBe(1);
    [row] = await eventsOf(key.id);
    expect(row).toMatchObject({ status: 'delivered', attempts: 2, lastStatusCode: 200, lastError: null });
    expect(receiver.requests.map((r) => r.headers['request-id'])).toEqual([row!.eventId, row!.eventId]);
  });

  it(`gives up after ${ACP_ORDER_EVENT_MAX_ATTEMPTS} failed attempts and says why`, async () => {
    const key = await agentKey(receiver.url);
    await acpSale(key.id);
    receiver.setReply(() => 503);
    for (let i = 0; i < ACP_ORDER_EVENT_MAX_ATTEMPTS; i++) {
      expect(await worker().runOnce()).toBe(1);
      h.clock.advance(60_000);
    }
    expect(await worker().runOnce()).toBe(0);
    expect(receiver.requests).toHaveLength(ACP_ORDER_EVENT_MAX_ATTEMPTS);
    const [row] = await eventsOf(key.id);
    expect(row).toMatchObject({
      status: 'failed',
      attempts: ACP_ORDER_EVENT_MAX_ATTEMPTS,
      lastStatusCode: 503,
      lastError: 'HTTP 503',
      deliveredAt: null,
    });
  });
});
