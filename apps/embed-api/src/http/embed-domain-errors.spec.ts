import express from 'express';
import pino from 'pino';
import request from 'supertest';
import {
  EMBED_PAYMENT_ALREADY_PURCHASED,
  EMBED_PAYMENT_PLAN_NOT_OFFERED,
  EMBED_PAYMENT_PLAN_NOT_PURCHASABLE,
  EMBED_PAYMENT_QUOTE_EXPIRED,
  EMBED_SANDBOX_QUOTE_ERROR,
} from '@expedition/contracts';
import { errorHandler } from '@expedition/http-kit';
import { QuotingError, type QuotingErrorCode } from '@expedition/quoting';
import { EMBED_DOMAIN_ERRORS } from './embed-domain-errors';

function answering(err: unknown) {
  const app = express();
  app.get('/x', () => {
    throw err;
  });
  app.use(errorHandler(pino({ level: 'silent' }), { domainErrors: EMBED_DOMAIN_ERRORS }));
  return request(app).get('/x').set('X-Request-Id', 'r-1');
}

describe("embed-api's answers to the quoting lib's refusals", () => {
  it.each<[QuotingErrorCode, number, string]>([
    ['sandbox_refusal', 400, EMBED_SANDBOX_QUOTE_ERROR],
    ['invalid_plan', 400, EMBED_PAYMENT_PLAN_NOT_OFFERED],
    ['quote_not_purchasable', 400, EMBED_PAYMENT_PLAN_NOT_PURCHASABLE],
    ['already_purchased', 409, EMBED_PAYMENT_ALREADY_PURCHASED],
    ['quote_expired', 400, EMBED_PAYMENT_QUOTE_EXPIRED],
  ])('%s → %i { error } (the embed message, never the lib wording)', async (code, status, error) => {
    const res = await answering(new QuotingError(code, 'lib wording', [{ path: 'planId', message: 'lib detail' }]));
    expect(res.status).toBe(status);
    expect(res.body).toEqual({ error });
  });

  it('a quoting code it does not answer is a 500 that never shows the message', async () => {
    const unknown = Object.assign(new QuotingError('quote_expired', 'secret lib wording'), { code: 'recalled' });
    const res = await answering(unknown);
    expect(res.status).toBe(500);
    expect(JSON.stringify(res.body)).not.toContain('secret');
  });
});
