import request from 'supertest';
import {
  h,
  settlements,
  trip,
  ok,
  useAcpHarness,
  idem,
  headers,
  post,
  createBody,
  readySession,
  counts,
} from './acp-harness';

/** /acp/v1 refuses malformed requests with the protocol's 4xx and writes nothing. */
useAcpHarness();

describe('hostile input: 4xx, nothing written', () => {
  const bad: [string, unknown][] = [
    ['no line items', createBody({ line_items: [] })],
    ['two line items', createBody({ line_items: [{ id: 'a' }, { id: 'b' }] })],
    ['a line item without id', createBody({ line_items: [{}] })],
    ['unknown item field', createBody({ line_items: [{ id: 'a', price: 0 }] })],
    ['no currency', createBody({ currency: undefined })],
    ['a non-usd currency', createBody({ currency: 'eur' })],
    ['no capabilities', createBody({ capabilities: undefined })],
    ['a string body', 'hello'],
    ['an array body', [createBody()]],
    ['a bad email', createBody({ buyer: { email: 'not-an-email' } })],
    ['a huge metadata value', createBody({ metadata: { trip, note: 'x'.repeat(1000) } })],
    ['a NUL byte', createBody({ buyer: { email: 'a@b.co', first_name: 'A\u0000B' } })],
  ];
  it.each(bad)('%s', async (_name, body) => {
    const before = await counts();
    const res = await request(h.app)
      .post('/acp/v1/checkout_sessions')
      .set(headers({ 'Idempotency-Key': idem(), 'Content-Type': 'application/json' }))
      .send(JSON.stringify(body));
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(res.body).toMatchObject({ type: 'invalid_request', code: expect.any(String), message: expect.any(String) });
    expect(JSON.stringify(res.body)).not.toMatch(/at .*\.ts|stack/i);
    expect(await counts()).toEqual(before);
  });

  it('malformed JSON and an oversized body', async () => {
    const before = await counts();
    const broken = await request(h.app)
      .post('/acp/v1/checkout_sessions')
      .set(headers({ 'Idempotency-Key': idem(), 'Content-Type': 'application/json' }))
      .send('{"line_items": [');
    expect(broken.status).toBe(400);
    expect(broken.body).toMatchObject({ type: 'invalid_request', code: 'invalid_json' });
    const huge = await request(h.app)
      .post('/acp/v1/checkout_sessions')
      .set(headers({ 'Idempotency-Key': idem(), 'Content-Type': 'application/json' }))
      .send(JSON.stringify({ ...createBody(), pad: 'x'.repeat(2_000_000) }));
    expect(huge.status).toBe(413);
    expect(await counts()).toEqual(before);
  });

  it('an over-long Idempotency-Key, and a complete body that is not an SPT', async () => {
    const before = await counts();
    const long = await post('/checkout_sessions', createBody(), { 'Idempotency-Key': 'k'.repeat(256) });
    expect(long.status).toBe(400);
    const s = await readySession();
    const mid = await counts();
    for (const payment_data of [
      {},
      { handler_id: 'other', instrument: ok().instrument },
      { ...ok(), instrument: { type: 'card', credential: { type: 'card', token: '4242' } } },
    ]) {
      const res = await post(`/checkout_sessions/${s.id}/complete`, { payment_data });
      expect(res.status).toBe(400);
    }
    expect(await counts()).toEqual(mid);
    expect(mid.sessions).toBe(before.sessions + 1);
    expect(settlements).toHaveLength(0);
  });
});
