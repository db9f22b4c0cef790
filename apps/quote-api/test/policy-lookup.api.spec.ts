import request from 'supertest';
import { PolicyLookupSchema, QUOTE_DISCLAIMER } from '@expedition/contracts';
import { TEST_CARDS } from '@expedition/payments';
import { PUBLIC_URL } from './harness';
import {
  h,
  usePoliciesHarness,
  noteIfNoPdftotext,
  DEV_TOKENS,
  hasPdftotext,
  pdfText,
  newQuote,
  boughtPolicy,
  lookup,
  certificate,
  bodyOf,
} from './policies-harness';

/** GET /api/v1/policies/{policyNumber}: the policy for the holder of its token; one 404 for anyone else. */
usePoliciesHarness();
noteIfNoPdftotext();

describe('GET /api/v1/policies/{policyNumber}', () => {
  it('shows the policy to the holder of its token: plan and limits, trip, travelers, premium in cents, disclaimer, documentUrl', async () => {
    const { q, receipt } = await boughtPolicy();
    const res = await lookup(receipt.policyNumber!, receipt.accessToken);
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-store');
    const body = PolicyLookupSchema.parse(res.body);
    expect(body).toMatchObject({
      policyNumber: receipt.policyNumber,
      status: 'issued',
      mode: 'test',
      plan: { planId: q.plan.planId, planName: q.plan.planName },
      trip: {
        destination: 'Antarctica',
        destinationSlug: 'antarctica',
        startDate: '2027-01-10',
        endDate: '2027-01-24',
        durationDays: 14,
      },
      travelers: { count: 2, ages: [45, 52] },
      premiumCents: q.plan.estimatedPremiumCents,
      currency: 'USD',
      documentUrl: receipt.documentUrl,
      disclaimer: QUOTE_DISCLAIMER,
    });
    expect(body.plan.coverage?.medicalExpenseLimit).toBeGreaterThan(0);
    expect(body.travelers.names).toBeUndefined();
    expect(Number.isNaN(Date.parse(body.issuedAt))).toBe(false);
  });

  it("answers the SAME 404 for a wrong token, another policy's token and an unknown policy number", async () => {
    const a = await boughtPolicy();
    const b = await boughtPolicy();
    const wrong = await lookup(a.receipt.policyNumber!, `${a.receipt.accessToken!.slice(0, -1)}x`);
    const others = await lookup(a.receipt.policyNumber!, b.receipt.accessToken);
    const unknown = await lookup('POL-2026-ZZZZZZ', a.receipt.accessToken);
    const tooLong = await lookup('P'.repeat(500), a.receipt.accessToken);
    for (const res of [wrong, others, unknown, tooLong]) {
      expect(res.status).toBe(404);
      expect(res.headers['cache-control']).toBe('private, no-store');
      expect(bodyOf(res)).toEqual({
        error: 'No policy matches this policy number and access token',
        code: 'policy_not_found',
      });
    }
  });

  it('answers 401 with WWW-Authenticate: Bearer without a bearer token (revealing nothing)', async () => {
    const { receipt } = await boughtPolicy();
    for (const res of [
      await lookup(receipt.policyNumber!),
      await request(h.app)
        .get(`/api/v1/policies/${receipt.policyNumber}`)
        .set('Authorization', `Basic ${receipt.accessToken}`),
      await lookup('POL-2026-ZZZZZZ'),
    ]) {
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer realm="policies"');
      expect(res.body.code).toBe('unauthorized');
      expect(JSON.stringify(res.body)).not.toContain(receipt.policyNumber!.slice(4));
    }
  });

  it('names the travelers when the checkout link collected them', async () => {
    const q = await newQuote();
    const link = await request(h.app)
      .post('/api/v1/checkout')
      .send({
        quoteId: q.quoteId,
        planId: q.plan.planId,
        sessionId: q.sessionId,
        guestNames: ['Ada Lovelace', 'Charles Babbage'],
      });
    const path = new URL(link.body.checkoutUrl as string).pathname;
    expect(
      (
        await request(h.app)
          .post(`${path}/pay`)
          .type('form')
          .send({ cardNumber: TEST_CARDS.success, expiry: '12/30', cvc: '123' })
      ).status,
    ).toBe(303);
    const policy = await h.db.prisma.policy.findUniqueOrThrow({ where: { quoteId: q.quoteId } });

    const res = await lookup(policy.policyNumber, DEV_TOKENS.tokenFor(policy));
    expect(res.body.travelers).toEqual({ count: 2, ages: [45, 52], names: ['Ada Lovelace', 'Charles Babbage'] });
    // …and so do the certificate and the policy page.
    if (hasPdftotext) {
      const flat = pdfText((await certificate(res.body.documentUrl as string)).body as Buffer).replace(/\s+/g, ' ');
      expect(flat).toContain('Insured persons Ada Lovelace, age 45 Charles Babbage, age 52');
    }
    const policyPage = await request(h.app).get((res.body.pageUrl as string).replace(PUBLIC_URL, ''));
    expect(policyPage.text).toContain('Ada Lovelace, age 45<br>Charles Babbage, age 52');

    // The success page of the link (its holder is the buyer) links the certificate, in a new tab.
    const page = await request(h.app).get(path);
    expect(page.text).toContain(
      `<a id="certificate" class="button" href="${PUBLIC_URL}/api/v1/policies/${policy.policyNumber}/certificate.pdf?access_token=${DEV_TOKENS.tokenFor(policy)}" target="_blank" rel="noopener noreferrer">`,
    );
  });
});
