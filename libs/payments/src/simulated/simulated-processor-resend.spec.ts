import type { FetchLike } from './event-delivery';
import { createInMemorySimulatedPaymentStore } from './simulated-store';
import { create, setup } from './simulated-test-harness';

/** An event the intake never acknowledged is kept and re-sent with backoff, as Stripe does for three days. */
describe('simulated processor: undelivered events are re-sent', () => {
  function intake(down: () => boolean) {
    const received: string[] = [];
    const fetch: FetchLike = async (_url, init) => {
      if (down()) throw new Error('ECONNREFUSED');
      received.push((JSON.parse(init.body) as { id: string }).id);
      return { status: 200 };
    };
    return { fetch, received };
  }

  it('keeps an event the intake missed and re-sends it when due, once, with a growing delay', async () => {
    let down = true;
    const { fetch, received } = intake(() => down);
    const store = createInMemorySimulatedPaymentStore();
    const { processor, advance } = setup({ fetch, store, delivery: { sleep: async () => undefined } });
    const { paymentId } = await create(processor);
    await processor.confirmPayment({ paymentId, mode: 'test', paymentMethod: '4242424242424242' });
    expect(received).toEqual([]);

    // Not due yet; then due, but the intake is still down: tried once, due again twice as late.
    expect(await processor.resendDueEvents()).toBe(0);
    advance(60_000);
    expect(await processor.resendDueEvents()).toBe(1);
    advance(60_000);
    expect(await processor.resendDueEvents()).toBe(0);
    down = false;
    advance(60_000);
    expect(await processor.resendDueEvents()).toBe(1);
    expect(received).toHaveLength(1);
    // Delivered: never sent again.
    advance(24 * 60 * 60_000);
    expect(await processor.resendDueEvents()).toBe(0);
    expect(received).toHaveLength(1);
  });

  it('an event delivered at once is never re-sent; with re-sending off nothing is kept', async () => {
    const on = intake(() => false);
    const { processor: delivering, advance } = setup({ fetch: on.fetch, delivery: { sleep: async () => undefined } });
    const { paymentId } = await create(delivering);
    await delivering.confirmPayment({ paymentId, mode: 'test', paymentMethod: '4242424242424242' });
    advance(10 * 60_000);
    expect(await delivering.resendDueEvents()).toBe(0);
    expect(on.received).toHaveLength(1);

    const off = intake(() => true);
    const { processor: quiet, advance: later } = setup({
      fetch: off.fetch,
      delivery: { sleep: async () => undefined, resend: { enabled: false } },
    });
    const second = await create(quiet, 'idem_2');
    await quiet.confirmPayment({ paymentId: second.paymentId, mode: 'test', paymentMethod: '4242424242424242' });
    later(10 * 60_000);
    expect(await quiet.resendDueEvents()).toBe(0);
  });

  it('gives up after three days', async () => {
    const { fetch, received } = intake(() => true);
    const { processor, advance } = setup({ fetch, delivery: { sleep: async () => undefined } });
    const { paymentId } = await create(processor);
    await processor.confirmPayment({ paymentId, mode: 'test', paymentMethod: '4242424242424242' });
    let tries = 0;
    for (let minute = 0; minute < 4 * 24 * 60; minute += 10) {
      advance(10 * 60_000);
      tries += await processor.resendDueEvents();
    }
    expect(received).toEqual([]);
    // 1, 2, 4, 8, 16, 32 minutes, then hourly to the third day.
    expect(tries).toBeGreaterThan(60);
    expect(tries).toBeLessThan(80);
  });
});
