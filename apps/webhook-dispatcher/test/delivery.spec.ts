import { WEBHOOK_MAX_ATTEMPTS } from '@expedition/contracts';
import { createPolicyTokens, DEV_POLICY_TOKEN_SECRET } from '@expedition/fulfillment';
import { createOperatorService, OPERATOR_CONNECTION_ERROR } from '@expedition/operators';
import { WEBHOOK_USER_AGENT } from '../src/delivery/webhook-sender';
import { TEST_SECRET_BOX, testWorker, type Harness } from './harness';
import { createOperator, enqueueWebhook, OPERATOR_SECRET } from './fixtures';
import { deadUrl, type Receiver } from './receiver';
import { deliveryHarness, MIN, SEC, verifyAt } from './delivery-fixtures';

let h: Harness;
let receiver: Receiver;
const { freshEvent, attemptsOf, rowOf } = deliveryHarness((made) => ({ h, receiver } = made));

describe('delivery of policy.issued', () => {
  it('POSTs the stored body, signed with X-SVC-Signature, and marks it delivered', async () => {
    const { row } = await freshEvent(() => 200);
    const worker = testWorker(h.prisma, h.clock);

    expect(await worker.runOnce()).toBe(1);

    expect(receiver.requests).toHaveLength(1);
    const req = receiver.requests[0]!;
    expect(verifyAt(req, h.clock.nowSec())).toEqual({ ok: true, timestamp: h.clock.nowSec() });
    expect(verifyAt(req, h.clock.nowSec(), ['whsec_wrong']).ok).toBe(false);
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.headers['user-agent']).toBe(WEBHOOK_USER_AGENT);
    expect(JSON.parse(req.body.toString('utf8'))).toEqual(row.payload);
    expect(req.eventId).toBe(row.eventId);
    expect(await rowOf(row.id)).toMatchObject({
      status: 'delivered',
      attempts: 1,
      lockedUntil: null,
      lastError: null,
      deliveredAt: h.clock.now(),
    });
    const attempts = await attemptsOf(row.id);
    expect(attempts.map((a) => [a.attemptNumber, a.statusCode, a.error])).toEqual([[1, 200, null]]);
    expect(attempts[0]!.durationMs).toBeGreaterThanOrEqual(0);
  });

  it("delivers documentUrl with the policy's derived access token; the outbox keeps it without (no token at rest)", async () => {
    const stored = 'http://quote.test/api/v1/policies/POL-2026-ABCDEF/certificate.pdf';
    const { row } = await freshEvent(() => 200);
    await h.prisma.webhookEvent.update({
      where: { id: row.id },
      data: { payload: { ...(row.payload as object), policyNumber: 'POL-2026-ABCDEF', documentUrl: stored } },
    });
    const tokens = createPolicyTokens({ secret: 'dispatcher-test-policy-token-secret-0123456789' });

    expect(await testWorker(h.prisma, h.clock, { policyTokens: tokens }).runOnce()).toBe(1);

    const delivered = JSON.parse(receiver.requests[0]!.body.toString('utf8')) as { documentUrl: string };
    const token = tokens.tokenFor({ policyNumber: 'POL-2026-ABCDEF' });
    expect(delivered.documentUrl).toBe(`${stored}?access_token=${token}`);
    // The token quote-api verifies with the same secret (it opens the certificate there: apps/quote-api tokens-at-rest spec).
    expect(tokens.verify({ policyNumber: 'POL-2026-ABCDEF', accessTokenHash: null }, token)).toBe(true);
    expect(verifyAt(receiver.requests[0]!, h.clock.nowSec()).ok).toBe(true);
    expect(((await rowOf(row.id)).payload as { documentUrl: string }).documentUrl).toBe(stored);
    // Without a configured secret, the published development one derives it (embedded mode, like quote-api's default).
    const dev = createPolicyTokens({ secret: DEV_POLICY_TOKEN_SECRET });
    const again = await freshEvent(() => 200);
    await h.prisma.webhookEvent.update({
      where: { id: again.row.id },
      data: { payload: { ...(again.row.payload as object), policyNumber: 'POL-2026-ABCDEF', documentUrl: stored } },
    });
    await testWorker(h.prisma, h.clock).runOnce();
    expect(JSON.parse(receiver.requests[0]!.body.toString('utf8')).documentUrl).toBe(
      `${stored}?access_token=${dev.tokenFor({ policyNumber: 'POL-2026-ABCDEF' })}`,
    );
  });

  it('retries on the schedule after 500, 500, then 200: 3 attempts, same eventId and same bytes', async () => {
    const { row } = await freshEvent((n) => (n <= 2 ? 500 : 200));
    const worker = testWorker(h.prisma, h.clock, { retryDelaysMs: [30 * SEC, 5 * MIN] });

    expect(await worker.runOnce()).toBe(1);
    expect(await rowOf(row.id)).toMatchObject({ status: 'pending', attempts: 1, lastError: 'HTTP 500' });
    expect((await rowOf(row.id)).nextAttemptAt).toEqual(new Date(h.clock.now().getTime() + 30 * SEC));

    h.clock.advance(29 * SEC);
    expect(await worker.runOnce()).toBe(0); // not due yet
    h.clock.advance(1 * SEC);
    expect(await worker.runOnce()).toBe(1);
    expect((await rowOf(row.id)).nextAttemptAt).toEqual(new Date(h.clock.now().getTime() + 5 * MIN));
    h.clock.advance(5 * MIN);
    expect(await worker.runOnce()).toBe(1);

    expect(await rowOf(row.id)).toMatchObject({ status: 'delivered', attempts: 3, lastError: null });
    expect((await attemptsOf(row.id)).map((a) => [a.attemptNumber, a.statusCode])).toEqual([
      [1, 500],
      [2, 500],
      [3, 200],
    ]);
    expect(receiver.requests).toHaveLength(3);
    expect(new Set(receiver.requests.map((r) => r.eventId))).toEqual(new Set([row.eventId]));
    expect(new Set(receiver.requests.map((r) => r.body.toString('hex'))).size).toBe(1);
    // Each attempt is signed afresh, so the signature timestamps move with the clock.
    expect(new Set(receiver.requests.map((r) => r.headers['x-svc-signature'])).size).toBe(3);
  });

  it('gives up after exactly 3 attempts when the receiver always fails, and keeps the row visible as failed', async () => {
    const { row } = await freshEvent(() => 500);
    const worker = testWorker(h.prisma, h.clock, { retryDelaysMs: [30 * SEC, 5 * MIN] });

    for (let i = 0; i < 6; i++) {
      await worker.runOnce();
      h.clock.advance(10 * MIN);
    }

    expect(receiver.requests).toHaveLength(WEBHOOK_MAX_ATTEMPTS);
    expect(await rowOf(row.id)).toMatchObject({
      status: 'failed',
      attempts: 3,
      lastError: 'HTTP 500',
      lockedUntil: null,
    });
    expect((await attemptsOf(row.id)).map((a) => a.attemptNumber)).toEqual([1, 2, 3]);
  });

  it('counts refused connections as failed attempts: exactly 3, then failed', async () => {
    const { row } = await freshEvent(() => 200, await deadUrl());
    const worker = testWorker(h.prisma, h.clock);

    for (let i = 0; i < 5; i++) {
      await worker.runOnce();
      h.clock.advance(10 * MIN);
    }

    const stored = await rowOf(row.id);
    expect(stored).toMatchObject({ status: 'failed', attempts: 3 });
    expect(stored.lastError).toMatch(/^connection failed: ECONNREFUSED/);
    const attempts = await attemptsOf(row.id);
    expect(attempts).toHaveLength(3);
    expect(attempts.every((a) => a.statusCode === null && /ECONNREFUSED/.test(a.error ?? ''))).toBe(true);
  });

  it('treats a receiver slower than the timeout as a failed attempt', async () => {
    const { row } = await freshEvent(() => ({ status: 200, delayMs: 2_000 }));
    const worker = testWorker(h.prisma, h.clock, { timeoutMs: 100, leaseMs: 5_000 });

    await worker.runOnce();

    expect(await rowOf(row.id)).toMatchObject({ status: 'pending', attempts: 1, lastError: 'timeout after 100 ms' });
  });

  it("uses the operator's current URL and secret at send time (rotation applies to retries)", async () => {
    const { operator, row } = await freshEvent((n) => (n === 1 ? 503 : 200));
    const worker = testWorker(h.prisma, h.clock);
    await worker.runOnce();
    await h.prisma.operator.update({ where: { id: operator.id }, data: { webhookSecret: 'whsec_rotated' } });
    h.clock.advance(30 * SEC);

    await worker.runOnce();

    expect(receiver.requests).toHaveLength(2);
    expect(verifyAt(receiver.requests[1]!, h.clock.nowSec(), ['whsec_rotated']).ok).toBe(true);
    expect(verifyAt(receiver.requests[1]!, h.clock.nowSec(), [OPERATOR_SECRET]).ok).toBe(false);
    expect((await rowOf(row.id)).status).toBe('delivered');
  });

  it('records an attempt without a request when the operator has no webhook URL any more', async () => {
    const { operator, row } = await freshEvent(() => 200);
    await h.prisma.operator.update({ where: { id: operator.id }, data: { webhookUrl: null } });

    await testWorker(h.prisma, h.clock).runOnce();

    expect(receiver.requests).toHaveLength(0);
    expect(await rowOf(row.id)).toMatchObject({
      status: 'pending',
      attempts: 1,
      lastError: 'no webhook URL configured',
    });
  });
});

describe('outbound address rules under production settings (WEBHOOK_ALLOW_PRIVATE_NETWORKS=false)', () => {
  const operators = () => createOperatorService({ prisma: h.prisma, clock: h.clock, secretBox: TEST_SECRET_BOX });

  it('refuses a host name resolving to 127.0.0.1 at connect time: nothing reaches the listening receiver, the attempt records why', async () => {
    const { operator, row } = await freshEvent(() => 200, receiver.url.replace('127.0.0.1', 'localhost'));
    const worker = testWorker(h.prisma, h.clock, { allowPrivateNetworks: false });

    expect(await worker.runOnce()).toBe(1);

    expect(receiver.requests).toHaveLength(0);
    const stored = await rowOf(row.id);
    expect(stored).toMatchObject({ status: 'pending', attempts: 1 });
    expect(stored.lastError).toMatch(
      /^address refused: localhost resolves to (127\.0\.0\.1|::1): loopback address refused$/,
    );
    // The provider's view (portal admin) keeps the detail; the operator's reads like any connection failure.
    const provider = await operators().getWebhookEvent(operator.id, row.eventId, 'provider');
    expect(provider.attempts.map((a) => a.error)).toEqual([stored.lastError]);
    const seen = await operators().getWebhookEvent(operator.id, row.eventId, 'operator');
    expect(seen.event.lastError).toBe(OPERATOR_CONNECTION_ERROR);
    expect(seen.attempts.map((a) => [a.statusCode, a.error])).toEqual([[null, OPERATOR_CONNECTION_ERROR]]);
  });

  it('shows the operator a closed port and a refused address alike (the delivery log is no port scanner)', async () => {
    const closed = await freshEvent(() => 200, await deadUrl());
    await testWorker(h.prisma, h.clock, { allowPrivateNetworks: true }).runOnce();
    expect((await rowOf(closed.row.id)).lastError).toMatch(/^connection failed: ECONNREFUSED/);
    const closedView = await operators().getWebhookEvent(closed.operator.id, closed.row.eventId);
    const refused = await freshEvent(() => 200, 'http://169.254.169.254/latest/meta-data');
    await testWorker(h.prisma, h.clock, { allowPrivateNetworks: false }).runOnce();
    const refusedView = await operators().getWebhookEvent(refused.operator.id, refused.row.eventId);

    expect(closedView.attempts.map((a) => [a.statusCode, a.error])).toEqual([[null, OPERATOR_CONNECTION_ERROR]]);
    expect(refusedView.attempts.map((a) => [a.statusCode, a.error])).toEqual([[null, OPERATOR_CONNECTION_ERROR]]);
    expect((await rowOf(refused.row.id)).lastError).toBe(
      'address refused: 169.254.169.254: link-local address refused',
    );
  });
});

describe('a round of several rows', () => {
  it('records each row of the round with its own outcome: delivered, retry, failed, and one for another operator', async () => {
    const { operator, row: delivered } = await freshEvent(() => 200);
    const retried = await enqueueWebhook(h.prisma, operator.id, h.clock.now());
    const lastChance = await enqueueWebhook(h.prisma, operator.id, h.clock.now());
    await h.prisma.webhookEvent.update({ where: { id: lastChance.id }, data: { attempts: 2 } });
    const elsewhere = await createOperator(h.prisma, { webhookUrl: await deadUrl() });
    const refused = await enqueueWebhook(h.prisma, elsewhere.id, h.clock.now());
    receiver.setReply((_n, req) => (req.eventId === retried.eventId || req.eventId === lastChance.eventId ? 500 : 200));

    expect(await testWorker(h.prisma, h.clock, { retryDelaysMs: [30 * SEC] }).runOnce()).toBe(4);

    expect(await rowOf(delivered.id)).toMatchObject({
      status: 'delivered',
      attempts: 1,
      lockedUntil: null,
      lastError: null,
      deliveredAt: h.clock.now(),
    });
    expect(await rowOf(retried.id)).toMatchObject({
      status: 'pending',
      attempts: 1,
      lockedUntil: null,
      lastError: 'HTTP 500',
      nextAttemptAt: new Date(h.clock.now().getTime() + 30 * SEC),
    });
    expect(await rowOf(lastChance.id)).toMatchObject({
      status: 'failed',
      attempts: 3,
      lockedUntil: null,
      lastError: 'HTTP 500',
      deliveredAt: null,
    });
    expect(await rowOf(refused.id)).toMatchObject({ status: 'pending', attempts: 1, lockedUntil: null });
    expect((await rowOf(refused.id)).lastError).toMatch(/^connection failed: ECONNREFUSED/);
    const logged = async (id: string) => (await attemptsOf(id)).map((a) => [a.attemptNumber, a.statusCode, a.error]);
    expect(await logged(delivered.id)).toEqual([[1, 200, null]]);
    expect(await logged(retried.id)).toEqual([[1, 500, 'HTTP 500']]);
    expect(await logged(lastChance.id)).toEqual([[3, 500, 'HTTP 500']]);
    expect((await logged(refused.id))[0]?.slice(0, 2)).toEqual([1, null]);
  });
});
