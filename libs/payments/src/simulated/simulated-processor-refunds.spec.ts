import { createInMemorySimulatedPaymentStore } from './simulated-store';
import { META, setup, create } from './simulated-test-harness';

describe('simulated processor: shared store (several processes)', () => {
  it('lets a second processor instance confirm an intent created by the first', async () => {
    const store = createInMemorySimulatedPaymentStore();
    const quoteApi = setup({ store });
    const embedApi = setup({ store, ids: () => `other${Math.random().toString(36).slice(2)}` });
    const { paymentId } = await create(quoteApi.processor);
    expect(
      (await embedApi.processor.confirmPayment({ paymentId, mode: 'test', paymentMethod: '4242424242424242' })).status,
    ).toBe('succeeded');
    await expect(create(embedApi.processor)).resolves.toMatchObject({ paymentId });
  });
});

describe('simulated processor: retrieve and refund', () => {
  it('retrieves a declined intent as failed with its own failure code, decline code and message', async () => {
    const { processor } = setup();
    const { paymentId } = await create(processor);
    await processor.confirmPayment({ paymentId, mode: 'test', paymentMethod: '4000000000009995' });
    expect(await processor.retrievePayment({ paymentId, mode: 'test' })).toMatchObject({
      status: 'failed',
      failureCode: 'card_declined',
      declineCode: 'insufficient_funds',
      failureMessage: 'Your card has insufficient funds.',
    });
  });

  it('tells what became of a payment, then refunds it once per idempotency key', async () => {
    const { processor } = setup();
    const { paymentId } = await create(processor);
    expect(await processor.retrievePayment({ paymentId, mode: 'test' })).toMatchObject({
      status: 'pending',
      amountRefundedCents: 0,
    });
    await expect(
      processor.refundPayment({ paymentId, mode: 'test', reason: 'duplicate', idempotencyKey: 'r1' }),
    ).rejects.toMatchObject({ code: 'invalid_request' });

    await processor.confirmPayment({ paymentId, mode: 'test', paymentMethod: '4242424242424242' });
    expect(await processor.retrievePayment({ paymentId, mode: 'test' })).toMatchObject({
      status: 'succeeded',
      amountCents: 12345,
      metadata: { quoteId: 'q_1' },
    });

    const refund = await processor.refundPayment({
      paymentId,
      mode: 'test',
      reason: 'duplicate',
      idempotencyKey: 'r1',
    });
    expect(refund).toEqual({ refundId: expect.stringMatching(/^re_sim_/), status: 'succeeded', amountCents: 12345 });
    // The same key is the same refund (a retry after a crash); another key finds nothing left to refund.
    expect(
      await processor.refundPayment({ paymentId, mode: 'test', reason: 'duplicate', idempotencyKey: 'r1' }),
    ).toEqual(refund);
    await expect(
      processor.refundPayment({ paymentId, mode: 'test', reason: 'duplicate', idempotencyKey: 'r2' }),
    ).rejects.toMatchObject({ code: 'invalid_request' });
    expect(await processor.retrievePayment({ paymentId, mode: 'test' })).toMatchObject({ amountRefundedCents: 12345 });
  });

  it('refuses to settle one idempotency key with another token (a crash-and-retry never charges twice)', async () => {
    const store = createInMemorySimulatedPaymentStore();
    const { processor } = setup({ store });
    const input = {
      amountCents: 5000,
      currency: 'usd',
      mode: 'test' as const,
      challengeId: 'ch_1',
      idempotencyKey: 'mpp_q_1_a1',
      metadata: { ...META, channel: 'mpp' as const },
    };
    expect((await processor.settleSharedPaymentToken({ ...input, spt: 'spt_test_success_a' })).status).toBe(
      'succeeded',
    );
    await expect(
      processor.settleSharedPaymentToken({ ...input, challengeId: 'ch_2', spt: 'spt_test_success_b' }),
    ).rejects.toMatchObject({ code: 'idempotency_error' });
    expect(store.all().filter((r) => r.intent.status === 'succeeded')).toHaveLength(1);
  });
});
