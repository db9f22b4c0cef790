import { PUBLIC_URL } from './harness';
import {
  h,
  settlements,
  PLAN,
  DEV_TOKENS,
  trip,
  tripWithoutResidence,
  buyer,
  spt,
  ok,
  useAcpHarness,
  post,
  get,
  createBody,
  readySession,
  conforms,
} from './acp-harness';

/** /acp/v1 checkout sessions: create → update → complete, cancel, operators, the buyer's language. */
useAcpHarness();

describe('the session: create → update → complete', () => {
  it('walks not_ready_for_payment → ready_for_payment → completed, and the order links the policy certificate', async () => {
    const created = await post('/checkout_sessions', createBody({ buyer: undefined, line_items: [{ id: PLAN }] }));
    expect(created.status).toBe(201);
    conforms('CheckoutSession', created.body);
    expect(created.body.status).toBe('not_ready_for_payment');
    expect(created.body.messages).toEqual([
      expect.objectContaining({ type: 'error', code: 'missing', param: '$.buyer.email' }),
    ]);
    const premium = created.body.totals.find((t: { type: string }) => t.type === 'total').amount;
    expect(Number.isInteger(premium)).toBe(true);
    expect(created.body.line_items[0]).toMatchObject({ item: { id: PLAN }, quantity: 1, unit_amount: premium });

    const updated = await post(`/checkout_sessions/${created.body.id}`, { buyer });
    expect(updated.status).toBe(200);
    conforms('CheckoutSession', updated.body);
    expect(updated.body).toMatchObject({ status: 'ready_for_payment', messages: [], buyer });
    const fetched = await get(`/checkout_sessions/${created.body.id}`);
    expect(fetched.body).toEqual(updated.body);

    const done = await post(`/checkout_sessions/${created.body.id}/complete`, { payment_data: ok() });
    expect(done.status).toBe(200);
    conforms('CheckoutSessionWithOrder', done.body);
    expect(done.body.status).toBe('completed');
    const policy = await h.db.prisma.policy.findUniqueOrThrow({ where: { quoteId: updated.body.quote_id } });
    expect(done.body.order).toEqual({
      id: `ord_${policy.id}`,
      checkout_session_id: created.body.id,
      order_number: policy.policyNumber,
      permalink_url: `${PUBLIC_URL}/api/v1/policies/${policy.policyNumber}/certificate.pdf?access_token=${encodeURIComponent(DEV_TOKENS.tokenFor(policy))}`,
      status: 'confirmed',
    });
    const purchase = await h.db.prisma.purchase.findUniqueOrThrow({ where: { quoteId: updated.body.quote_id } });
    expect(purchase).toMatchObject({ channel: 'acp', amountCents: premium, planId: PLAN });
    expect(settlements).toHaveLength(1);
    expect(settlements[0]).toMatchObject({
      amountCents: premium,
      spt: expect.stringMatching(/^spt_test_success_/),
      metadata: { channel: 'acp', quoteId: updated.body.quote_id },
    });
    expect((await get(`/checkout_sessions/${created.body.id}`)).body).toEqual(done.body);
  });

  it('reports invalid trip facts in messages[] with JSONPaths, and re-quotes when the trip is updated', async () => {
    const created = await post(
      '/checkout_sessions',
      createBody({ metadata: { trip: { ...trip, travelerAges: [45] } } }),
    );
    expect(created.status).toBe(201);
    expect(created.body.status).toBe('not_ready_for_payment');
    expect(created.body.messages[0]).toMatchObject({
      type: 'error',
      code: 'invalid',
      param: '$.metadata.trip.travelerAges',
    });
    expect(created.body.totals).toEqual([]);
    const noResidence = await post(`/checkout_sessions/${created.body.id}`, {
      metadata: { trip: tripWithoutResidence },
    });
    expect(noResidence.body.messages[0]).toMatchObject({ param: '$.metadata.trip.residence' });
    const fixed = await post(`/checkout_sessions/${created.body.id}`, { metadata: { trip } });
    expect(fixed.body.status).toBe('ready_for_payment');
    expect(fixed.body.quote_id).toEqual(expect.any(String));
    const otherPlan = await post(`/checkout_sessions/${created.body.id}`, { line_items: [{ id: 'no-such-plan' }] });
    expect(otherPlan.body.status).toBe('not_ready_for_payment');
    expect(otherPlan.body.messages[0]).toMatchObject({ code: 'invalid', param: '$.line_items[0].id' });
  });

  it('declines the sandbox token in test mode: the session stays open, nothing is bought; a good token then completes', async () => {
    const s = await readySession();
    const declined = await post(`/checkout_sessions/${s.id}/complete`, { payment_data: spt('spt_test_decline_1') });
    expect(declined.status).toBe(200);
    conforms('CheckoutSession', declined.body);
    expect(declined.body.status).toBe('ready_for_payment');
    expect(declined.body.messages).toEqual([
      expect.objectContaining({ type: 'error', code: 'payment_declined', param: '$.payment_data' }),
    ]);
    expect(await h.db.prisma.purchase.count({ where: { quoteId: s.quote_id } })).toBe(0);
    const paid = await post(`/checkout_sessions/${s.id}/complete`, { payment_data: spt('spt_test_success_2') });
    expect(paid.body.status).toBe('completed');
  });

  it('refuses to complete a session that is not ready (400, nothing charged)', async () => {
    const created = await post('/checkout_sessions', createBody({ buyer: undefined, line_items: [{ id: PLAN }] }));
    const res = await post(`/checkout_sessions/${created.body.id}/complete`, { payment_data: ok() });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ type: 'invalid_request', code: 'session_not_ready', param: '$.buyer.email' });
    expect(settlements).toHaveLength(0);
  });
});

describe('cancel', () => {
  it('cancels an open session; canceling again, updating or completing it is 405', async () => {
    const s = await readySession();
    const canceled = await post(`/checkout_sessions/${s.id}/cancel`, {});
    expect(canceled.status).toBe(200);
    conforms('CheckoutSession', canceled.body);
    expect(canceled.body.status).toBe('canceled');
    for (const [p, body] of [
      ['/cancel', {}],
      ['', { buyer }],
      ['/complete', { payment_data: ok() }],
    ] as const) {
      const res = await post(`/checkout_sessions/${s.id}${p}`, body);
      expect(res.status).toBe(405);
      expect(res.body).toMatchObject({ type: 'invalid_request', code: 'session_canceled' });
    }
    expect(settlements).toHaveLength(0);
  });

  it('cancel after complete is 405, and the session stays completed', async () => {
    const s = await readySession();
    expect((await post(`/checkout_sessions/${s.id}/complete`, { payment_data: ok() })).body.status).toBe('completed');
    const res = await post(`/checkout_sessions/${s.id}/cancel`, {});
    expect(res.status).toBe(405);
    expect(res.body).toMatchObject({ code: 'session_completed' });
    conforms('Error', res.body);
    expect((await get(`/checkout_sessions/${s.id}`)).body.status).toBe('completed');
  });
});

describe('operator-attributed trips', () => {
  it('issue policy.issued for the operator, as every other channel does', async () => {
    const operator = await h.db.prisma.operator.create({
      data: { name: 'ACP Voyages', status: 'active', webhookUrl: 'https://operator.example/hook' },
    });
    const created = await post(
      '/checkout_sessions',
      createBody({ line_items: [{ id: PLAN }], metadata: { trip: { ...trip, operator: operator.id } } }),
    );
    expect(created.body.status).toBe('ready_for_payment');
    const done = await post(`/checkout_sessions/${created.body.id}/complete`, { payment_data: ok() });
    expect(done.body.status).toBe('completed');
    const policy = await h.db.prisma.policy.findUniqueOrThrow({ where: { quoteId: created.body.quote_id } });
    expect(policy.operatorId).toBe(operator.id);
    expect(await h.db.prisma.commission.count({ where: { policyId: policy.id } })).toBe(1);
    expect(await h.db.prisma.webhookEvent.count({ where: { operatorId: operator.id, type: 'policy.issued' } })).toBe(1);
  });
});

describe("ACP: the buyer's language", () => {
  it("records the request's `locale` (by language), else its Accept-Language, on the session and on every quote it makes", async () => {
    const withLocale = await post('/checkout_sessions', createBody({ locale: 'de-DE' }), { 'Accept-Language': 'fr' });
    expect(withLocale.status).toBe(201);
    const quoteLocale = async (quoteId: string) =>
      (await h.db.prisma.quote.findUniqueOrThrow({ where: { id: quoteId } })).locale;
    expect(await quoteLocale(withLocale.body.quote_id)).toBe('de');
    expect((await h.db.prisma.acpCheckoutSession.findUniqueOrThrow({ where: { id: withLocale.body.id } })).locale).toBe(
      'de',
    );

    const fromHeader = await post('/checkout_sessions', createBody(), { 'Accept-Language': 'es-419, en;q=0.5' });
    expect(await quoteLocale(fromHeader.body.quote_id)).toBe('es');
    // A new trip re-quotes the session: the new quote keeps the session's language.
    const requoted = await post(`/checkout_sessions/${fromHeader.body.id}`, {
      metadata: { trip: { ...trip, travelers: 1, travelerAges: [40] } },
    });
    expect(requoted.body.quote_id).not.toBe(fromHeader.body.quote_id);
    expect(await quoteLocale(requoted.body.quote_id)).toBe('es');

    const neither = await post('/checkout_sessions', createBody());
    expect(await quoteLocale(neither.body.quote_id)).toBe('en');
  });
});
