import { PaymentProcessorError } from '@expedition/payments';
import {
  settlements,
  holdNextSettlement,
  failNextSettlement,
  buyer,
  ok,
  useAcpHarness,
  newKey,
  post,
  createBody,
  readySession,
  counts,
  deferred,
  until,
  conforms,
} from './acp-harness';

/** /acp/v1 POSTs under their Idempotency-Key (protocol §6): replay, conflict, scope, in flight, never a 5xx. */
useAcpHarness();

describe('Idempotency-Key', () => {
  it('replays the stored answer (same status, body, Idempotent-Replayed: true) without running it again', async () => {
    const before = await counts();
    const first = await post('/checkout_sessions', createBody(), { 'Idempotency-Key': 'replay-1' });
    // Same JSON, keys in another order: semantically equal.
    const { currency, line_items, capabilities, metadata } = createBody();
    const again = await post(
      '/checkout_sessions',
      { metadata, capabilities, line_items, currency, buyer },
      { 'Idempotency-Key': 'replay-1' },
    );
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(again.body).toEqual(first.body);
    const after = await counts();
    expect(after.sessions).toBe(before.sessions + 1);
    expect(after.quotes).toBe(before.quotes + 1);
  });

  it('422 idempotency_conflict for the same key with another body', async () => {
    await post('/checkout_sessions', createBody(), { 'Idempotency-Key': 'conflict-1' });
    const res = await post('/checkout_sessions', createBody({ buyer: { email: 'other@example.com' } }), {
      'Idempotency-Key': 'conflict-1',
    });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ type: 'invalid_request', code: 'idempotency_conflict' });
    conforms('Error', res.body);
  });

  it('keys are scoped to the agent key: another platform may use the same key', async () => {
    const other = await newKey();
    const a = await post('/checkout_sessions', createBody(), { 'Idempotency-Key': 'shared-1' });
    const b = await post('/checkout_sessions', createBody(), {
      'Idempotency-Key': 'shared-1',
      Authorization: `Bearer ${other}`,
    });
    expect(b.status).toBe(201);
    expect(b.headers['idempotent-replayed']).toBeUndefined();
    expect(b.body.id).not.toBe(a.body.id);
  });

  it('409 idempotency_in_flight with Retry-After while the first request runs; then the replay', async () => {
    const s = await readySession();
    const gate = deferred();
    holdNextSettlement(gate.promise);
    const pay = { payment_data: ok() };
    const first = post(`/checkout_sessions/${s.id}/complete`, pay, { 'Idempotency-Key': 'inflight-1' }).then((r) => r);
    await until(() => settlements.length === 1);
    const twin = await post(`/checkout_sessions/${s.id}/complete`, pay, { 'Idempotency-Key': 'inflight-1' });
    expect(twin.status).toBe(409);
    expect(twin.headers['retry-after']).toMatch(/^\d+$/);
    expect(twin.body).toMatchObject({ type: 'invalid_request', code: 'idempotency_in_flight' });
    gate.open();
    expect((await first).body.status).toBe('completed');
    const replay = await post(`/checkout_sessions/${s.id}/complete`, pay, { 'Idempotency-Key': 'inflight-1' });
    expect(replay.status).toBe(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(settlements).toHaveLength(1);
  });

  it('never keeps a 5xx: the same key after a processor outage runs afresh', async () => {
    const s = await readySession();
    failNextSettlement(new PaymentProcessorError('processor_unavailable', 'processor down'));
    const pay = { payment_data: ok() };
    const down = await post(`/checkout_sessions/${s.id}/complete`, pay, { 'Idempotency-Key': 'outage-1' });
    expect(down.status).toBe(503);
    expect(down.body).toMatchObject({ type: 'service_unavailable' });
    const retry = await post(`/checkout_sessions/${s.id}/complete`, pay, { 'Idempotency-Key': 'outage-1' });
    expect(retry.status).toBe(200);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    expect(retry.body.status).toBe('completed');
    expect(settlements).toHaveLength(2);
  });
});
