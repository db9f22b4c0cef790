import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import pino from 'pino';
import request from 'supertest';
import { PurchaseReceiptSchema } from '@expedition/contracts';
import { createPolicyTokens, DEV_POLICY_TOKEN_SECRET } from '@expedition/fulfillment';
import { formatAuthorizationPayment, parsePaymentChallenges, type PaymentChallenge } from '@expedition/payments';
import { noteSkippedSuite } from '@expedition/platform/testing';
import { antarcticaQuote, createHarness, PUBLIC_URL, type Harness } from './harness';

/**
 * What the specs of the policy after the sale share (issue 10 §3: the access token on the buyer's receipts only, the
 * look-up for its holder, the certificate as a PDF): a harness that keeps its log lines, a policy bought by machine
 * payment, the look-up and certificate requests, and pdftotext to read the PDF. `h` is live: set by the hooks
 * `usePoliciesHarness()` registers.
 */

export const DEV_TOKENS = createPolicyTokens({ secret: DEV_POLICY_TOKEN_SECRET });

export const PDFTOTEXT = '/usr/bin/pdftotext';
export const hasPdftotext = existsSync(PDFTOTEXT);
/** For a file with PDF text checks: never a silent skip, the workspace reporter prints this as a SKIPPED line. */
export function noteIfNoPdftotext(): void {
  if (!hasPdftotext)
    noteSkippedSuite(`${PDFTOTEXT} not found: the PDF text checks are skipped (apt-get install poppler-utils)`);
}
export const pdfText = (pdf: Buffer) => execFileSync(PDFTOTEXT, ['-layout', '-', '-'], { input: pdf }).toString('utf8');

export let h: Harness;
/** Every line the app logged. */
export const logLines: string[] = [];

/** Registers the file's hooks: a harness whose logger keeps every line in `logLines`. */
export function usePoliciesHarness(): void {
  beforeAll(async () => {
    // Every level, no redaction configured: proves the token is never handed to the logger at all.
    h = await createHarness({
      logger: pino({ level: 'trace' }, { write: (line: string) => void logLines.push(line) }),
    });
  });
  afterAll(() => h.close());
}

export interface Plan {
  planId: string;
  planName: string;
  availabilityMode: string;
  estimatedPremiumCents: number;
}

export async function newQuote(quote: object = antarcticaQuote) {
  const res = await request(h.app).post('/api/v1/quotes').send(quote);
  expect(res.status).toBe(200);
  const plans = (res.body.plans as Plan[]).filter((p) => p.availabilityMode === 'full');
  return {
    quoteId: res.body.quoteId as string,
    sessionId: res.body.sessionId as string,
    plan: plans[0]!,
    other: plans[1]!,
  };
}

export const purchase = (body: object, headers: Record<string, string> = {}) =>
  request(h.app).post('/api/v1/purchase').set(headers).send(body);

export function challengeOf(res: request.Response): PaymentChallenge {
  expect(res.status).toBe(402);
  return parsePaymentChallenges(res.headers['www-authenticate'] as string)[0]!;
}

/** Numbers the SPTs of the file (each is single use); `k-${counter}` names an Idempotency-Key after the last one. */
export let counter = 0;
export const nextCounter = () => ++counter;
/** A quote bought by machine payment: the receipt and the credential that paid. */
export async function boughtPolicy(quote: object = antarcticaQuote) {
  const q = await newQuote(quote);
  const challenge = challengeOf(await purchase({ quoteId: q.quoteId, planId: q.plan.planId }));
  const auth = {
    Authorization: formatAuthorizationPayment({
      challenge,
      payload: { spt: `spt_test_success_policy_${nextCounter()}` },
    }),
  };
  const res = await purchase({ quoteId: q.quoteId, planId: q.plan.planId }, auth);
  expect(res.status).toBe(200);
  const receipt = PurchaseReceiptSchema.parse(res.body);
  return { q, auth, receipt };
}

export const lookup = (policyNumber: string, token?: string) => {
  const req = request(h.app).get(`/api/v1/policies/${encodeURIComponent(policyNumber)}`);
  return token === undefined ? req : req.set('Authorization', `Bearer ${token}`);
};
export const certificate = (url: string) =>
  request(h.app)
    .get(url.replace(PUBLIC_URL, ''))
    .buffer(true)
    .parse((res, done) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => done(null, Buffer.concat(chunks)));
    });

/** The error body without the per-request id. */
export const bodyOf = (res: request.Response) => {
  const { requestId: _id, ...rest } = (
    typeof res.body === 'object' && !Buffer.isBuffer(res.body) ? res.body : JSON.parse(res.text)
  ) as Record<string, unknown>;
  return rest;
};
