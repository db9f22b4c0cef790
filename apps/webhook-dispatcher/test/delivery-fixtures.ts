import { verifySignature } from '@expedition/webhook-signature';
import { createHarness, type Harness } from './harness';
import { createOperator, enqueueWebhook, OPERATOR_SECRET } from './fixtures';
import { startReceiver, type Receiver } from './receiver';

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
 * A delivery spec's database, app and loopback receiver, made before its tests and closed after them (`ready` hands
 * them to the spec), and its outbox: one fresh pending row for a new operator whose webhook is the receiver (or
 * `url`), and the row and its attempts as stored.
 */
export function deliveryHarness(ready: (made: { h: Harness; receiver: Receiver }) => void) {
  let h: Harness;
  let receiver: Receiver;
  beforeAll(async () => {
    h = await createHarness();
    receiver = await startReceiver();
    ready({ h, receiver });
  });
  afterAll(async () => {
    await receiver.close();
    await h.close();
  });

  async function freshEvent(reply: Parameters<Receiver['setReply']>[0], url?: string) {
    // Each test starts with an empty outbox: rows left pending by an earlier test would be claimed too.
    await h.prisma.webhookEvent.deleteMany({});
    receiver.setReply(reply);
    receiver.requests.length = 0;
    const operator = await createOperator(h.prisma, { webhookUrl: url ?? receiver.url });
    const row = await enqueueWebhook(h.prisma, operator.id, h.clock.now());
    return { operator, row };
  }
  const attemptsOf = (id: string) =>
    h.prisma.webhookAttempt.findMany({ where: { webhookEventId: id }, orderBy: { attemptNumber: 'asc' } });
  const rowOf = (id: string) => h.prisma.webhookEvent.findUniqueOrThrow({ where: { id } });
  return { freshEvent, attemptsOf, rowOf };
}
