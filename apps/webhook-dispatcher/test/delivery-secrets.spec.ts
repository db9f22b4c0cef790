import { verifySignature } from '@expedition/webhook-signature';
import { TEST_WEBHOOK_KEY_A, TEST_WEBHOOK_KEY_B, testSecretBox, testWorker } from './harness';
import { createOperator, enqueueWebhook, OPERATOR_SECRET } from './fixtures';
import { h, receiver, useReceiverHarness } from './receiver-harness';

/**
 * Operators' webhook secrets are stored sealed (envelope encryption, libs/operators secret-box) and opened by the
 * delivery worker only to sign. Legacy plain values keep working; a value that cannot be opened signs nothing.
 */
useReceiverHarness(() => 200);

const boxA = testSecretBox(TEST_WEBHOOK_KEY_A);
const rotated = testSecretBox(`${TEST_WEBHOOK_KEY_B},${TEST_WEBHOOK_KEY_A}`);

async function operatorWithStoredSecret(store: (operatorId: string) => string) {
  await h.prisma.webhookEvent.deleteMany({});
  receiver.requests.length = 0;
  const operator = await createOperator(h.prisma, { webhookUrl: receiver.url });
  const stored = store(operator.id);
  await h.prisma.operator.update({ where: { id: operator.id }, data: { webhookSecret: stored } });
  const row = await enqueueWebhook(h.prisma, operator.id, h.clock.now());
  return { operator, row, stored };
}

const verifiedAt = (n: number, secret: string) =>
  verifySignature({
    rawBody: receiver.requests[n]!.body,
    header: receiver.requests[n]!.headers['x-svc-signature'] as string | undefined,
    secrets: [secret],
    nowSec: h.clock.nowSec(),
  }).ok;
const verifiedWith = (secret: string) => verifiedAt(0, secret);

describe('delivery with sealed webhook secrets', () => {
  it('stores the secret sealed (not the plain value) and signs with the plain secret', async () => {
    const { row, stored } = await operatorWithStoredSecret((id) => boxA.seal(OPERATOR_SECRET, id));

    expect(stored.startsWith('sbx1.a.')).toBe(true);
    expect(stored).not.toContain(OPERATOR_SECRET);
    expect(await testWorker(h.prisma, h.clock, { secretBox: boxA }).runOnce()).toBe(1);

    expect(receiver.requests).toHaveLength(1);
    expect(verifiedWith(OPERATOR_SECRET)).toBe(true);
    expect(verifiedWith(stored)).toBe(false);
    expect(await h.prisma.webhookEvent.findUniqueOrThrow({ where: { id: row.id } })).toMatchObject({
      status: 'delivered',
    });
  });

  it('still signs a secret sealed under key A once the keyring is [B, A] (rotation in progress)', async () => {
    await operatorWithStoredSecret((id) => boxA.seal(OPERATOR_SECRET, id));

    await testWorker(h.prisma, h.clock, { secretBox: rotated }).runOnce();

    expect(verifiedWith(OPERATOR_SECRET)).toBe(true);
  });

  it('signs a legacy plain value stored before sealing existed', async () => {
    await operatorWithStoredSecret(() => OPERATOR_SECRET);

    await testWorker(h.prisma, h.clock, { secretBox: boxA }).runOnce();

    expect(verifiedWith(OPERATOR_SECRET)).toBe(true);
  });

  it('opens the secret once per round for all the rows of an operator, and again in the next round', async () => {
    const { operator } = await operatorWithStoredSecret((id) => boxA.seal(OPERATOR_SECRET, id));
    await enqueueWebhook(h.prisma, operator.id, h.clock.now());
    await enqueueWebhook(h.prisma, operator.id, h.clock.now());
    let opened = 0;
    const counting = { open: (stored: string, context: string) => (opened++, boxA.open(stored, context)) };
    const worker = testWorker(h.prisma, h.clock, { secretBox: counting });

    expect(await worker.runOnce()).toBe(3);
    expect(opened).toBe(1);
    expect(receiver.requests).toHaveLength(3);
    expect(receiver.requests.every((_, i) => verifiedAt(i, OPERATOR_SECRET))).toBe(true);

    await enqueueWebhook(h.prisma, operator.id, h.clock.now());
    expect(await worker.runOnce()).toBe(1);
    expect(opened).toBe(2);
  });

  it('sends nothing for a tampered sealed value and records a clear error, then retries on the schedule', async () => {
    const { row } = await operatorWithStoredSecret((id) => {
      const sealed = boxA.seal(OPERATOR_SECRET, id);
      const flipped = sealed.at(-2) === 'A' ? 'B' : 'A';
      return `${sealed.slice(0, -2)}${flipped}${sealed.slice(-1)}`;
    });

    expect(await testWorker(h.prisma, h.clock, { secretBox: boxA }).runOnce()).toBe(1);

    expect(receiver.requests).toHaveLength(0);
    const stored = await h.prisma.webhookEvent.findUniqueOrThrow({ where: { id: row.id } });
    expect(stored).toMatchObject({ status: 'pending', attempts: 1 });
    expect(stored.lastError).toMatch(/^webhook secret cannot be decrypted: sealed secret failed authentication/);
    const [attempt] = await h.prisma.webhookAttempt.findMany({ where: { webhookEventId: row.id } });
    expect(attempt).toMatchObject({ attemptNumber: 1, statusCode: null, error: stored.lastError });
  });

  it('sends nothing when the key that sealed the secret has left the keyring', async () => {
    const { row } = await operatorWithStoredSecret((id) => boxA.seal(OPERATOR_SECRET, id));

    await testWorker(h.prisma, h.clock, { secretBox: testSecretBox(TEST_WEBHOOK_KEY_B) }).runOnce();

    expect(receiver.requests).toHaveLength(0);
    expect((await h.prisma.webhookEvent.findUniqueOrThrow({ where: { id: row.id } })).lastError).toBe(
      'webhook secret cannot be decrypted: sealed with key id "a", which is not in the keyring',
    );
  });
});
