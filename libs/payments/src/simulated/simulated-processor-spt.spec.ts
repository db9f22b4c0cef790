import { createInMemorySimulatedPaymentStore } from './simulated-store';
import { META, setup } from './simulated-test-harness';

describe('simulated processor: Shared Payment Tokens', () => {
  const settle = (p: ReturnType<typeof setup>['processor'], spt: string, challengeId = 'ch_1') =>
    p.settleSharedPaymentToken({
      amountCents: 5000,
      currency: 'usd',
      mode: 'test',
      spt,
      challengeId,
      idempotencyKey: `mpp_${challengeId}_${spt}`,
      metadata: { ...META, channel: 'mpp' },
    });

  it('settles spt_test_success… and reports it with the challenge id in metadata', async () => {
    const { processor, events } = setup();
    const result = await settle(processor, 'spt_test_success_1');
    expect(result).toEqual({ paymentId: expect.stringMatching(/^pi_sim_/), status: 'succeeded', replayed: false });
    expect(events()[0].data.object).toMatchObject({
      id: result.paymentId,
      amount: 5000,
      metadata: { challenge_id: 'ch_1', channel: 'mpp' },
    });
  });

  it('replays the same challenge + SPT without a second charge or event', async () => {
    const { processor, events } = setup();
    const first = await settle(processor, 'spt_test_abc');
    const again = await settle(processor, 'spt_test_abc');
    expect(again).toEqual({ paymentId: first.paymentId, status: 'succeeded', replayed: true });
    expect(events()).toHaveLength(1);
  });

  it('lets exactly one of two concurrent identical settlements charge', async () => {
    const { processor, events } = setup();
    const results = await Promise.all([settle(processor, 'spt_test_par'), settle(processor, 'spt_test_par')]);
    expect(results.filter((r) => !r.replayed)).toHaveLength(1);
    expect(new Set(results.map((r) => r.paymentId)).size).toBe(1);
    expect(events()).toHaveLength(1);
  });

  it('refuses an SPT already spent under another challenge', async () => {
    const { processor, events } = setup();
    await settle(processor, 'spt_test_once', 'ch_1');
    const second = await settle(processor, 'spt_test_once', 'ch_2');
    expect(second).toMatchObject({
      status: 'failed',
      replayed: false,
      failureCode: 'shared_payment_granted_token_used',
    });
    expect(events()).toHaveLength(1);
  });

  it.each([
    ['spt_test_decline_1', 'card_declined', 'generic_decline'],
    ['spt_test_insufficient_1', 'card_declined', 'insufficient_funds'],
  ])('declines %s', async (spt, code, declineCode) => {
    const { processor, events } = setup();
    const result = await settle(processor, spt);
    expect(result).toMatchObject({ status: 'failed', replayed: false, failureCode: code, declineCode });
    expect(result.paymentId).toMatch(/^pi_sim_/);
    expect(events()[0].type).toBe('payment_intent.payment_failed');
  });

  it('returns requires_action for spt_test_requires_action…', async () => {
    const { processor, events } = setup();
    expect((await settle(processor, 'spt_test_requires_action_1')).status).toBe('requires_action');
    expect(events()).toHaveLength(0);
  });

  it('rejects a token that is not a test SPT without creating a payment', async () => {
    const { processor, events } = setup();
    expect(await settle(processor, 'spt_live_real')).toMatchObject({
      paymentId: null,
      status: 'failed',
      failureCode: 'shared_payment_granted_token_invalid',
    });
    expect(events()).toHaveLength(0);
  });

  it('finishes a settlement its caller abandoned mid-way (the process died), once, when the payment is next read', async () => {
    const store = createInMemorySimulatedPaymentStore();
    const claim = store.claimToken.bind(store);
    let dies = true;
    store.claimToken = async (token, owner) => {
      if (dies) throw new Error('the calling process died');
      return claim(token, owner);
    };
    const { processor, events, advance } = setup({ store });
    await expect(settle(processor, 'spt_test_success_abandoned')).rejects.toThrow('died');
    dies = false;
    const [left] = store.all();
    expect(left!.intent.status).toBe('processing');
    // While a settlement may still be running elsewhere it is left alone; then it is finished as it would have been.
    expect((await processor.retrievePayment({ paymentId: left!.intent.id, mode: 'test' })).status).toBe('processing');
    advance(11_000);
    expect((await processor.findPayments({ quoteId: META.quoteId, mode: 'test' }))[0]).toMatchObject({
      paymentId: left!.intent.id,
      status: 'succeeded',
    });
    const replay = await settle(processor, 'spt_test_success_abandoned');
    expect(replay).toEqual({ paymentId: left!.intent.id, status: 'succeeded', replayed: true });
    expect(events().filter((e) => e.data.object.id === left!.intent.id)).toHaveLength(1);
    // Its token is spent by it: another payment cannot use it.
    expect((await settle(processor, 'spt_test_success_abandoned', 'ch_2')).failureCode).toBe(
      'shared_payment_granted_token_used',
    );
  });
});
