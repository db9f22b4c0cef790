import type { ChildProcess } from 'node:child_process';
import type { Database } from '@expedition/db';
import { describeWithPostgres } from '@expedition/db/testing';
import { systemClock } from '@expedition/platform';
import { verifySignature } from '@expedition/webhook-signature';
import { exited, killAll, startDispatcherProcess } from './dispatcher-process';
import { TEST_WEBHOOK_KEY_A, waitFor } from './harness';
import { createOperator, enqueueWebhook, OPERATOR_SECRET } from './fixtures';
import { startReceiver, type Receiver } from './receiver';
import { createSharedSchema, type SharedSchema } from './shared-schema';

const TIMEOUT_MS = 5_000;
const LEASE_MS = 6_000;

/** The real dispatcher in its own process, on the shared schema; PGlite cannot be shared like this. */
function startDispatcher(databaseUrl: string): ChildProcess {
  return startDispatcherProcess(databaseUrl, {
    SIMULATED_PROCESSOR_WEBHOOK_SECRET: 'whsec_sim_crash_recovery_0123456789abcdef0123',
    WEBHOOK_WORKERS: '1',
    WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS),
    WEBHOOK_LEASE_MS: String(LEASE_MS),
    WEBHOOK_POLL_INTERVAL_MS: '100',
    WEBHOOK_RETRY_DELAYS_MS: '100,100',
    WEBHOOK_SECRET_KEYS: TEST_WEBHOOK_KEY_A,
  });
}

describeWithPostgres()('dispatcher process killed mid-delivery', () => {
  let shared: SharedSchema;
  let db: Database;
  let receiver: Receiver;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    shared = await createSharedSchema();
    db = await shared.open();
    // The first request never gets an answer: the dispatcher is killed while it waits.
    receiver = await startReceiver((n) => (n === 1 ? 'hang' : 200));
  });
  afterAll(async () => {
    await killAll(children);
    await receiver?.close();
    await db?.close();
    await shared?.drop();
  });

  it('delivers the event after a restart, once the lease lapses, with the same eventId and body', async () => {
    const operator = await createOperator(db.prisma, { webhookUrl: receiver.url });
    const row = await enqueueWebhook(db.prisma, operator.id, systemClock.now());

    const first = startDispatcher(shared.databaseUrl);
    children.push(first);
    await receiver.arrived(1);
    first.kill('SIGKILL');
    await exited(first);

    // Reserved but never recorded: attempt 1 is leased, nothing in the attempt log, not lost.
    const orphaned = await db.prisma.webhookEvent.findUniqueOrThrow({ where: { id: row.id } });
    expect(orphaned).toMatchObject({ status: 'pending', attempts: 1 });
    expect(orphaned.lockedUntil).not.toBeNull();
    expect(await db.prisma.webhookAttempt.count({ where: { webhookEventId: row.id } })).toBe(0);

    const second = startDispatcher(shared.databaseUrl);
    children.push(second);
    const delivered = await waitFor(async () => {
      const current = await db.prisma.webhookEvent.findUniqueOrThrow({ where: { id: row.id } });
      return current.status === 'delivered' ? current : null;
    }, 100);

    expect(delivered.attempts).toBe(1); // the abandoned attempt was re-made under its own number
    const attempts = await db.prisma.webhookAttempt.findMany({ where: { webhookEventId: row.id } });
    expect(attempts.map((a) => [a.attemptNumber, a.statusCode])).toEqual([[1, 200]]);
    expect(receiver.requests.map((r) => r.eventId)).toEqual([row.eventId, row.eventId]);
    expect(receiver.requests[0]!.body.equals(receiver.requests[1]!.body)).toBe(true);
    const last = receiver.requests[1]!;
    expect(
      verifySignature({
        rawBody: last.body,
        header: last.headers['x-svc-signature'] as string,
        secrets: [OPERATOR_SECRET],
      }).ok,
    ).toBe(true);
  }, 90_000);
});
