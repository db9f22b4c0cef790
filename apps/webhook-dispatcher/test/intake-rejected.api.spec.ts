import request from 'supertest';
import { type Harness } from './harness';
import { processorLedger, registerAsOurs, signEvent } from './processor-events';
import { countMoneyPath } from './fixtures';
import { intakeHarness } from './intake-client';

let h: Harness;
const { post, event, operatorQuote } = intakeHarness((made) => (h = made));

describe('POST /processor/events: what is rejected or ignored', () => {
  it('answers 400 to a bad signature and writes nothing (not even the event row)', async () => {
    const { premiumCents, metadata } = await operatorQuote();
    const evt = event({ amountCents: premiumCents, metadata });
    const before = await countMoneyPath(h.prisma);

    const wrongSecret = await post(evt, { secret: 'whsec_someone_else', ours: false });
    const signed = signEvent(evt, h.clock.nowSec());
    const tampered = await request(h.app)
      .post('/processor/events')
      .set('Stripe-Signature', signed.header)
      .set('Content-Type', 'application/json')
      .send(signed.body.replace(`"amount":${premiumCents}`, '"amount":1'));
    const missing = await request(h.app)
      .post('/processor/events')
      .set('Content-Type', 'application/json')
      .send(signed.body);
    const garbage = await request(h.app)
      .post('/processor/events')
      .set('Stripe-Signature', 'nonsense')
      .send(signed.body);

    expect(wrongSecret.status).toBe(400);
    expect(wrongSecret.body.details).toEqual([{ path: 'Stripe-Signature', message: 'signature_mismatch' }]);
    expect(tampered.status).toBe(400);
    expect(missing.status).toBe(400);
    expect(garbage.status).toBe(400);
    expect(await countMoneyPath(h.prisma)).toEqual(before);
  });

  it('answers 400 to a signature outside the 300 s tolerance', async () => {
    const { premiumCents, metadata } = await operatorQuote();
    const evt = event({ amountCents: premiumCents, metadata });
    const before = await countMoneyPath(h.prisma);

    const stale = await post(evt, { timestampSec: h.clock.nowSec() - 301, ours: false });
    const future = await post(evt, { timestampSec: h.clock.nowSec() + 301, ours: false });

    expect(stale.status).toBe(400);
    expect(stale.body.details[0].message).toBe('timestamp_out_of_tolerance');
    expect(future.status).toBe(400);
    expect(await countMoneyPath(h.prisma)).toEqual(before);
  });

  it('records and ignores events that are not payment outcomes', async () => {
    const before = await countMoneyPath(h.prisma);
    const other = {
      id: 'evt_other_1',
      object: 'event',
      type: 'customer.created',
      created: h.clock.nowSec(),
      livemode: false,
      data: { object: { id: 'cus_1' } },
    };

    const res = await post(other);

    expect(res.status).toBe(200);
    expect(res.body).toEqual({ received: true });
    expect(await countMoneyPath(h.prisma)).toEqual({ ...before, processorEvents: before.processorEvents + 1 });
  });

  it('records and ignores a payment event for an unknown quote (retrying would not help)', async () => {
    const before = await countMoneyPath(h.prisma);
    const res = await post(
      event({
        amountCents: 100,
        metadata: { quoteId: '7d1f2c3a-1111-4222-8333-944455556666', planId: 'x', channel: 'mpp' },
      }),
    );
    expect(res.status).toBe(200);
    expect(await countMoneyPath(h.prisma)).toEqual({ ...before, processorEvents: before.processorEvents + 1 });
  });

  it('refuses a signed event for a payment we never started: no payment, purchase or policy for a real quote', async () => {
    const { quote, premiumCents, metadata } = await operatorQuote();
    const before = await countMoneyPath(h.prisma);
    // Signed with the real secret (a leaked one, say), but the processor does not know the payment: refused unread.
    const res = await post(event({ amountCents: premiumCents, metadata }), { ours: false });
    expect(res.status).toBe(200);
    expect(await countMoneyPath(h.prisma)).toEqual(before);
    expect(await h.prisma.policy.count({ where: { quoteId: quote.id } })).toBe(0);
  });

  it('refuses a forged success for a payment we started but the processor never charged, or for another amount', async () => {
    const { quote, premiumCents, metadata } = await operatorQuote();
    const started = event({ amountCents: premiumCents, metadata });
    await registerAsOurs(h.prisma, started);
    processorLedger.set(started.data.object.id, {
      status: 'failed',
      amountCents: premiumCents,
      currency: 'usd',
      mode: 'test',
    });
    expect((await post(started, { ours: false })).status).toBe(200);
    processorLedger.set(started.data.object.id, {
      status: 'succeeded',
      amountCents: premiumCents,
      currency: 'usd',
      mode: 'test',
    });
    const cheaper = { ...started, id: `${started.id}_1`, data: { object: { ...started.data.object, amount: 1 } } };
    expect((await post(cheaper, { ours: false })).status).toBe(200);
    expect(await h.prisma.policy.count({ where: { quoteId: quote.id } })).toBe(0);
    expect(
      (await h.prisma.payment.findUniqueOrThrow({ where: { processorPaymentId: started.data.object.id } })).status,
    ).toBe('pending');

    // The real success is then recorded, and a later forged amount never rewrites it.
    expect((await post({ ...started, id: `${started.id}_2` }, { ours: false })).status).toBe(200);
    expect(await h.prisma.policy.count({ where: { quoteId: quote.id } })).toBe(1);
    processorLedger.set(started.data.object.id, { status: 'succeeded', amountCents: 1, currency: 'usd', mode: 'test' });
    expect((await post({ ...cheaper, id: `${started.id}_3` }, { ours: false })).status).toBe(200);
    expect(
      (await h.prisma.payment.findUniqueOrThrow({ where: { processorPaymentId: started.data.object.id } })).amountCents,
    ).toBe(premiumCents);
  });

  it('refuses an event whose mode differs from the payment we started (a live event for a test quote)', async () => {
    const { quote, premiumCents, metadata } = await operatorQuote();
    const started = event({ amountCents: premiumCents, metadata });
    await registerAsOurs(h.prisma, started);
    const live = {
      ...started,
      id: `${started.id}_live`,
      livemode: true,
      data: { object: { ...started.data.object, livemode: true } },
    };
    const res = await post(live, { ours: false });
    expect(res.status).toBe(200);
    expect(await h.prisma.policy.count({ where: { quoteId: quote.id } })).toBe(0);
    expect(
      (await h.prisma.payment.findUniqueOrThrow({ where: { processorPaymentId: started.data.object.id } })).status,
    ).toBe('pending');
  });

  it('serves /healthz and /readyz', async () => {
    expect((await request(h.app).get('/healthz')).status).toBe(200);
    const ready = await request(h.app).get('/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ready' });
  });
});
