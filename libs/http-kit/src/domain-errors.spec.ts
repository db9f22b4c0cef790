import express from 'express';
import request from 'supertest';
import pino from 'pino';
import { AppError } from './app-error';
import { answerDomainError, mapDomainErrors } from './domain-errors';
import { errorHandler, toAppError } from './error-handler';
import { requestId } from './request-id';

/** A lib's domain error as the house pattern has it (libs/operators' OperatorError, libs/quoting's QuotingError). */
type ShelfCode = 'out_of_stock' | 'discontinued' | 'bad_size';
class ShelfError extends Error {
  override readonly name = 'ShelfError';
  constructor(
    readonly code: ShelfCode,
    message: string,
    readonly details?: readonly { path: string; message: string }[],
  ) {
    super(message);
  }
}
const isShelfError = (err: unknown): err is ShelfError => err instanceof ShelfError;

const SHELF_ERRORS = mapDomainErrors(isShelfError, {
  out_of_stock: { status: 409, code: 'already_purchased' },
  discontinued: { status: 410, code: 'quote_expired' },
  bad_size: { status: 400, code: 'invalid_request', body: { error: 'Pick another size' } },
});

function appThrowing(err: unknown, lines: Record<string, unknown>[] = []) {
  const logger = pino({ level: 'info' }, { write: (l: string) => lines.push(JSON.parse(l)) });
  const app = express();
  app.use(requestId());
  app.get('/x', () => {
    throw err;
  });
  app.use(errorHandler(logger, { domainErrors: [SHELF_ERRORS] }));
  return app;
}

describe('domain errors at the error handler', () => {
  it.each([
    ['out_of_stock', 409, 'already_purchased'],
    ['discontinued', 410, 'quote_expired'],
  ] as const)('%s → %i with the standard body (its message, code, details, requestId)', async (code, status, api) => {
    const details = [{ path: 'size', message: 'use one of: S, M' }];
    const res = await request(appThrowing(new ShelfError(code, `shelf says ${code}`, details)))
      .get('/x')
      .set('X-Request-Id', 'r-1');
    expect(res.status).toBe(status);
    expect(res.body).toEqual({ error: `shelf says ${code}`, code: api, details, requestId: 'r-1' });
  });

  it("a mapped code with a body of the app's own shape answers that body as is", async () => {
    const res = await request(appThrowing(new ShelfError('bad_size', 'internal wording'))).get('/x');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'Pick another size' });
  });

  it('no details → no details field', async () => {
    const res = await request(appThrowing(new ShelfError('out_of_stock', 'gone', []))).get('/x');
    expect(res.body).not.toHaveProperty('details');
  });

  it('an unmapped domain error is a logged 500 that never shows its message', async () => {
    const lines: Record<string, unknown>[] = [];
    const unmapped = Object.assign(new ShelfError('out_of_stock', 'secret shelf internals'), { code: 'recalled' });
    const res = await request(appThrowing(unmapped, lines)).get('/x');
    expect(res.status).toBe(500);
    expect(res.body).toMatchObject({ error: 'Internal server error', code: 'internal_error' });
    expect(JSON.stringify(res.body)).not.toContain('secret');
    expect(lines.find((l) => l['msg'] === 'request failed')).toBeDefined();
  });

  it('a domain error of a lib the app registered no mapping for is a 500 too', async () => {
    const res = await request(appThrowing(Object.assign(new Error('other lib secret'), { code: 'nope' }))).get('/x');
    expect(res.status).toBe(500);
    expect(JSON.stringify(res.body)).not.toContain('secret');
  });
});

describe('toAppError and answerDomainError with a mapping', () => {
  it("turn a mapped domain error into the app's AppError, keeping the domain error as the cause", () => {
    const err = new ShelfError('discontinued', 'no longer sold', [{ path: 'sku', message: 'retired' }]);
    const appError = toAppError(err, [SHELF_ERRORS]);
    expect(appError).toBeInstanceOf(AppError);
    expect(appError).toMatchObject({ status: 410, code: 'quote_expired', message: 'no longer sold' });
    expect(appError.details).toEqual([{ path: 'sku', message: 'retired' }]);
    expect(appError.cause).toBe(err);
  });

  it('leave everything else alone: undefined from answerDomainError, the usual mapping from toAppError', () => {
    expect(answerDomainError(new Error('x'), [SHELF_ERRORS])).toBeUndefined();
    expect(toAppError(new ShelfError('discontinued', 'x')).status).toBe(500);
    const own = new AppError(404, 'not_found', 'nothing');
    expect(toAppError(own, [SHELF_ERRORS])).toBe(own);
  });
});
