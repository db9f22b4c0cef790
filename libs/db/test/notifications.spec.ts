import { randomBytes, randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { splitSchemaParam, type Database } from '../src/database';
import { createPgNotifications, NOTIFY_CHANNELS, type Notifications } from '../src/notifications';
import { createTestDatabase, describeWithPostgres, testDatabaseUrl } from '../src/testing';

/**
 * LISTEN/NOTIFY wake-ups (migration …_notify_outbox_and_options + notifications.ts): what the triggers send, the
 * schema filter, and the dedicated connection's reconnection. Nothing here measures time: every wait is for an
 * event (a notification, a reconnection), bounded by jest's timeout.
 */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('notifications on PGlite', () => {
  it('are absent: the workers poll', async () => {
    const db = await createTestDatabase({ kind: 'pglite' });
    try {
      expect(db.kind).toBe('pglite');
      expect(db.notifications).toBeUndefined();
    } finally {
      await db.close();
    }
  });
});

describeWithPostgres()('notifications on PostgreSQL', () => {
  let db: Database;
  let schema: string;
  let operatorId: string;
  beforeAll(async () => {
    db = await createTestDatabase({ kind: 'postgres' });
    schema = (await db.prisma.$queryRaw<{ s: string }[]>`SELECT current_schema() AS s`)[0]!.s;
    operatorId = (await db.prisma.operator.create({ data: { name: 'Notify Co', status: 'active' } })).id;
  });
  afterAll(() => db?.close());

  const enqueue = () =>
    db.prisma.webhookEvent.create({
      data: {
        eventId: `evt_${randomUUID()}`,
        type: 'policy.issued',
        operatorId,
        payload: {},
        nextAttemptAt: new Date(),
      },
    });
  const insertQuote = (optionsStatus: 'pending' | 'not_eligible') =>
    db.prisma.quote.create({
      data: {
        quoteNumber: `EXP-${randomBytes(4).toString('hex')}`,
        sessionIdHash: randomBytes(32).toString('hex'),
        source: 'embed',
        destinationSlug: 'antarctica',
        durationDays: 10,
        tripCostCents: 100_000,
        travelers: 1,
        residence: 'GB',
        optionsStatus,
      },
    });

  function listen(
    channel: (typeof NOTIFY_CHANNELS)[keyof typeof NOTIFY_CHANNELS],
    notifications: Notifications = db.notifications!,
  ) {
    const seen = { count: 0 };
    const unsubscribe = notifications.subscribe(channel, () => seen.count++);
    return { seen, unsubscribe };
  }

  it('an outbox insert notifies the outbox channel; a pending quote (only) notifies the options channel', async () => {
    const outbox = listen(NOTIFY_CHANNELS.outbox);
    const options = listen(NOTIFY_CHANNELS.quoteOptions);
    await until(() => db.notifications!.connected);
    // Connecting wakes every subscriber once (anything sent while it was down is lost); count from here.
    await until(() => outbox.seen.count >= 1 && options.seen.count >= 1);
    outbox.seen.count = 0;
    options.seen.count = 0;

    await enqueue();
    await until(() => outbox.seen.count === 1);

    // Notifications arrive in commit order: once the outbox's arrives, the not-eligible quote's would have.
    await insertQuote('not_eligible');
    await enqueue();
    await until(() => outbox.seen.count === 2);
    expect(options.seen.count).toBe(0);

    await insertQuote('pending');
    await until(() => options.seen.count === 1);
    outbox.unsubscribe();
    options.unsubscribe();
  });

  it('ignores notifications for another schema of the same database', async () => {
    const outbox = listen(NOTIFY_CHANNELS.outbox);
    await until(() => db.notifications!.connected);
    await db.prisma.$executeRaw`SELECT pg_notify(${NOTIFY_CHANNELS.outbox}, 'some_other_schema')`;
    await enqueue();
    await until(() => outbox.seen.count >= 1);
    expect(outbox.seen.count).toBe(1);
    outbox.unsubscribe();
  });

  it('reconnects after its connection is killed, wakes the subscribers, and listens again', async () => {
    const applicationName = `notify_spec_${randomBytes(4).toString('hex')}`;
    const { url } = splitSchemaParam(testDatabaseUrl());
    let listening = 0;
    const errors: unknown[] = [];
    const notifications = createPgNotifications({
      client: { connectionString: url, application_name: applicationName },
      schema,
      reconnectDelayMs: 20,
      onListening: () => listening++,
      onError: (err) => errors.push(err),
    });
    try {
      const outbox = listen(NOTIFY_CHANNELS.outbox, notifications);
      await until(() => listening === 1);
      await until(() => outbox.seen.count === 1); // the wake-up of the first connection

      const admin = new Client({ connectionString: url });
      await admin.connect();
      try {
        const { rows } = await admin.query<{ killed: boolean }>(
          'SELECT pg_terminate_backend(pid) AS killed FROM pg_stat_activity WHERE application_name = $1',
          [applicationName],
        );
        expect(rows.map((r) => r.killed)).toEqual([true]);
      } finally {
        await admin.end();
      }

      await until(() => listening === 2);
      expect(errors.length).toBeGreaterThan(0);
      await until(() => outbox.seen.count === 2); // the reconnection's wake-up
      expect(notifications.connected).toBe(true);
      await enqueue();
      await until(() => outbox.seen.count === 3);
    } finally {
      await notifications.close();
    }
    expect(notifications.connected).toBe(false);
  });
});
