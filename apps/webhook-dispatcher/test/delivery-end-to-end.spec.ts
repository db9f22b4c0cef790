import { createSimulatedProcessor, TEST_CARDS } from '@expedition/payments';
import { listen, type RunningServer } from '@expedition/http-kit';
import { PolicyIssuedPayloadSchema } from '@expedition/contracts';
import { createApp } from '../src/app';
import { appDeps, testWorker, waitFor, type Harness } from './harness';
import { refundRecordingProcessor } from './processor-events';
import { createOperator, createQuote } from './fixtures';
import { type Receiver } from './receiver';
import { deliveryHarness, verifyAt } from './delivery-fixtures';

let h: Harness;
let receiver: Receiver;
deliveryHarness((made) => ({ h, receiver } = made));
describe('end to end with the simulated processor', () => {
  let server: RunningServer;
  afterAll(() => server?.close());

  it('card payment → signed processor event → policy → policy.issued received and verified', async () => {
    // The intake asks the processor that took the payment whether it succeeded: this test's simulated processor.
    const verifier = refundRecordingProcessor(h.clock);
    verifier.retrievePayment = (input) => processor.retrievePayment(input);
    server = await listen(createApp(appDeps(h.db, h.clock, { processor: verifier })), { port: 0, host: '127.0.0.1' });
    const processor = createSimulatedProcessor({
      webhookUrl: `${server.url}/processor/events`,
      webhookSecret: 'whsec_test_dispatcher_intake',
      clock: h.clock,
    });
    receiver.setReply(() => 200);
    receiver.requests.length = 0;
    const operator = await createOperator(h.prisma, { webhookUrl: receiver.url, commissionRateBps: 1_000 });
    const { quote, planId, premiumCents } = await createQuote(h.prisma, h.clock, operator.id);

    const declined = await processor.createPayment({
      amountCents: premiumCents,
      currency: 'USD',
      mode: 'test',
      idempotencyKey: `pay_${quote.id}`,
      metadata: { quoteId: quote.id, planId, operatorId: operator.id, channel: 'embed' },
    });
    // What the app that starts a payment does: record it as ours, so the intake trusts the processor's events.
    await h.prisma.payment.create({
      data: {
        quoteId: quote.id,
        planId,
        operatorId: operator.id,
        mode: 'test',
        channel: 'embed',
        processor: 'simulated',
        processorPaymentId: declined.paymentId,
        amountCents: premiumCents,
        currency: 'USD',
      },
    });
    await processor.confirmPayment({ paymentId: declined.paymentId, mode: 'test', paymentMethod: TEST_CARDS.decline });
    expect(
      (await h.prisma.payment.findUniqueOrThrow({ where: { processorPaymentId: declined.paymentId } })).status,
    ).toBe('failed');
    expect(await h.prisma.policy.count({ where: { quoteId: quote.id } })).toBe(0);

    await processor.confirmPayment({ paymentId: declined.paymentId, mode: 'test', paymentMethod: TEST_CARDS.success });
    expect((await processor.idle()).every((r) => r.delivered)).toBe(true);

    const worker = testWorker(h.prisma, h.clock);
    worker.start();
    await receiver.arrived(1);
    await worker.stop();

    const req = receiver.requests[0]!;
    expect(verifyAt(req, h.clock.nowSec()).ok).toBe(true);
    const body = PolicyIssuedPayloadSchema.parse(JSON.parse(req.body.toString('utf8')));
    expect(body).toMatchObject({
      quoteId: quote.id,
      operatorId: operator.id,
      premiumCents,
      commissionCents: Math.floor(premiumCents / 10),
    });
    await waitFor(
      async () =>
        (await h.prisma.webhookEvent.findUnique({ where: { eventId: body.eventId } }))?.status === 'delivered',
    );
  });
});
