import { verifySignature } from '@expedition/webhook-signature';
import type { Harness } from './harness';
import { createOperator, enqueueWebhook, OPERATOR_SECRET } from './fixtures';
import type { Receiver } from './receiver';

export const SEC = 1_000;
export const MIN = 60 * SEC;

/** What an operator's server does: verify over the raw bytes, then dedupe on eventId. */
export function verifyAt(req: Receiver['requests'][number], nowSec: number, secrets: string[] = [OPERATOR_SECRET]) {
  return verifySignature({
    rawBody: req.body,
    header: req.headers['x-svc-signature'] as string | undefined,
    secrets,
    nowSec,
  });
}

/**
 * The delivery specs' outbox: one fresh pending row for a new operator whose webhook is `receiver` (or `url`), and the
 * row and its attempts as stored. `harness` and `receiver` are read at call time (the spec creates them in beforeAll).
 */
export function deliveryFixtures(harness: () => Harness, receiver: () => Receiver) {
  async function freshEvent(reply: Parameters<Receiver['setReply']>[0], url?: string) {
    const h = harness();
    // Each test starts with an empty outbox: rows left pending by an earlier test would be claimed too.
    await h.prisma.webhookEvent.deleteMany({});
    receiver().setReply(reply);
    receiver().requests.length = 0;
    const operator = await createOperator(h.prisma, { webhookUrl: url ?? receiver().url });
    const row = await enqueueWebhook(h.prisma, operator.id, h.clock.now());
    return { operator, row };
  }
  const attemptsOf = (id: string) =>
    harness().prisma.webhookAttempt.findMany({ where: { webhookEventId: id }, orderBy: { attemptNumber: 'asc' } });
  const rowOf = (id: string) => harness().prisma.webhookEvent.findUniqueOrThrow({ where: { id } });
  return { freshEvent, attemptsOf, rowOf };
}
