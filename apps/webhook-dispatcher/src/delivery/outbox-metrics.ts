import type { PrismaClient } from '@expedition/db';
import type { OutboxSample } from '@expedition/observability';

/**
 * Outbox depth and the age of its oldest pending row, for the scrape-time gauges. One indexed read
 * (`webhook_events(status, next_attempt_at)`); every replica reports the same numbers, so dashboards take `max`.
 */
export async function sampleOutbox(prisma: PrismaClient, now: () => Date): Promise<OutboxSample> {
  const [row] = await prisma.$queryRaw<{ depth: number; oldest: Date | null }[]>`
    SELECT count(*)::int AS depth, min(created_at) AS oldest FROM webhook_events WHERE status = 'pending'`;
  const oldest = row?.oldest ? new Date(row.oldest).getTime() : null;
  return {
    depth: Number(row?.depth ?? 0),
    oldestPendingAgeSec: oldest === null ? 0 : Math.max(0, (now().getTime() - oldest) / 1000),
  };
}
