import { hashToken } from '@expedition/platform';
import request from 'supertest';
import { formatAuthorizationPayment, parsePaymentChallenges, TEST_CARDS } from '@expedition/payments';
import { antarcticaQuote, createHarness, type Harness } from './harness';

/**
 * Paying a checkout link (issue §3): the simulated card form behind `checkoutUrl`. Paid, declined, expired, unknown
 * and already-paid links each get a clear page, and one link never charges twice.
 */

let h: Harness;
const calls = { create: 0, confirm: 0 };

beforeAll(async () => {
  h = await createHarness();
  // Count what reaches the processor: the checkout service calls it through this same object.
  const create = h.processor.createPayment.bind(h.processor);
  const confirm = h.processor.confirmPayment.bind(h.processor);
  h.processor.createPayment = async (input) => {
    calls.create += 1;
    return create(input);
  };
  h.processor.confirmPayment = async (input) => {
    calls.confirm += 1;
    return confirm(input);
  };
});
beforeEach(() => {
  calls.create = 0;
  calls.confirm = 0;
});
afterAll(() => h.close());

async function newQuote() {
  const res = await request(h.app).post('/api/v1/quotes').send(antarcticaQuote);
  expect(res.status).toBe(200);
  const plan = (res.body.plans as { planId: string; estimatedPremiumCents: number; availabilityMode: string }[]).find(
    (p) => p.availabilityMode === 'full',
  )!;
  return { quoteId: res.body.quoteId as string, sessionId: res.body.sessionId as string, plan };
}

async function openLink(q: Awaited<ReturnType<typeof newQuote>>): Promise<string> {
  const res = await request(h.app)
    .post('/api/v1/checkout')
    .send({ quoteId: q.quoteId, planId: q.plan.planId, sessionId: q.sessionId });
  expect(res.status).toBe(200);
  return new URL(res.body.checkoutUrl as string).pathname;
}

const payWith = (link: string, cardNumber: string) =>
  request(h.app).post(`${link}/pay`).type('form').send({ cardNumber, expiry: '12/30', cvc: '123' });

const tokenOf = (link: string) => link.split('/').pop()!;

async function state(quoteId: string, link: string) {
  const { prisma } = h.db;
  return {
    purchases: await prisma.purchase.count({ where: { quoteId } }),
    policies: await prisma.policy.count({ where: { quoteId } }),
    session: (await prisma.checkoutSession.findUniqueOrThrow({ where: { tokenHash: hashToken(tokenOf(link)) } }))
      .status,
  };
}

describe('POST /checkout/{token}/pay', () => {
  it('pays with 4242 4242 4242 4242: 303 back to the link, which now shows paid; purchase, policy and a paid session', async () => {
    const q = await newQuote();
    const link = await openLink(q);
    const res = await payWith(link, '4242 4242 4242 4242');

    expect(res.status).toBe(303);
    expect(res.headers['location']).toBe(link);
    const page = await request(h.app).get(link);
    expect(page.status).toBe(200);
    expect(page.text).toMatch(
      /Payment received — policy <span id="policy-number" class="nowrap">POL-\d{4}-[0-9A-Z]{6}<\/span>/,
    );
    expect(page.text).not.toContain('name="cardNumber"');

    expect(await state(q.quoteId, link)).toEqual({ purchases: 1, policies: 1, session: 'paid' });
    const purchase = await h.db.prisma.purchase.findUniqueOrThrow({ where: { quoteId: q.quoteId } });
    expect(purchase).toMatchObject({
      channel: 'checkout_link',
      planId: q.plan.planId,
      amountCents: q.plan.estimatedPremiumCents,
    });
    const payment = await h.db.prisma.payment.findUniqueOrThrow({
      where: { processorPaymentId: purchase.processorPaymentId },
    });
    expect(payment.checkoutSessionId).not.toBeNull();
    expect((await h.db.prisma.quote.findUniqueOrThrow({ where: { id: q.quoteId } })).status).toBe('purchased');
    expect(calls.confirm).toBe(1);
  });

  it('shows a 402 page with the decline message and keeps the link open; a good card then pays', async () => {
    const q = await newQuote();
    const link = await openLink(q);
    const declined = await payWith(link, '4000 0000 0000 0002');

    expect(declined.status).toBe(402);
    expect(declined.type).toBe('text/html');
    expect(declined.text).toContain('Your card was declined.');
    expect(declined.text).toContain('name="cardNumber"');
    expect(await state(q.quoteId, link)).toEqual({ purchases: 0, policies: 0, session: 'open' });
    expect((await request(h.app).get(link)).status).toBe(200);

    const paid = await payWith(link, TEST_CARDS.success);
    expect(paid.status).toBe(303);
    expect(await state(q.quoteId, link)).toEqual({ purchases: 1, policies: 1, session: 'paid' });
    // One intent per link: the retry confirmed the same PaymentIntent.
    expect(await h.db.prisma.payment.count({ where: { quoteId: q.quoteId } })).toBe(1);
  });

  it('says so when the card has insufficient funds, and when it is not a test card', async () => {
    const q = await newQuote();
    const link = await openLink(q);
    const insufficient = await payWith(link, '4000 0000 0000 9995');
    expect(insufficient.status).toBe(402);
    expect(insufficient.text).toContain('insufficient funds');

    const real = await payWith(link, '4111 1111 1111 1111');
    expect(real.status).toBe(402);
    expect(real.text).toContain('non test card');
    // The card number is not echoed back into the page.
    expect(real.text).not.toMatch(/4111 ?1111 ?1111 ?1111/);
    expect(await state(q.quoteId, link)).toEqual({ purchases: 0, policies: 0, session: 'open' });
  });

  it('cannot pay the same link twice: a second POST shows the paid page and charges nothing', async () => {
    const q = await newQuote();
    const link = await openLink(q);
    expect((await payWith(link, TEST_CARDS.success)).status).toBe(303);
    const chargesAfterFirst = { ...calls };

    const second = await payWith(link, TEST_CARDS.success);
    expect(second.status).toBe(303);
    const page = await request(h.app).get(second.headers['location'] as string);
    expect(page.text).toMatch(
      /Payment received — policy <span id="policy-number" class="nowrap">POL-\d{4}-[0-9A-Z]{6}<\/span>/,
    );

    expect(calls).toEqual(chargesAfterFirst);
    expect(await state(q.quoteId, link)).toEqual({ purchases: 1, policies: 1, session: 'paid' });
    expect(await h.db.prisma.payment.count({ where: { quoteId: q.quoteId } })).toBe(1);
  });

  it('explains a 3-D Secure card it cannot show, and the link then takes another card', async () => {
    const q = await newQuote();
    const link = await openLink(q);
    const action = await payWith(link, TEST_CARDS.requiresAction);
    expect(action.status).toBe(402);
    expect(action.text).toContain('3-D Secure');
    expect(await state(q.quoteId, link)).toEqual({ purchases: 0, policies: 0, session: 'open' });

    const good = await payWith(link, TEST_CARDS.success);
    expect(good.status).toBe(303);
    expect(await state(q.quoteId, link)).toEqual({ purchases: 1, policies: 1, session: 'paid' });
  });

  it('charges once when the same link is submitted twice at the same time', async () => {
    const q = await newQuote();
    const link = await openLink(q);
    const [a, b] = await Promise.all([payWith(link, TEST_CARDS.success), payWith(link, TEST_CARDS.success)]);

    // One of them may be told the payment is in progress; neither is an error page.
    for (const res of [a, b]) expect([303, 402]).toContain(res.status);
    expect(await state(q.quoteId, link)).toEqual({ purchases: 1, policies: 1, session: 'paid' });
    expect(await h.db.prisma.payment.count({ where: { quoteId: q.quoteId, status: 'succeeded' } })).toBe(1);
  });

  it('says plainly that a live quote cannot be paid on the simulated processor and nothing was charged (not "try again")', async () => {
    const q = await newQuote();
    // A live quote (a live agent key's) on a processor without live mode: the simulated one refuses live payments.
    await h.db.prisma.quote.update({ where: { id: q.quoteId }, data: { mode: 'live' } });
    const link = await openLink(q);

    const res = await payWith(link, TEST_CARDS.success);
    expect(res.status).toBe(402);
    expect(res.text).toContain(
      'This payment cannot be taken here: this checkout is not set up for real (live) payments. Nothing was charged.',
    );
    expect(res.text).not.toContain('unavailable');
    expect(await state(q.quoteId, link)).toEqual({ purchases: 0, policies: 0, session: 'open' });
    expect(await h.db.prisma.payment.count({ where: { quoteId: q.quoteId } })).toBe(0);
  });

  it('refuses an expired link (30 minutes) with a 410 page and no charge', async () => {
    const q = await newQuote();
    const link = await openLink(q);
    h.clock.advance(30 * 60 * 1000);

    const res = await payWith(link, TEST_CARDS.success);
    expect(res.status).toBe(410);
    expect(res.text).toContain('expired');
    expect(res.text).not.toContain('name="cardNumber"');
    expect(calls).toEqual({ create: 0, confirm: 0 });
    expect((await state(q.quoteId, link)).purchases).toBe(0);
    expect((await request(h.app).get(link)).status).toBe(410);
  });

  it('answers an unknown token with the 404 page and no charge', async () => {
    for (const token of ['cs_unknownunknownunknownunknown', 'nonsense']) {
      const res = await payWith(`/checkout/${token}`, TEST_CARDS.success);
      expect(res.status).toBe(404);
      expect(res.type).toBe('text/html');
      expect(res.text).toContain('not valid');
    }
    expect(calls).toEqual({ create: 0, confirm: 0 });
  });

  it('shows another link of an already purchased quote as paid, and it cannot charge', async () => {
    const q = await newQuote();
    const first = await openLink(q);
    const second = await openLink(q);
    expect((await payWith(first, TEST_CARDS.success)).status).toBe(303);
    const chargesAfterFirst = { ...calls };

    const view = await request(h.app).get(second);
    expect(view.status).toBe(200);
    expect(view.text).toContain('This trip is already insured');
    expect(view.text).toContain('Nothing was charged on this link.');
    expect(view.text).not.toContain('name="cardNumber"');

    const attempt = await payWith(second, TEST_CARDS.success);
    expect(attempt.status).toBe(303);
    expect((await request(h.app).get(attempt.headers['location'] as string)).text).toContain(
      'This trip is already insured',
    );
    expect(calls).toEqual(chargesAfterFirst);
    expect(await h.db.prisma.purchase.count({ where: { quoteId: q.quoteId } })).toBe(1);
    expect(await h.db.prisma.payment.count({ where: { quoteId: q.quoteId } })).toBe(1);
  });

  it('shows a link as paid when its quote was bought by machine payment (MPP)', async () => {
    const q = await newQuote();
    const link = await openLink(q);
    // Record a purchase the way the MPP path does, then look at the link.
    const challengeRes = await request(h.app)
      .post('/api/v1/purchase')
      .send({ quoteId: q.quoteId, planId: q.plan.planId });
    expect(challengeRes.status).toBe(402);
    const challenge = parsePaymentChallenges(challengeRes.headers['www-authenticate'] as string)[0]!;
    const paid = await request(h.app)
      .post('/api/v1/purchase')
      .set('Authorization', formatAuthorizationPayment({ challenge, payload: { spt: 'spt_test_success_checkout_1' } }))
      .send({ quoteId: q.quoteId, planId: q.plan.planId });
    expect(paid.status).toBe(200);

    const view = await request(h.app).get(link);
    expect(view.text).toContain('This trip is already insured');
    expect((await payWith(link, TEST_CARDS.success)).status).toBe(303);
    expect(calls).toEqual({ create: 0, confirm: 0 });
  });
});
