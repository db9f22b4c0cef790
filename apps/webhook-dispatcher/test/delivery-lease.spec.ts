import { claimDueWebhookEvents } from '../src/delivery/outbox.repository';
import { testWorker, type Harness } from './harness';
import { type Receiver } from './receiver';
import { deliveryHarness } from './delivery-fixtures';

let h: Harness;
let receiver: Receiver;
const { freshEvent, attemptsOf, rowOf } = deliveryHarness((made) => ({ h, receiver } = made));

describe('crash safety (worker lost between sending and recording)', () => {
  it('re-sends an abandoned attempt under the same attempt number once the lease lapses', async () => {
    const { row } = await freshEvent(() => 200);
    // A worker claims the row and dies before recording anything.
    const [claimed] = await claimDueWebhookEvents(h.prisma, { now: h.clock.now(), leaseMs: 10_000, limit: 10 });
    expect(claimed).toMatchObject({ id: row.id, attempt: 1 });
    const worker = testWorker(h.prisma, h.clock, { leaseMs: 10_000 });

    expect(await worker.runOnce()).toBe(0); // still leased
    h.clock.advance(10_001);
    expect(await worker.runOnce()).toBe(1);

    expect(await rowOf(row.id)).toMatchObject({ status: 'delivered', attempts: 1 });
    expect((await attemptsOf(row.id)).map((a) => [a.attemptNumber, a.statusCode])).toEqual([[1, 200]]);
    expect(receiver.requests.map((r) => r.eventId)).toEqual([row.eventId]);
  });

  it('never exceeds 3 attempts and never drops the event when the crash hits the third attempt', async () => {
    const { row } = await freshEvent((n) => (n <= 2 ? 500 : 200));
    const worker = testWorker(h.prisma, h.clock, { retryDelaysMs: [1, 1], leaseMs: 10_000 });
    await worker.runOnce();
    h.clock.advance(10);
    await worker.runOnce();
    h.clock.advance(10);
    const [claimed] = await claimDueWebhookEvents(h.prisma, { now: h.clock.now(), leaseMs: 10_000, limit: 10 });
    expect(claimed?.attempt).toBe(3); // reserved, then the worker "crashes"

    h.clock.advance(10_001);
    await worker.runOnce();

    expect(await rowOf(row.id)).toMatchObject({ status: 'delivered', attempts: 3 });
    expect((await attemptsOf(row.id)).map((a) => [a.attemptNumber, a.statusCode])).toEqual([
      [1, 500],
      [2, 500],
      [3, 200],
    ]);
  });

  it('drops the late outcome of a worker whose lease was taken over (the new holder records it)', async () => {
    const { row } = await freshEvent(() => 200);
    const slow = testWorker(h.prisma, h.clock, { leaseMs: 10_000 });
    receiver.setReply(() => ({ status: 200, delayMs: 300 }));
    const slowRound = slow.runOnce();
    await receiver.arrived(1);
    h.clock.advance(10_001); // the slow worker's lease lapses while its request is in flight
    await testWorker(h.prisma, h.clock).runOnce();
    await slowRound;

    expect(receiver.requests.map((r) => r.eventId)).toEqual([row.eventId, row.eventId]);
    expect(await rowOf(row.id)).toMatchObject({ status: 'delivered', attempts: 1 });
    expect(await attemptsOf(row.id)).toHaveLength(1);
  });
});
