import { verifySignature } from '@expedition/webhook-signature';
import { createOperatorService, TEST_EVENT_ID_PREFIX } from '@expedition/operators';
import { createHarness, TEST_SECRET_BOX, testWorker, type Harness } from './harness';
import { createOperator, enqueueWebhook } from './fixtures';
import { startReceiver, type Receiver } from './receiver';

/**
 * Portal features on the delivery path: a rotated signing secret overlaps (one v1 per active secret), a manual resend
 * is one more attempt with the same eventId and body, and a portal test event is delivered like a real one.
 * The receiver listens on PF's test port range.
 */
let h: Harness;
let receiver: Receiver;
const PORT = 14101;

beforeAll(async () => {
  h = await createHarness();
  receiver = await startReceiver(() => 200, PORT);
});
afterAll(async () => {
  await receiver?.close();
  await h?.close();
});
beforeEach(() => {
  receiver.requests.length = 0;
  receiver.setReply(() => 200);
});

const service = () => createOperatorService({ prisma: h.prisma, clock: h.clock, secretBox: TEST_SECRET_BOX });

function v1Count(header: string): number {
  return header.split(',').filter((p) => p.startsWith('v1=')).length;
}

function verifies(n: number, secret: string): boolean {
  const req = receiver.requests[n]!;
  return verifySignature({
    rawBody: req.body,
    header: req.headers['x-svc-signature'] as string,
    secrets: [secret],
    nowSec: h.clock.nowSec(),
  }).ok;
}

async function operatorWithSecret() {
  const op = await createOperator(h.prisma, { webhookUrl: receiver.url, webhookSecret: null });
  const first = await service().rotateWebhookSecret(op.id, { overlapHours: 0 });
  return { op, firstSecret: first.secret };
}

describe('webhook secret rotation with overlap', () => {
  it('signs with both secrets during the overlap and only the new one after it; a receiver verifies with either', async () => {
    const { op, firstSecret } = await operatorWithSecret();
    const rotated = await service().rotateWebhookSecret(op.id, { overlapHours: 24 });
    expect(rotated.previousSecretExpiresAt?.getTime()).toBe(h.clock.now().getTime() + 24 * 3_600_000);

    await enqueueWebhook(h.prisma, op.id, h.clock.now());
    expect(await testWorker(h.prisma, h.clock).runOnce()).toBe(1);
    const header = receiver.requests[0]!.headers['x-svc-signature'] as string;
    expect(v1Count(header)).toBe(2);
    expect(verifies(0, rotated.secret)).toBe(true);
    expect(verifies(0, firstSecret)).toBe(true);

    h.clock.advance(24 * 3_600_000);
    await enqueueWebhook(h.prisma, op.id, h.clock.now());
    expect(await testWorker(h.prisma, h.clock).runOnce()).toBe(1);
    expect(v1Count(receiver.requests[1]!.headers['x-svc-signature'] as string)).toBe(1);
    expect(verifies(1, rotated.secret)).toBe(true);
    expect(verifies(1, firstSecret)).toBe(false);
  });

  it('overlap 0 drops the previous secret at once', async () => {
    const { op, firstSecret } = await operatorWithSecret();
    const rotated = await service().rotateWebhookSecret(op.id, { overlapHours: 0 });
    expect(rotated.previousSecretExpiresAt).toBeNull();
    await enqueueWebhook(h.prisma, op.id, h.clock.now());
    await testWorker(h.prisma, h.clock).runOnce();
    expect(v1Count(receiver.requests[0]!.headers['x-svc-signature'] as string)).toBe(1);
    expect(verifies(0, firstSecret)).toBe(false);
    expect(verifies(0, rotated.secret)).toBe(true);
  });
});

describe('resend', () => {
  it('delivers the same eventId and body again as a 4th attempt after three failures', async () => {
    const { op } = await operatorWithSecret();
    receiver.setReply(() => 500);
    const row = await enqueueWebhook(h.prisma, op.id, h.clock.now());
    const worker = testWorker(h.prisma, h.clock);
    for (let i = 0; i < 3; i++) {
      expect(await worker.runOnce()).toBe(1);
      h.clock.advance(10 * 60_000);
    }
    expect(await h.prisma.webhookEvent.findUniqueOrThrow({ where: { id: row.id } })).toMatchObject({
      status: 'failed',
      attempts: 3,
    });
    expect(await worker.runOnce()).toBe(0);

    receiver.setReply(() => 200);
    const resent = await service().resendWebhookEvent(op.id, row.id);
    expect(resent).toMatchObject({ status: 'pending', attemptCount: 3, maxAttempts: 4 });
    expect(await worker.runOnce()).toBe(1);

    expect(receiver.requests).toHaveLength(4);
    expect(receiver.requests[3]!.eventId).toBe(row.eventId);
    expect(receiver.requests[3]!.body.equals(receiver.requests[0]!.body)).toBe(true);
    const after = await h.prisma.webhookEvent.findUniqueOrThrow({
      where: { id: row.id },
      include: { attemptsLog: true },
    });
    expect(after).toMatchObject({ status: 'delivered', attempts: 4 });
    expect(after.attemptsLog.map((a) => a.attemptNumber).sort()).toEqual([1, 2, 3, 4]);
  });

  it('a failed resend is not retried: one attempt, then failed again', async () => {
    const { op } = await operatorWithSecret();
    const row = await h.prisma.webhookEvent.create({
      data: {
        eventId: `evt_${crypto.randomUUID()}`,
        type: 'policy.issued',
        operatorId: op.id,
        payload: { eventId: 'x' },
        status: 'delivered',
        attempts: 1,
        nextAttemptAt: h.clock.now(),
      },
    });
    receiver.setReply(() => 503);
    await service().resendWebhookEvent(op.id, row.id);
    const worker = testWorker(h.prisma, h.clock);
    expect(await worker.runOnce()).toBe(1);
    h.clock.advance(60 * 60_000);
    expect(await worker.runOnce()).toBe(0);
    expect(await h.prisma.webhookEvent.findUniqueOrThrow({ where: { id: row.id } })).toMatchObject({
      status: 'failed',
      attempts: 2,
      maxAttempts: 2,
    });
  });
});

describe('test event', () => {
  it('is delivered signed like a real one, marked as a test, and creates no sale or commission', async () => {
    const { op, firstSecret } = await operatorWithSecret();
    const before = { commissions: await h.prisma.commission.count(), policies: await h.prisma.policy.count() };
    const event = await service().sendTestWebhookEvent(op.id);
    expect(event.eventId.startsWith(TEST_EVENT_ID_PREFIX)).toBe(true);
    expect(event.isTest).toBe(true);
    expect(await testWorker(h.prisma, h.clock).runOnce()).toBe(1);

    const body = JSON.parse(receiver.requests[0]!.body.toString('utf8'));
    expect(body).toMatchObject({
      eventId: event.eventId,
      type: 'policy.issued',
      test: true,
      mode: 'test',
      operatorId: op.id,
    });
    expect(receiver.requests[0]!.headers['x-svc-event-id']).toBe(event.eventId);
    expect(verifies(0, firstSecret)).toBe(true);
    expect(await h.prisma.commission.count()).toBe(before.commissions);
    expect(await h.prisma.policy.count()).toBe(before.policies);
    expect(await h.prisma.webhookEvent.findFirstOrThrow({ where: { eventId: event.eventId } })).toMatchObject({
      status: 'delivered',
      isTest: true,
    });
  });
});
