import { countingNotifications, describeWithPostgres } from '@expedition/db/testing';
import { NOTIFY_CHANNELS, type Notifications } from '@expedition/db';
import { testWorker, waitFor } from './harness';
import { createOperator, enqueueWebhook } from './fixtures';
import { h, receiver, useReceiverHarness } from './receiver-harness';

/**
 * On PostgreSQL a new outbox row wakes the delivery worker through LISTEN/NOTIFY (the trigger of migration
 * …_notify_outbox_and_options): a worker whose poll interval is an hour still delivers. No time is measured.
 */
describeWithPostgres()('delivery woken by LISTEN/NOTIFY', () => {
  useReceiverHarness();

  it('delivers a new outbox row at once, woken by the notification, not by a poll', async () => {
    const notifications = h.db.notifications!;
    expect(notifications).toBeDefined();
    const counting = countingNotifications(notifications, NOTIFY_CHANNELS.outbox);
    const worker = testWorker(h.prisma, h.clock, { pollIntervalMs: 3_600_000, notifications: counting.subscriber });
    const operator = await createOperator(h.prisma, { webhookUrl: receiver.url });
    worker.start();
    try {
      await waitFor(async () => notifications.connected);
      const first = await enqueueWebhook(h.prisma, operator.id, h.clock.now());
      await waitFor(() => h.prisma.webhookEvent.findFirst({ where: { id: first.id, status: 'delivered' } }));
      // That round is over and the next poll is an hour away: only a notification can deliver the second row.
      const wakesBefore = counting.wakes();
      const second = await enqueueWebhook(h.prisma, operator.id, h.clock.now());
      await waitFor(() => h.prisma.webhookEvent.findFirst({ where: { id: second.id, status: 'delivered' } }));
      expect(counting.wakes()).toBeGreaterThan(wakesBefore);
      expect(receiver.requests.map((r) => r.eventId)).toEqual([first.eventId, second.eventId]);
    } finally {
      await worker.stop();
    }
  });

  it('stops listening when stopped', async () => {
    const subscribed: string[] = [];
    let unsubscribed = 0;
    const fake: Pick<Notifications, 'subscribe'> = {
      subscribe: (channel) => {
        subscribed.push(channel);
        return () => unsubscribed++;
      },
    };
    const worker = testWorker(h.prisma, h.clock, { pollIntervalMs: 3_600_000, notifications: fake });
    worker.start();
    worker.start();
    await worker.stop();
    expect(subscribed).toEqual([NOTIFY_CHANNELS.outbox]);
    expect(unsubscribed).toBe(1);
  });
});
