import { formatAuthorizationPayment, parsePaymentChallenges, parsePaymentReceipt } from '@expedition/payments';
import { launch, waitForPolicyIssued, type Launched } from './launcher-harness';

/**
 * The whole money path on the all-in-one launcher (`npm start`): a payment ends at the processor, which reports to
 * the dispatcher, which issues the policy and commission and delivers a signed policy.issued that the demo
 * operator's receiver verifies (X-SVC-Signature over the raw body) before accepting it.
 */
let platform: Launched;
beforeAll(async () => {
  platform = await launch();
}, 120_000);
afterAll(async () => {
  expect(await platform.stop()).toBe(0);
});

const json = (body: unknown) => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
});

async function apiQuote() {
  const year = new Date().getUTCFullYear() + 1;
  const res = await fetch(
    `${platform.urls.quote}/api/v1/quotes`,
    json({
      destination: 'Antarctica',
      startDate: `${year}-01-10`,
      durationDays: 14,
      tripCost: 24000,
      travelers: 2,
      travelerAges: [45, 72],
      residence: 'US',
      state: 'CA',
      // Attribution is by exact operator id; a name is display only.
      operator: platform.demo.operatorId,
    }),
  );
  expect(res.status).toBe(200);
  return (await res.json()) as {
    quoteId: string;
    quoteNumber: string;
    sessionId: string;
    plans: { planId: string; estimatedPremiumCents: number }[];
  };
}

function expectPolicyIssued(
  payload: Record<string, unknown>,
  quote: { quoteId: string; quoteNumber: string },
  premiumCents: number,
) {
  expect(payload).toMatchObject({
    type: 'policy.issued',
    mode: 'test',
    operatorId: platform.demo.operatorId,
    quoteId: quote.quoteId,
    quoteNumber: quote.quoteNumber,
    premiumCents,
    commissionCents: Math.floor((premiumCents * 1000) / 10_000),
    currency: 'USD',
  });
  expect(payload['eventId']).toMatch(/^evt_/);
  expect(payload['policyNumber']).toMatch(/^POL-/);
}

/** The delivered documentUrl carries the policy's token (stored without it, added by the dispatcher) and opens it. */
async function expectCertificateOpens(payload: Record<string, unknown>) {
  const documentUrl = String(payload['documentUrl']);
  expect(documentUrl).toMatch(
    new RegExp(
      `^${platform.urls.quote}/api/v1/policies/${payload['policyNumber']}/certificate\\.pdf\\?access_token=pat_`,
    ),
  );
  const pdf = await fetch(documentUrl);
  expect(pdf.status).toBe(200);
  expect(pdf.headers.get('content-type')).toBe('application/pdf');
}

describe('money path on npm start', () => {
  it('checkout link: quote → link → test card → policy.issued verified by the operator', async () => {
    const quote = await apiQuote();
    const plan = quote.plans[0]!;
    const link = await fetch(
      `${platform.urls.quote}/api/v1/checkout`,
      json({ quoteId: quote.quoteId, planId: plan.planId, sessionId: quote.sessionId }),
    );
    const { checkoutUrl } = (await link.json()) as { checkoutUrl: string };

    const paid = await fetch(`${checkoutUrl}/pay`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'cardNumber=4242+4242+4242+4242&expiry=12%2F30&cvc=123',
      redirect: 'manual',
    });
    expect(paid.status).toBe(303);
    const confirmation = await (await fetch(checkoutUrl)).text();
    expect(confirmation).toMatch(/Payment received — policy <span id="policy-number" class="nowrap">POL-/);

    const received = await waitForPolicyIssued(platform.urls.demo, quote.quoteId);
    expectPolicyIssued(received.payload, quote, plan.estimatedPremiumCents);
    await expectCertificateOpens(received.payload);
    expect(confirmation).toContain(`>${received.payload['policyNumber']}</span>`);
    expect(received.payload['planId']).toBe(plan.planId);
  });

  it('MPP: 402 challenge → wallet credential → 200 receipt → policy.issued', async () => {
    const quote = await apiQuote();
    const plan = quote.plans[0]!;
    const body = { quoteId: quote.quoteId, planId: plan.planId };
    const first = await fetch(`${platform.urls.quote}/api/v1/purchase`, json(body));
    expect(first.status).toBe(402);
    const [challenge] = parsePaymentChallenges(first.headers.get('www-authenticate')!);

    const paid = await fetch(`${platform.urls.quote}/api/v1/purchase`, {
      ...json(body),
      headers: {
        'Content-Type': 'application/json',
        Authorization: formatAuthorizationPayment({ challenge: challenge!, payload: { spt: 'spt_test_success_e2e' } }),
      },
    });
    expect(paid.status).toBe(200);
    expect(await paid.json()).toMatchObject({
      status: 'purchased',
      quoteId: quote.quoteId,
      amountChargedCents: plan.estimatedPremiumCents,
    });
    expect(parsePaymentReceipt(paid.headers.get('payment-receipt')!)).toMatchObject({
      status: 'success',
      method: 'stripe',
    });

    const received = await waitForPolicyIssued(platform.urls.demo, quote.quoteId);
    expectPolicyIssued(received.payload, quote, plan.estimatedPremiumCents);
    await expectCertificateOpens(received.payload);
  });
});

describe('Tier 3 (in-iframe payment) on npm start', () => {
  it('embed quote → ready options → start payment → confirm test card → policy.issued', async () => {
    const headers = {
      'Content-Type': 'application/json',
      Origin: platform.urls.demo,
      'X-SVC-Publishable-Key': platform.demo.publishableKey,
    };
    const post = (path: string, body: unknown) =>
      fetch(`${platform.urls.embed}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
    const year = new Date().getUTCFullYear() + 1;
    const created = await post('/api/embed/quote', {
      destination: 'galapagos',
      tripCost: 9000,
      travelers: 1,
      travelerAges: [38],
      residence: 'DE',
      email: 'traveler@example.com',
      startDate: `${year}-03-01`,
      endDate: `${year}-03-11`,
    });
    expect(created.status).toBe(200);
    const quote = (await created.json()) as { quoteId: string; quoteNumber: string; instantQuoteEligible: boolean };
    expect(quote.instantQuoteEligible).toBe(true);

    let ready: { options: { planId: string; premiumCents: number; isRecommended: boolean }[]; pending?: boolean } = {
      options: [],
      pending: true,
    };
    for (let i = 0; i < 50 && ready.pending; i++) {
      const res = await fetch(`${platform.urls.embed}/api/embed/options?quoteId=${quote.quoteId}`, { headers });
      ready = await res.json();
      if (ready.pending) await new Promise((r) => setTimeout(r, 200));
    }
    const option = ready.options.find((o) => o.isRecommended)!;

    const started = await post('/api/embed/payments', { quoteId: quote.quoteId, planId: option.planId });
    expect(started.status).toBe(200);
    const payment = (await started.json()) as { paymentId: string; amountCents: number };
    expect(payment.amountCents).toBe(option.premiumCents);
    const confirmed = await post('/api/embed/payments/confirm', {
      paymentId: payment.paymentId,
      paymentMethod: '4242424242424242',
    });
    expect((await confirmed.json()).status).toBe('succeeded');

    const received = await waitForPolicyIssued(platform.urls.demo, quote.quoteId);
    expectPolicyIssued(received.payload, quote, option.premiumCents);
    await expectCertificateOpens(received.payload);
    expect(received.deliveries).toBe(1);
  });
});
