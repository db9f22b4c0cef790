import type { Database, PrismaClient } from '@expedition/db';
import { describeWithPostgres } from '@expedition/db/testing';
import { createDeliveryWorkers } from '../src/delivery/delivery-worker';
import { createHarness, silentLogger, testClock, waitFor, type TestClock, TEST_SECRET_BOX } from './harness';
import { createOperator, enqueueWebhook } from './fixtures';
import { startReceiver, type Receiver } from './receiver';
import { createSharedSchema, type SharedSchema } from './shared-schema';

const settings = {
  retryDelaysMs: [30_000],
  timeoutMs: 5_000,
  leaseMs: 60_000,
  batchSize: 4,
  pollIntervalMs: 10,
  secretBox: TEST_SECRET_BOX,
  allowPrivateNetworks: true,
};

async function enqueue(prisma: PrismaClient, clock: TestClock, receiver: Receiver, count: number): Promise<string[]> {
  const operator = await createOperator(prisma, { webhookUrl: receiver.url });
  const ids: string[] = [];
  for (let i = 0; i < count; i++) ids.push((await enqueueWebhook(prisma, operator.id, clock.now())).eventId);
  return ids;
}

function workersOn(prisma: PrismaClient, clock: TestClock, count: number) {
  return createDeliveryWorkers(count, { prisma, clock, logger: silentLogger, ...settings });
}

async function expectEachDeliveredOnce(prisma: PrismaClient, receiver: Receiver, eventIds: string[]) {
  expect(receiver.requests).toHaveLength(eventIds.length);
  expect(new Set(receiver.requests.map((r) => r.eventId))).toEqual(new Set(eventIds));
  expect(receiver.requests.filter((r) => r.concurrentSameEvent > 0)).toEqual([]);
  const rows = await prisma.webhookEvent.findMany({
    where: { eventId: { in: eventIds } },
    include: { attemptsLog: true },
  });
  expect(rows.every((r) => r.status === 'delivered' && r.attempts === 1 && r.attemptsLog.length === 1)).toBe(true);
}

describe('several workers in one process', () => {
  it('deliver every row exactly once and never the same row concurrently', async () => {
    const h = await createHarness();
    const receiver = await startReceiver(() => ({ status: 200, delayMs: 15 }));
    try {
      const eventIds = await enqueue(h.prisma, h.clock, receiver, 40);
      const workers = workersOn(h.prisma, h.clock, 2);

      workers.start();
      await waitFor(async () => (await h.prisma.webhookEvent.count({ where: { status: 'delivered' } })) === 40);
      await workers.stop();

      await expectEachDeliveredOnce(h.prisma, receiver, eventIds);
    } finally {
      await receiver.close();
      await h.close();
    }
  });
});

describeWithPostgres()('two dispatcher instances on one PostgreSQL database', () => {
  let shared: SharedSchema;
  let instances: Database[] = [];
  beforeAll(async () => {
    shared = await createSharedSchema();
    instances = [await shared.open(), await shared.open()];
  });
  afterAll(async () => {
    await Promise.all(instances.map((db) => db.close()));
    await shared.drop();
  });

  it('share the outbox without ever delivering a row twice (separate connection pools)', async () => {
    const clock = testClock();
    const receiver = await startReceiver(() => ({ status: 200, delayMs: 10 }));
    try {
      const eventIds = await enqueue(instances[0]!.prisma, clock, receiver, 60);
      let sends = 0;
      const countingFetch = (url: string, init: RequestInit) => {
        sends++;
        return fetch(url, init);
      };
      const fleets = instances.map((db) =>
        createDeliveryWorkers(2, { prisma: db.prisma, clock, logger: silentLogger, fetch: countingFetch, ...settings }),
      );

      fleets.forEach((f) => f.start());
      await waitFor(
        async () => (await instances[0]!.prisma.webhookEvent.count({ where: { status: 'delivered' } })) === 60,
      );
      await Promise.all(fleets.map((f) => f.stop()));

      await expectEachDeliveredOnce(instances[0]!.prisma, receiver, eventIds);
      expect(sends).toBe(60);
    } finally {
      await receiver.close();
    }
  });
});
