import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import request from 'supertest';
import { PurchaseReceiptSchema } from '@expedition/contracts';
import { createPolicyTokens, DEV_POLICY_TOKEN_SECRET } from '@expedition/fulfillment';
import { formatAuthorizationPayment, parsePaymentChallenges, type PaymentChallenge } from '@expedition/payments';
import { antarcticaQuote, PUBLIC_URL, type Harness } from './harness';

/**
 * What the policy suites share (policies.api.spec.ts, policy-certificate.api.spec.ts): a quote bought by machine
 * payment, the policy look-up and its certificate, and pdftotext to read the PDF.
 */
export const DEV_TOKENS = createPolicyTokens({ secret: DEV_POLICY_TOKEN_SECRET });

export const PDFTOTEXT = '/usr/bin/pdftotext';
export const hasPdftotext = existsSync(PDFTOTEXT);
export const pdfText = (pdf: Buffer) => execFileSync(PDFTOTEXT, ['-layout', '-', '-'], { input: pdf }).toString('utf8');

interface Plan {
  planId: string;
  planName: string;
  availabilityMode: string;
  estimatedPremiumCents: number;
}

/** The steps, on the harness `harness()` returns (the suite's, once its beforeAll has made it). */
export function policyFixtures(harness: () => Harness) {
  let counter = 0;
  /** A payment token the simulated processor accepts, new each time. */
  const nextSpt = () => `spt_test_success_policy_${++counter}`;

  async function newQuote(body: object = antarcticaQuote) {
    const res = await request(harness().app).post('/api/v1/quotes').send(body);
    expect(res.status).toBe(200);
    const plans = (res.body.plans as Plan[]).filter((p) => p.availabilityMode === 'full');
    return {
      quoteId: res.body.quoteId as string,
      sessionId: res.body.sessionId as string,
      plan: plans[0]!,
      other: plans[1]!,
    };
  }

  const purchase = (body: object, headers: Record<string, string> = {}) =>
    request(harness().app).post('/api/v1/purchase').set(headers).send(body);

  function challengeOf(res: request.Response): PaymentChallenge {
    expect(res.status).toBe(402);
    return parsePaymentChallenges(res.headers['www-authenticate'] as string)[0]!;
  }

  /** A quote bought by machine payment: the receipt and the credential that paid. */
  async function boughtPolicy(quote: object = antarcticaQuote) {
    const q = await newQuote(quote);
    const challenge = challengeOf(await purchase({ quoteId: q.quoteId, planId: q.plan.planId }));
    const auth = { Authorization: formatAuthorizationPayment({ challenge, payload: { spt: nextSpt() } }) };
    const res = await purchase({ quoteId: q.quoteId, planId: q.plan.planId }, auth);
    expect(res.status).toBe(200);
    const receipt = PurchaseReceiptSchema.parse(res.body);
    return { q, auth, receipt };
  }

  const lookup = (policyNumber: string, token?: string) => {
    const req = request(harness().app).get(`/api/v1/policies/${encodeURIComponent(policyNumber)}`);
    return token === undefined ? req : req.set('Authorization', `Bearer ${token}`);
  };
  const certificate = (url: string) =>
    request(harness().app)
      .get(url.replace(PUBLIC_URL, ''))
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      });

  /** The error body without the per-request id. */
  const bodyOf = (res: request.Response) => {
    const { requestId: _id, ...rest } = (
      typeof res.body === 'object' && !Buffer.isBuffer(res.body) ? res.body : JSON.parse(res.text)
    ) as Record<string, unknown>;
    return rest;
  };

  return { nextSpt, newQuote, purchase, challengeOf, boughtPolicy, lookup, certificate, bodyOf };
}
