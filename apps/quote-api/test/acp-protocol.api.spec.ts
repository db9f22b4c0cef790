import request from 'supertest';
import { ACP_API_VERSION } from '@expedition/contracts';
import { createRateLimiter, hashToken, randomToken } from '@expedition/platform';
import { createHarness, PUBLIC_URL } from './harness';
import {
  h,
  useAcpHarness,
  newKey,
  headers,
  post,
  get,
  createBody,
  readySession,
  counts,
  validator,
  conforms,
} from './acp-harness';

/** /acp/v1: the protocol's own schema, the OpenAPI document, and the headers every request carries. */
useAcpHarness();

describe('ACP conformance fixture', () => {
  it('rejects what the protocol rejects (the schema check can fail)', () => {
    expect(validator('Error')({ type: 'oops', code: 'x', message: 'y' })).toBe(false);
    expect(validator('CheckoutSession')({ id: 'x', status: 'completed' })).toBe(false);
  });
});

describe('GET /acp/v1/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document of the five operations, public', async () => {
    const res = await request(h.app).get('/acp/v1/openapi.json');
    expect(res.status).toBe(200);
    const { Validator } = await import('@seriousme/openapi-schema-validator');
    const result = await new Validator().validate(res.body);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(res.body.info.version).toBe(ACP_API_VERSION);
    expect(res.body.servers).toEqual([{ url: `${PUBLIC_URL}/acp/v1` }]);
    const ops = Object.values(res.body.paths as Record<string, Record<string, { operationId: string }>>).flatMap((p) =>
      Object.values(p).map((o) => o.operationId),
    );
    expect(ops.sort()).toEqual([
      'cancelCheckoutSession',
      'completeCheckoutSession',
      'createCheckoutSession',
      'getCheckoutSession',
      'updateCheckoutSession',
    ]);
  });
});

describe('protocol headers', () => {
  it('400 missing_api_version / unsupported_api_version with the supported list', async () => {
    const missing = await get('/checkout_sessions/acs_x', { 'API-Version': undefined });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({
      type: 'invalid_request',
      code: 'missing_api_version',
      message: expect.any(String),
      supported_versions: [ACP_API_VERSION],
    });
    conforms('Error', missing.body);
    const old = await get('/checkout_sessions/acs_x', { 'API-Version': '2025-09-29' });
    expect(old.status).toBe(400);
    expect(old.body).toMatchObject({ code: 'unsupported_api_version', supported_versions: [ACP_API_VERSION] });
  });

  it('401 for no, unknown, malformed or revoked keys, in the protocol error shape', async () => {
    const revoked = await newKey('test', true);
    for (const auth of [undefined, 'Bearer acpk_test_unknown', 'Basic abc', `Bearer ${revoked}`]) {
      const res = await get('/checkout_sessions/acs_x', { Authorization: auth });
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ type: 'invalid_request', code: 'unauthorized' });
      conforms('Error', res.body);
    }
  });

  it('400 idempotency_key_required on a POST without the key; nothing written', async () => {
    const before = await counts();
    const res = await request(h.app).post('/acp/v1/checkout_sessions').set(headers()).send(createBody());
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ type: 'invalid_request', code: 'idempotency_key_required' });
    expect(await counts()).toEqual(before);
  });

  it('echoes Request-Id and Idempotency-Key', async () => {
    const res = await post('/checkout_sessions', createBody(), {
      'Request-Id': 'req-123',
      'Idempotency-Key': 'echo-me-1',
    });
    expect(res.status).toBe(201);
    expect(res.headers['request-id']).toBe('req-123');
    expect(res.headers['idempotency-key']).toBe('echo-me-1');
    const got = await get(`/checkout_sessions/${res.body.id}`, { 'Request-Id': 'req-456' });
    expect(got.headers['request-id']).toBe('req-456');
  });

  it('404 for an unknown session and for another platform’s session', async () => {
    expect((await get('/checkout_sessions/acs_nope')).status).toBe(404);
    const mine = await readySession();
    const other = await newKey();
    const res = await get(`/checkout_sessions/${mine.id}`, { Authorization: `Bearer ${other}` });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ type: 'invalid_request', code: 'not_found' });
  });

  it('429 past the per-key limit, other keys unaffected', async () => {
    const limited = await createHarness({
      rateLimitPerMinute: 2,
      rateLimiter: createRateLimiter({ points: 2, durationSec: 60 }),
    });
    try {
      const secret = randomToken('acpk_test', 32);
      await limited.db.prisma.agentKey.create({
        data: { name: 'x', mode: 'test', prefix: 'p', hash: hashToken(secret) },
      });
      const call = () =>
        request(limited.app)
          .get('/acp/v1/checkout_sessions/acs_x')
          .set({ Authorization: `Bearer ${secret}`, 'API-Version': ACP_API_VERSION });
      expect((await call()).status).toBe(404);
      expect((await call()).status).toBe(404);
      const refused = await call();
      expect(refused.status).toBe(429);
      expect(refused.headers['retry-after']).toMatch(/^\d+$/);
      expect(refused.body).toMatchObject({ type: 'invalid_request', code: 'rate_limited' });
    } finally {
      await limited.close();
    }
  });
});
