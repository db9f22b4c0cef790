import { type Harness } from './harness';
import { processorLedger, registerAsOurs } from './processor-events';
import { countMoneyPath } from './fixtures';
import { intakeHarness } from './intake-client';

let h: Harness;
const { post, event, operatorQuote } = intakeHarness((made) => (h = made));

describe('POST /processor/events: payment failed', () => {
  it('records the failure on the payment and issues nothing', async () => {
    const { quote, premiumCents, metadata } = await operatorQuote();
    const before = await countMoneyPath(h.prisma);
    const evt = event({
      type: 'payment_intent.payment_failed',
      amountCents: premiumCents,
      metadata,
      lastPaymentError: {
        type: 'card_error',
        code: 'card_declined',
        decline_code: 'insufficient_funds',
        message: 'Your card has insufficient funds.',
      },
    });

    const res = await post(evt);

    expect(res.status).toBe(200);
    const payment = await h.prisma.payment.findUniqueOrThrow({ where: { processorPaymentId: evt.data.object.id } });
    expect(payment).toMatchObject({ status: 'failed', failureCode: 'card_declined', quoteId: quote.id });
    expect(payment.failureMessage).toContain('insufficient_funds');
    const after = await countMoneyPath(h.prisma);
    expect(after).toEqual({ ...before, processorEvents: before.processorEvents + 1, payments: before.payments + 1 });
    expect((await h.prisma.quote.findUniqueOrThrow({ where: { id: quote.id } })).status).toBe('quoted');
  });

  it('issues the policy when the same intent later succeeds with another card', async () => {
    const { quote, premiumCents, metadata } = await operatorQuote();
    const failed = event({ type: 'payment_intent.payment_failed', amountCents: premiumCents, metadata });
    await post(failed);
    await post(event({ amountCents: premiumCents, metadata, paymentId: failed.data.object.id }));

    const payment = await h.prisma.payment.findUniqueOrThrow({ where: { processorPaymentId: failed.data.object.id } });
    expect(payment).toMatchObject({ status: 'succeeded', failureCode: null, failureMessage: null });
    expect(await h.prisma.policy.count({ where: { quoteId: quote.id } })).toBe(1);
  });

  it('records nothing for a forged failure the processor does not confirm, and stores the processor’s text, never the event’s', async () => {
    const { quote, premiumCents, metadata } = await operatorQuote();
    const forgery = {
      type: 'card_error',
      code: 'card_declined',
      message: 'Your account is locked: unlock at https://evil.example/unlock',
    };
    // A payment we started, still awaiting its card: a failure signed with the real secret (a leaked one) is refused.
    const started = event({ amountCents: premiumCents, metadata });
    await registerAsOurs(h.prisma, started);
    processorLedger.set(started.data.object.id, {
      status: 'pending',
      amountCents: premiumCents,
      currency: 'usd',
      mode: 'test',
    });
    const before = await countMoneyPath(h.prisma);
    const forged = event({
      type: 'payment_intent.payment_failed',
      amountCents: premiumCents,
      metadata,
      paymentId: started.data.object.id,
      lastPaymentError: forgery,
    });

    expect((await post(forged, { ours: false })).status).toBe(200);
    expect(await countMoneyPath(h.prisma)).toEqual(before);
    expect(
      await h.prisma.payment.findUniqueOrThrow({ where: { processorPaymentId: started.data.object.id } }),
    ).toMatchObject({
      status: 'pending',
      failureCode: null,
      failureMessage: null,
    });

    // The processor does report a failure: what is stored is its own word, not the forger's.
    processorLedger.set(started.data.object.id, {
      status: 'failed',
      amountCents: premiumCents,
      currency: 'usd',
      mode: 'test',
      failure: {
        failureCode: 'card_declined',
        declineCode: 'insufficient_funds',
        failureMessage: 'Your card has insufficient funds.',
      },
    });
    expect((await post({ ...forged, id: `${forged.id}_again` }, { ours: false })).status).toBe(200);
    const payment = await h.prisma.payment.findUniqueOrThrow({ where: { processorPaymentId: started.data.object.id } });
    expect(payment).toMatchObject({
      status: 'failed',
      failureCode: 'card_declined',
      failureMessage: 'decline_code=insufficient_funds: Your card has insufficient funds.',
    });
    expect(payment.failureMessage).not.toContain('evil.example');
    expect((await h.prisma.quote.findUniqueOrThrow({ where: { id: quote.id } })).status).toBe('quoted');
  });

  it('never lets a late failure event undo a recorded success', async () => {
    const { premiumCents, metadata } = await operatorQuote();
    const ok = event({ amountCents: premiumCents, metadata });
    await post(ok);
    await post(
      event({
        type: 'payment_intent.payment_failed',
        amountCents: premiumCents,
        metadata,
        paymentId: ok.data.object.id,
      }),
    );

    const payment = await h.prisma.payment.findUniqueOrThrow({ where: { processorPaymentId: ok.data.object.id } });
    expect(payment.status).toBe('succeeded');
  });
});
