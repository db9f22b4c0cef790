import {
  EMBED_PAYMENT_ALREADY_PURCHASED,
  EmbedPaymentConfirmResultSchema,
  EmbedPaymentStartResultSchema,
} from '@expedition/contracts';
import { scanTextColumns } from '@expedition/db/testing';
import { TEST_CARDS } from '@expedition/payments';
import { expectCors, QUOTE_API_URL, SITE_ORIGIN, WIDGET_ORIGIN } from './harness';
import {
  usePaymentsApp,
  h,
  sim,
  mine,
  DEV_TOKENS,
  start,
  confirm,
  readyQuote,
  intake,
  receivedEvent,
} from './payments-harness';

usePaymentsApp();

describe('POST /api/embed/payments → confirm → signed event → intake: the happy path', () => {
  it('charges exactly the option, posts a signed payment_intent.succeeded, and the intake issues the policy', async () => {
    const { quoteId, option } = await readyQuote();
    const started = await start({ quoteId, planId: option.planId });
    expect(started.status).toBe(200);
    expectCors(started, SITE_ORIGIN);
    expect(started.headers['cache-control']).toBe('no-store');
    expect(EmbedPaymentStartResultSchema.strict().parse(started.body)).toEqual({
      paymentId: expect.stringMatching(/^pi_sim_/),
      clientSecret: expect.stringMatching(/^pi_sim_.+_secret_/),
      amountCents: option.checkout.amountCents,
      currency: 'USD',
      provider: 'simulated',
      mode: 'test',
    });
    expect(started.body.amountCents).toBe(option.premiumCents);
    const paymentId: string = started.body.paymentId;

    // Visible before any event: a pending embed payment of this operator.
    expect(await h.prisma.payment.findUnique({ where: { processorPaymentId: paymentId } })).toMatchObject({
      quoteId,
      planId: option.planId,
      operatorId: mine.operatorId,
      mode: 'test',
      channel: 'embed',
      processor: 'simulated',
      status: 'pending',
      amountCents: option.premiumCents,
      currency: 'USD',
    });
    expect(sim.events).toHaveLength(0);

    const confirmed = await confirm({ paymentId, paymentMethod: '4242 4242 4242 4242' });
    expect(confirmed.status).toBe(200);
    expectCors(confirmed, SITE_ORIGIN);
    const issued = await h.prisma.policy.findUniqueOrThrow({ where: { quoteId } });
    expect(EmbedPaymentConfirmResultSchema.strict().parse(confirmed.body)).toEqual({
      paymentId,
      status: 'succeeded',
      quoteId,
      planId: option.planId,
      amountCents: option.premiumCents,
      currency: 'USD',
      // The paying call is the buyer's: the policy, its token and the certificate link (quote-api serves it).
      policyNumber: issued.policyNumber,
      accessToken: DEV_TOKENS.tokenFor(issued),
      documentUrl: `${QUOTE_API_URL}/api/v1/policies/${issued.policyNumber}/certificate.pdf?access_token=${encodeURIComponent(DEV_TOKENS.tokenFor(issued))}`,
    });

    expect(sim.events).toHaveLength(1);
    expect(sim.events[0]!.headers['stripe-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    const raw = JSON.parse(sim.events[0]!.body);
    expect(raw).toMatchObject({
      type: 'payment_intent.succeeded',
      livemode: false,
      data: {
        object: { id: paymentId, amount: option.premiumCents, currency: 'usd', status: 'succeeded', livemode: false },
      },
    });
    expect(raw.data.object.metadata).toEqual({
      quoteId,
      planId: option.planId,
      operatorId: mine.operatorId,
      channel: 'embed',
    });
    expect(sim.events[0]!.body).not.toContain('_secret_');

    const event = receivedEvent();
    expect(event).toMatchObject({
      type: 'payment.succeeded',
      mode: 'test',
      paymentId,
      amountCents: option.premiumCents,
    });
    // The confirm route recorded the policy as the processor answered; the processor's own event changes nothing.
    const outcome = await intake().handle(event);
    expect(outcome.kind).toBe('already_recorded');

    const purchase = await h.prisma.purchase.findUnique({ where: { quoteId } });
    expect(purchase).toMatchObject({
      planId: option.planId,
      processorPaymentId: paymentId,
      amountCents: option.premiumCents,
      currency: 'USD',
      channel: 'embed',
      mode: 'test',
      operatorId: mine.operatorId,
    });
    const policy = await h.prisma.policy.findUnique({ where: { quoteId } });
    expect(policy).toMatchObject({
      purchaseId: purchase!.id,
      planId: option.planId,
      premiumCents: option.premiumCents,
      mode: 'test',
    });
    expect(await h.prisma.commission.count({ where: { policyId: policy!.id } })).toBe(1);
    // The intake updated the row the start route wrote: one payment, now succeeded.
    const payments = await h.prisma.payment.findMany({ where: { quoteId } });
    expect(payments).toHaveLength(1);
    expect(payments[0]).toMatchObject({ processorPaymentId: paymentId, status: 'succeeded', channel: 'embed' });
    expect(purchase!.paymentId).toBe(payments[0]!.id);

    // Already purchased: starting again (any plan) or confirming again is a 409 with CORS; nothing is charged.
    for (const res of [
      await start({ quoteId, planId: option.planId }),
      await confirm({ paymentId, paymentMethod: TEST_CARDS.success }),
    ]) {
      expect(res.status).toBe(409);
      // Nothing of the policy to a later caller: no token, no certificate link.
      expect(res.body).toEqual({ error: EMBED_PAYMENT_ALREADY_PURCHASED });
      expectCors(res, SITE_ORIGIN);
    }
    expect(sim.events).toHaveLength(1);
  });

  it("stores no bearer token in clear: the answer's token and link are derived, and no text or JSON column holds them (issue 20 item 10)", async () => {
    const { quoteId, option } = await readyQuote();
    const started = await start({ quoteId, planId: option.planId });
    const confirmed = await confirm({ paymentId: started.body.paymentId, paymentMethod: TEST_CARDS.success });
    expect(confirmed.body.accessToken).toMatch(/^pat_[A-Za-z0-9_-]{43}$/);

    const tables = [
      'policies',
      'idempotency_records',
      'webhook_events',
      'acp_checkout_sessions',
      'checkout_sessions',
      'payments',
    ];
    const scan = await scanTextColumns(h.prisma, tables, ['pat_', confirmed.body.accessToken as string]);
    expect(scan.columns).toEqual(expect.arrayContaining(['webhook_events.payload', 'payments.failure_message']));
    expect(scan.hits).toEqual([]);
    const outbox = await h.prisma.webhookEvent.findFirstOrThrow({
      where: { payload: { path: ['quoteId'], equals: quoteId } },
    });
    const payload = outbox.payload as { documentUrl: string; policyNumber: string };
    expect(payload.documentUrl).toBe(`${QUOTE_API_URL}/api/v1/policies/${payload.policyNumber}/certificate.pdf`);
  });

  it('works from the widget iframe origin (first party) with pm_card_visa', async () => {
    const { quoteId, option } = await readyQuote();
    const started = await start({ quoteId, planId: option.planId }, mine.testKey, WIDGET_ORIGIN);
    expect(started.status).toBe(200);
    expectCors(started, WIDGET_ORIGIN);
    const confirmed = await confirm(
      { paymentId: started.body.paymentId, paymentMethod: 'pm_card_visa' },
      mine.testKey,
      WIDGET_ORIGIN,
    );
    expect(confirmed.body.status).toBe('succeeded');
    expectCors(confirmed, WIDGET_ORIGIN);
  });
});

describe('one intent per quote and plan', () => {
  it('starting twice (even concurrently) gives the same payment and one Payment row', async () => {
    const { quoteId, option } = await readyQuote();
    const [a, b] = await Promise.all([
      start({ quoteId, planId: option.planId }),
      start({ quoteId, planId: option.planId }),
    ]);
    const c = await start({ quoteId, planId: option.planId });
    expect(a!.status).toBe(200);
    expect(b!.body).toEqual(a!.body);
    expect(c.body).toEqual(a!.body);
    expect(await h.prisma.payment.count({ where: { quoteId } })).toBe(1);
  });

  it('another plan of the same quote gets its own intent; once one is paid the other cannot be confirmed', async () => {
    const { quoteId, ready } = await readyQuote();
    const [first, second] = ready.options.filter((o) => o.checkout.purchasable);
    expect(second).toBeDefined();
    const a = (await start({ quoteId, planId: first!.planId })).body;
    const b = (await start({ quoteId, planId: second!.planId })).body;
    expect(b.paymentId).not.toBe(a.paymentId);
    expect(b.amountCents).toBe(second!.premiumCents);
    await confirm({ paymentId: a.paymentId, paymentMethod: TEST_CARDS.success });
    await intake().handle(receivedEvent());
    const res = await confirm({ paymentId: b.paymentId, paymentMethod: TEST_CARDS.success });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: EMBED_PAYMENT_ALREADY_PURCHASED });
    expect(sim.events).toHaveLength(1);
  });
});
