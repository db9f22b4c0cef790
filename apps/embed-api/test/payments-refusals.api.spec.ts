import {
  EMBED_INVALID_FIELDS_ERROR,
  EMBED_PAYMENT_OPTIONS_NOT_READY,
  EMBED_PAYMENT_PLAN_NOT_OFFERED,
  EMBED_PAYMENT_PLAN_NOT_PURCHASABLE,
  EMBED_PAYMENT_QUOTE_EXPIRED,
} from '@expedition/contracts';
import { TEST_CARDS } from '@expedition/payments';
import { expectCors, expectNoCors, fullQuote, OTHER_SITE_ORIGIN, SITE_ORIGIN } from './harness';
import {
  usePaymentsApp,
  h,
  sim,
  mine,
  theirs,
  post,
  start,
  confirm,
  authenticate,
  readyQuote,
} from './payments-harness';

usePaymentsApp();

describe('what can be paid', () => {
  it("another operator's quote, an unknown id and a malformed id are the identical bare 403 without CORS", async () => {
    const foreign = await readyQuote(theirs.testKey, OTHER_SITE_ORIGIN);
    const bodies = [
      { quoteId: foreign.quoteId, planId: foreign.option.planId },
      { quoteId: '7d1f2c3a-1111-4222-8333-944455556666', planId: foreign.option.planId },
      { quoteId: 'not-a-uuid', planId: foreign.option.planId },
      { quoteId: foreign.quoteId.toUpperCase(), planId: foreign.option.planId },
    ];
    const responses = await Promise.all(bodies.map((body) => start(body)));
    for (const res of responses) {
      expect(res.status).toBe(403);
      expect(res.text).toBe('Forbidden');
      expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
      expectNoCors(res);
    }
    expect(await h.prisma.payment.count({ where: { quoteId: foreign.quoteId } })).toBe(0);
  });

  it('options not ready → 400 with CORS and no payment', async () => {
    const created = await post('/api/embed/quote', fullQuote, mine.testKey, SITE_ORIGIN);
    const quoteId: string = created.body.quoteId;
    const res = await start({ quoteId, planId: 'anything' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: EMBED_PAYMENT_OPTIONS_NOT_READY });
    expectCors(res, SITE_ORIGIN);
    expect(await h.prisma.payment.count({ where: { quoteId } })).toBe(0);
  });

  it('a plan that is not among the options → 400', async () => {
    const { quoteId, ready } = await readyQuote();
    const offered = new Set(ready.options.map((o) => o.planId));
    const missing = (await h.prisma.plan.findMany({ select: { id: true } }))
      .map((p) => p.id)
      .find((id) => !offered.has(id));
    for (const planId of ['no-such-plan', ...(missing ? [missing] : [])]) {
      const res = await start({ quoteId, planId });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: EMBED_PAYMENT_PLAN_NOT_OFFERED });
      expectCors(res, SITE_ORIGIN);
    }
  });

  it('a plan that is not purchasable (checkout.purchasable false, e.g. inquiry) → 400 and nothing charged', async () => {
    const { quoteId, ready } = await readyQuote();
    const inquiry = ready.options.find((o) => !o.checkout.purchasable);
    expect(inquiry).toBeDefined();
    const res = await start({ quoteId, planId: inquiry!.planId });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: EMBED_PAYMENT_PLAN_NOT_PURCHASABLE });
    expectCors(res, SITE_ORIGIN);
    expect(await h.prisma.payment.count({ where: { quoteId } })).toBe(0);
  });

  it('an expired quote → 400', async () => {
    const { quoteId, option } = await readyQuote();
    await h.prisma.quote.update({ where: { id: quoteId }, data: { expiresAt: new Date(h.clock.now().getTime() - 1) } });
    const res = await start({ quoteId, planId: option.planId });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: EMBED_PAYMENT_QUOTE_EXPIRED });
  });

  it.each([undefined, {}, { quoteId: 'x' }, { quoteId: 1, planId: 'p' }, { quoteId: '', planId: 'p' }, 'not json'])(
    'a missing or invalid body (%j) → 400 Missing or invalid required fields, with CORS',
    async (body) => {
      const res = await start(body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: EMBED_INVALID_FIELDS_ERROR });
      expectCors(res, SITE_ORIGIN);
      const conf = await confirm(body);
      expect(conf.status).toBe(400);
      expect(conf.body).toEqual({ error: EMBED_INVALID_FIELDS_ERROR });
    },
  );
});

describe('confirm: ownership', () => {
  it("another operator's payment, an unknown id and a malformed id are the identical bare 403; nothing is confirmed", async () => {
    const { quoteId, option } = await readyQuote();
    const { paymentId } = (await start({ quoteId, planId: option.planId })).body;
    const responses = [
      await confirm({ paymentId, paymentMethod: TEST_CARDS.success }, theirs.testKey, OTHER_SITE_ORIGIN),
      await confirm({ paymentId: 'pi_sim_doesnotexist', paymentMethod: TEST_CARDS.success }),
      await confirm({ paymentId: "pi_' OR 1=1", paymentMethod: TEST_CARDS.success }),
      await authenticate({ paymentId, approve: true }, theirs.testKey, OTHER_SITE_ORIGIN),
    ];
    for (const res of responses) {
      expect(res.status).toBe(403);
      expect(res.text).toBe('Forbidden');
      expectNoCors(res);
    }
    expect(sim.events).toHaveLength(0);
    expect((await confirm({ paymentId, paymentMethod: TEST_CARDS.success })).body.status).toBe('succeeded');
  });

  it('a payment of another channel (not started here) is not confirmable through the embed route', async () => {
    const { quoteId, option } = await readyQuote();
    const other = await sim.processor.createPayment({
      amountCents: option.premiumCents,
      currency: 'usd',
      mode: 'test',
      idempotencyKey: `checkout_${quoteId}`,
      metadata: { quoteId, planId: option.planId, operatorId: mine.operatorId, channel: 'checkout_link' },
    });
    await h.prisma.payment.create({
      data: {
        quoteId,
        planId: option.planId,
        operatorId: mine.operatorId,
        mode: 'test',
        channel: 'checkout_link',
        processor: 'simulated',
        processorPaymentId: other.paymentId,
        amountCents: option.premiumCents,
      },
    });
    const res = await confirm({ paymentId: other.paymentId, paymentMethod: TEST_CARDS.success });
    expect(res.status).toBe(403);
    expectNoCors(res);
  });
});
