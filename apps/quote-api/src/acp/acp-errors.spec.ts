import { AppError } from '@expedition/http-kit';
import { toAcpHttpError } from './acp-errors';

describe('toAcpHttpError: what /acp/v1 answers for what was thrown', () => {
  it('the database briefly unreachable: 503 service_unavailable with Retry-After, never a 500', () => {
    for (const err of [
      new Error('Connection terminated unexpectedly'),
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
    ]) {
      const acp = toAcpHttpError(err);
      expect(acp.status).toBe(503);
      expect(acp.body).toMatchObject({ type: 'service_unavailable', code: 'service_unavailable' });
      expect(acp.headers).toEqual({ 'Retry-After': '5' });
    }
  });

  it('a fault of ours: 500 processing_error, no detail', () => {
    const acp = toAcpHttpError(new TypeError('undefined is not a function'));
    expect(acp.status).toBe(500);
    expect(acp.body).toEqual({
      type: 'processing_error',
      code: 'processing_error',
      message: 'Internal error; retry shortly',
    });
  });

  it('a request error: its status, invalid_request, the first problem as a JSONPath param', () => {
    const acp = toAcpHttpError(
      new AppError(400, 'invalid_request', 'bad', [{ path: 'buyer.email', message: 'not an e-mail' }]),
    );
    expect(acp.status).toBe(400);
    expect(acp.body).toMatchObject({
      type: 'invalid_request',
      code: 'invalid',
      message: 'bad',
      param: '$.buyer.email',
    });
  });
});
