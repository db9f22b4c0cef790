import request from 'supertest';
import { EMBED_PAYMENT_MODE_MISMATCH } from '@expedition/contracts';
import { TEST_CARDS } from '@expedition/payments';
import { expectCors, expectNoCors, OTHER_SITE_ORIGIN, SITE_ORIGIN } from './harness';
import {
  usePaymentsApp,
  h,
  sim,
  mine,
  post,
  start,
  confirm,
  readyQuote,
  intake,
  receivedEvent,
} from './payments-harness';

usePaymentsApp();

describe('modes: the key selects the processor mode', () => {
  it('a test card never pays a live quote: declined live_mode_test_card, nothing bought', async () => {
    const { quoteId, option } = await readyQuote(mine.liveKey);
    const started = await start({ quoteId, planId: option.planId }, mine.liveKey);
    const declined = await confirm(
      { paymentId: started.body.paymentId, paymentMethod: TEST_CARDS.success },
      mine.liveKey,
    );
    expect(declined.body).toMatchObject({
      status: 'failed',
      failureCode: 'card_declined',
      declineCode: 'live_mode_test_card',
    });
    expect(await h.prisma.purchase.findUnique({ where: { quoteId } })).toBeNull();
    expect(await h.prisma.policy.findUnique({ where: { quoteId } })).toBeNull();
  });

  it('a live key pays a live quote in live mode (simulated live money), and the policy is live', async () => {
    const { quoteId, option } = await readyQuote(mine.liveKey);
    const started = await start({ quoteId, planId: option.planId }, mine.liveKey);
    expect(started.status).toBe(200);
    expect(started.body).toMatchObject({ mode: 'live', provider: 'simulated' });
    expect(await h.prisma.payment.findUnique({ where: { processorPaymentId: started.body.paymentId } })).toMatchObject({
      mode: 'live',
    });

    // The intent lives in live mode only: the processor cannot find it under test mode.
    await expect(
      sim.processor.confirmPayment({
        paymentId: started.body.paymentId,
        mode: 'test',
        paymentMethod: TEST_CARDS.success,
      }),
    ).rejects.toMatchObject({ code: 'payment_not_found' });

    const confirmed = await confirm({ paymentId: started.body.paymentId, paymentMethod: 'pm_live_visa' }, mine.liveKey);
    expect(confirmed.body.status).toBe('succeeded');
    const raw = JSON.parse(sim.events[0]!.body);
    expect(raw.livemode).toBe(true);
    expect(raw.data.object.livemode).toBe(true);
    const event = receivedEvent();
    expect(event.mode).toBe('live');
    expect((await intake().handle(event)).kind).toBe('already_recorded');
    expect(await h.prisma.purchase.findUnique({ where: { quoteId } })).toMatchObject({
      mode: 'live',
      channel: 'embed',
    });
  });

  it('a key of the other mode may not pay (400): a test payment must not use up a live quote, nor the reverse', async () => {
    const live = await readyQuote(mine.liveKey);
    const test = await readyQuote(mine.testKey);
    for (const [key, q] of [
      [mine.testKey, live],
      [mine.liveKey, test],
    ] as const) {
      const res = await start({ quoteId: q.quoteId, planId: q.option.planId }, key);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: EMBED_PAYMENT_MODE_MISMATCH });
      expectCors(res, SITE_ORIGIN);
    }
    const { paymentId } = (await start({ quoteId: test.quoteId, planId: test.option.planId }, mine.testKey)).body;
    const res = await confirm({ paymentId, paymentMethod: TEST_CARDS.success }, mine.liveKey);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: EMBED_PAYMENT_MODE_MISMATCH });
    expect(sim.events).toHaveLength(0);
  });
});

describe('the gate runs first on every payment route', () => {
  const paths = ['/api/embed/payments', '/api/embed/payments/confirm', '/api/embed/payments/authenticate'];

  it.each(paths)('%s: no key → 401, unknown key → 401, wrong origin → 403, all bare without CORS', async (path) => {
    const noKey = await request(h.app).post(path).set('Origin', SITE_ORIGIN).send({});
    expect(noKey.status).toBe(401);
    expect(noKey.text).toBe('Unauthorized');
    expectNoCors(noKey);

    const unknown = await post(path, {}, `pk_op_test_${'0'.repeat(48)}`, SITE_ORIGIN);
    expect(unknown.status).toBe(401);
    expectNoCors(unknown);

    const wrongOrigin = await post(path, {}, mine.testKey, OTHER_SITE_ORIGIN);
    expect(wrongOrigin.status).toBe(403);
    expect(wrongOrigin.text).toBe('Forbidden');
    expectNoCors(wrongOrigin);

    const noOrigin = await request(h.app).post(path).set('X-SVC-Publishable-Key', mine.testKey).send({});
    expect(noOrigin.status).toBe(403);
    expectNoCors(noOrigin);
  });

  it.each(paths)('%s: the key is never read from ?pk', async (path) => {
    const res = await request(h.app).post(`${path}?pk=${mine.testKey}`).set('Origin', SITE_ORIGIN).send({});
    expect(res.status).toBe(401);
  });

  it.each(paths)('%s: OPTIONS is the preflight (204, reflected origin, max-age, no key)', async (path) => {
    const res = await request(h.app)
      .options(path)
      .set('Origin', SITE_ORIGIN)
      .set('Access-Control-Request-Method', 'POST')
      .set('Access-Control-Request-Headers', 'content-type,x-svc-publishable-key');
    expect(res.status).toBe(204);
    expectCors(res, SITE_ORIGIN);
    expect(res.headers['access-control-max-age']).toBe('86400');
  });

  it('lists the payment routes on /', async () => {
    const res = await request(h.app).get('/');
    expect(res.body.routes).toEqual([
      'POST /api/embed/quote',
      'GET /api/embed/options',
      'POST /api/embed/checkout',
      'POST /api/embed/payments',
      'POST /api/embed/payments/confirm',
      'POST /api/embed/payments/authenticate',
    ]);
  });
});
