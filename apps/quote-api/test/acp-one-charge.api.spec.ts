import request from 'supertest';
import { formatAuthorizationPayment, parsePaymentChallenges } from '@expedition/payments';
import {
  h,
  settlements,
  PLAN,
  holdNextSettlement,
  spt,
  ok,
  useAcpHarness,
  post,
  readySession,
  deferred,
  until,
} from './acp-harness';

/** /acp/v1 complete: one charge per quote, across concurrent completes and the MPP channel. */
useAcpHarness();

describe('one charge per quote', () => {
  it('the same complete sent twice at once (two keys) charges once', async () => {
    const s = await readySession();
    const gate = deferred();
    holdNextSettlement(gate.promise);
    const a = post(`/checkout_sessions/${s.id}/complete`, { payment_data: ok() }).then((r) => r);
    await until(() => settlements.length === 1);
    const b = await post(`/checkout_sessions/${s.id}/complete`, { payment_data: ok() });
    expect(b.status).toBe(409);
    expect(b.body).toMatchObject({ code: 'payment_in_progress' });
    gate.open();
    expect((await a).body.status).toBe('completed');
    expect(settlements).toHaveLength(1);
    expect(await h.db.prisma.payment.count({ where: { quoteId: s.quote_id } })).toBe(1);
    // Afterwards, another complete answers the completed session and charges nothing.
    const later = await post(`/checkout_sessions/${s.id}/complete`, { payment_data: spt('spt_test_success_9') });
    expect(later.body.status).toBe('completed');
    expect(settlements).toHaveLength(1);
  });

  it('complete racing an MPP purchase of the same quote: one charge', async () => {
    const s = await readySession();
    const planId = PLAN;
    const unpaid = await request(h.app).post('/api/v1/purchase').send({ quoteId: s.quote_id, planId });
    expect(unpaid.status).toBe(402);
    const challenge = parsePaymentChallenges(unpaid.headers['www-authenticate'] as string)[0]!;
    const gate = deferred();
    holdNextSettlement(gate.promise);
    const acp = post(`/checkout_sessions/${s.id}/complete`, { payment_data: ok() }).then((r) => r);
    await until(() => settlements.length === 1);
    const mpp = await request(h.app)
      .post('/api/v1/purchase')
      .set('Authorization', formatAuthorizationPayment({ challenge, payload: { spt: 'spt_test_success_mpp' } }))
      .send({ quoteId: s.quote_id, planId });
    expect(mpp.status).toBe(409);
    gate.open();
    expect((await acp).body.status).toBe('completed');
    expect(settlements).toHaveLength(1);
    expect(await h.db.prisma.payment.count({ where: { quoteId: s.quote_id } })).toBe(1);
    // MPP now sees the quote paid, without a charge.
    const after = await request(h.app)
      .post('/api/v1/purchase')
      .set('Authorization', formatAuthorizationPayment({ challenge, payload: { spt: 'spt_test_success_mpp' } }))
      .send({ quoteId: s.quote_id, planId });
    expect(after.body.status).toBe('already_paid');
    expect(settlements).toHaveLength(1);
  });

  it('a quote paid through MPP first cannot be charged again through the session', async () => {
    const s = await readySession();
    const unpaid = await request(h.app).post('/api/v1/purchase').send({ quoteId: s.quote_id, planId: PLAN });
    const challenge = parsePaymentChallenges(unpaid.headers['www-authenticate'] as string)[0]!;
    const mpp = await request(h.app)
      .post('/api/v1/purchase')
      .set('Authorization', formatAuthorizationPayment({ challenge, payload: { spt: 'spt_test_success_first' } }))
      .send({ quoteId: s.quote_id, planId: PLAN });
    expect(mpp.status).toBe(200);
    const res = await post(`/checkout_sessions/${s.id}/complete`, { payment_data: ok() });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'session_not_ready' });
    expect(settlements).toHaveLength(1);
  });
});
