import type { Express } from 'express';
import request from 'supertest';
import { PolicyLookupSchema, type PolicyLookup, type PurchaseReceipt } from '@expedition/contracts';
import { formatAuthorizationPayment, parsePaymentChallenges } from '@expedition/payments';
import { antarcticaQuote } from './harness';

/**
 * Buys a full plan of a new quote (`quote` over antarcticaQuote) by machine payment, the credential built with the
 * client helpers as an agent's wallet would, paying with `spt`: the answer to the paid POST /api/v1/purchase.
 */
export async function buyByMachinePayment(app: Express, spt: string, quote: Record<string, unknown> = {}) {
  const created = await request(app)
    .post('/api/v1/quotes')
    .send({ ...antarcticaQuote, ...quote });
  const plan = (created.body.plans as { planId: string; availabilityMode: string }[]).find(
    (p) => p.availabilityMode === 'full',
  )!;
  const body = { quoteId: created.body.quoteId as string, planId: plan.planId };
  const challenge = parsePaymentChallenges(
    (await request(app).post('/api/v1/purchase').send(body)).headers['www-authenticate'] as string,
  )[0]!;
  const auth = formatAuthorizationPayment({ challenge, payload: { spt } });
  const purchase = await request(app).post('/api/v1/purchase').set('Authorization', auth).send(body);
  return { purchase, planId: plan.planId };
}

/** The policy of a receipt, as GET /api/v1/policies/{policyNumber} with its access token answers it. */
export async function lookUpPolicy(app: Express, receipt: PurchaseReceipt): Promise<PolicyLookup> {
  const lookup = await request(app)
    .get(`/api/v1/policies/${receipt.policyNumber}`)
    .set('Authorization', `Bearer ${receipt.accessToken}`);
  return PolicyLookupSchema.parse(lookup.body);
}
