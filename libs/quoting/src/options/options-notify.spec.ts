import { countingNotifications, createTestDatabase, describeWithPostgres } from '@expedition/db/testing';
import { NOTIFY_CHANNELS, syncCatalog, type Database, type Notifications } from '@expedition/db';
import { catalogSnapshot } from '@expedition/domain-pricing';
import { createQuoteService } from '../quote.service';
import { createOptionsWorker } from './options-worker';

/**
 * On PostgreSQL a pending quote wakes the options worker through LISTEN/NOTIFY (the trigger of migration
 * …_notify_outbox_and_options), from any replica: a worker whose poll interval is an hour still produces options.
 * No time is measured.
 */
const clock = { now: () => new Date('2026-11-21T12:00:00Z') };
const eligibleTrip = {
  source: 'embed' as const,
  destination: 'Antarctica',
  startDate: '2027-01-10',
  durationDays: 14,
  tripCostCents: 2_400_000,
  travelers: 2,
  travelerAges: [45, 52],
  residence: 'GB',
};

async function until<T>(check: () => Promise<T | null | false>): Promise<T> {
  for (;;) {
    const value = await check();
    if (value) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describeWithPostgres()('options worker woken by LISTEN/NOTIFY', () => {
  let db: Database;
  beforeAll(async () => {
    db = await createTestDatabase({ kind: 'postgres' });
    await syncCatalog(db.prisma, catalogSnapshot());
  });
  afterAll(() => db?.close());

  it('produces options for a new pending quote at once, woken by the notification, not by a poll', async () => {
    const notifications = db.notifications!;
    const counting = countingNotifications(notifications, NOTIFY_CHANNELS.quoteOptions);
    const worker = createOptionsWorker({
      prisma: db.prisma,
      clock,
      pollIntervalMs: 3_600_000,
      notifications: counting.subscriber,
    });
    const quotes = createQuoteService({ prisma: db.prisma, clock });
    const ready = (id: string) => () => db.prisma.quote.findFirst({ where: { id, optionsStatus: 'ready' } });
    worker.start();
    try {
      await until(async () => notifications.connected);
      const first = await quotes.create(eligibleTrip);
      expect(first.quote.optionsStatus).toBe('pending');
      await until(ready(first.quote.id));
      // That round is over and the next poll is an hour away; nobody calls kick(): only a notification can wake it.
      const wakesBefore = counting.wakes();
      const second = await quotes.create(eligibleTrip);
      await until(ready(second.quote.id));
      expect(counting.wakes()).toBeGreaterThan(wakesBefore);
      expect(await db.prisma.quoteOption.count({ where: { quoteId: second.quote.id } })).toBeGreaterThan(0);
    } finally {
      await worker.stop();
    }
  });

  it('subscribes once per start and unsubscribes when stopped', async () => {
    const subscribed: string[] = [];
    let unsubscribed = 0;
    const fake: Pick<Notifications, 'subscribe'> = {
      subscribe: (channel) => {
        subscribed.push(channel);
        return () => unsubscribed++;
      },
    };
    const worker = createOptionsWorker({ prisma: db.prisma, clock, pollIntervalMs: 3_600_000, notifications: fake });
    worker.start();
    worker.start();
    await worker.stop();
    expect(subscribed).toEqual([NOTIFY_CHANNELS.quoteOptions]);
    expect(unsubscribed).toBe(1);
  });
});
