import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ACP_API_VERSION } from '@expedition/contracts';
import { formatAuthorizationPayment, parsePaymentChallenges } from '@expedition/payments';
import { launch, waitForPolicyIssued, type Launched } from './launcher-harness';
import { mailsOf, parseEml, pdfText, waitForMail } from './outbox';

/**
 * The policyholder's confirmation e-mail on `npm start`, one purchase through each channel's real HTTP route: exactly
 * one mail per policy, to the address that channel collected (the dispatcher's mail worker writes it to the outbox
 * under DATA_DIR), the certificate attached; none for a quote without an address.
 */
let platform: Launched;
beforeAll(async () => {
  platform = await launch({ env: { MAIL_POLL_INTERVAL_MS: '200' } });
}, 120_000);
afterAll(async () => {
  expect(await platform.stop()).toBe(0);
});

let seq = 0;
const unique = () => `${process.pid}-${++seq}`;
const year = new Date().getUTCFullYear() + 1;
const trip = () => ({
  destination: 'Antarctica',
  startDate: `${year}-01-10`,
  durationDays: 14,
  tripCost: 24000,
  travelers: 2,
  travelerAges: [45, 52],
  residence: 'GB',
  operator: platform.demo.operatorId,
});

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

const form = (url: string, fields: Record<string, string>) =>
  fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields),
    redirect: 'manual',
  });

const CARD = { cardNumber: '4242 4242 4242 4242', expiry: '12/30', cvc: '123' };

/** The policy a paid quote became, from the operator's verified policy.issued webhook. */
async function policyOf(quoteId: string): Promise<string> {
  const received = await waitForPolicyIssued(platform.urls.demo, quoteId, 30_000);
  return received.payload['policyNumber'] as string;
}

/** quote-api's `/api/v1/quotes` (what agents call), with an address or without. */
async function apiQuote(email?: string) {
  const res = await post(`${platform.urls.quote}/api/v1/quotes`, { ...trip(), ...(email ? { email } : {}) });
  expect(res.status).toBe(200);
  return (await res.json()) as { quoteId: string; sessionId: string; plans: { planId: string }[] };
}

/** The embed API as the iframe calls it: a quote with the traveler's address, then its ready options. */
function embed(origin: string) {
  const headers = { Origin: origin, 'X-SVC-Publishable-Key': platform.demo.publishableKey };
  const call = (route: string, body: unknown) => post(`${platform.urls.embed}${route}`, body, headers);
  async function quote(email: string) {
    const created = await call('/api/embed/quote', {
      destination: 'galapagos',
      tripCost: 9000,
      travelers: 1,
      travelerAges: [38],
      residence: 'DE',
      email,
      startDate: `${year}-03-01`,
      endDate: `${year}-03-11`,
    });
    expect(created.status).toBe(200);
    const { quoteId } = (await created.json()) as { quoteId: string };
    for (;;) {
      const res = await fetch(`${platform.urls.embed}/api/embed/options?quoteId=${quoteId}`, { headers });
      const ready = (await res.json()) as { pending?: boolean; options: { planId: string; isRecommended: boolean }[] };
      if (!ready.pending) return { quoteId, planId: ready.options.find((o) => o.isRecommended)!.planId };
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  return { call, quote };
}

async function mppPurchase(quoteId: string, planId: string) {
  const body = { quoteId, planId };
  const first = await post(`${platform.urls.quote}/api/v1/purchase`, body);
  expect(first.status).toBe(402);
  const [challenge] = parsePaymentChallenges(first.headers.get('www-authenticate')!);
  const paid = await post(`${platform.urls.quote}/api/v1/purchase`, body, {
    Authorization: formatAuthorizationPayment({
      challenge: challenge!,
      payload: { spt: `spt_test_success_${unique()}` },
    }),
  });
  expect(paid.status).toBe(200);
}

const channels: Record<string, (email: string) => Promise<string>> = {
  /** The iframe's own payment routes on embed-api (Tier 3). */
  async 'widget Tier 3'(email) {
    const api = embed(platform.urls.demo);
    const { quoteId, planId } = await api.quote(email);
    const started = await api.call('/api/embed/payments', { quoteId, planId });
    expect(started.status).toBe(200);
    const { paymentId } = (await started.json()) as { paymentId: string };
    const confirmed = await api.call('/api/embed/payments/confirm', { paymentId, paymentMethod: '4242424242424242' });
    expect((await confirmed.json()).status).toBe('succeeded');
    return policyOf(quoteId);
  },
  /** The hosted page (widget origin) quotes with the address, then buys through its checkout link: no field asked. */
  async 'Tier 1 hosted page'(email) {
    const api = embed(platform.urls.widget);
    const { quoteId, planId } = await api.quote(email);
    const link = await api.call('/api/embed/checkout', { quoteId, planId });
    expect(link.status).toBe(200);
    const { checkoutUrl } = (await link.json()) as { checkoutUrl: string };
    expect(await (await fetch(checkoutUrl)).text()).not.toContain('name="email"');
    expect((await form(`${checkoutUrl}/pay`, CARD)).status).toBe(303);
    return policyOf(quoteId);
  },
  /** An agent's checkout link for a quote without an address: the traveler types it on the page. */
  async 'checkout link, address typed on the page'(email) {
    const q = await apiQuote();
    const link = await post(`${platform.urls.quote}/api/v1/checkout`, {
      quoteId: q.quoteId,
      planId: q.plans[0]!.planId,
      sessionId: q.sessionId,
    });
    const { checkoutUrl } = (await link.json()) as { checkoutUrl: string };
    expect(await (await fetch(checkoutUrl)).text()).toContain('name="email"');
    expect((await form(`${checkoutUrl}/pay`, { ...CARD, email })).status).toBe(303);
    return policyOf(q.quoteId);
  },
  /** A machine payment (HTTP 402) of a quote that has an address. */
  async 'MPP purchase of a quote with email'(email) {
    const q = await apiQuote(email);
    await mppPurchase(q.quoteId, q.plans[0]!.planId);
    return policyOf(q.quoteId);
  },
  /** An ACP checkout session with `buyer.email`, under the launcher's demo agent key. */
  async 'ACP buyer.email'(email) {
    const { key } = JSON.parse(readFileSync(path.join(platform.dataDir, 'demo-agent-key.json'), 'utf8')) as {
      key: string;
    };
    const acp = (route: string, body: unknown) =>
      post(`${platform.urls.quote}/acp/v1${route}`, body, {
        Authorization: `Bearer ${key}`,
        'API-Version': ACP_API_VERSION,
        'Idempotency-Key': `idem-${unique()}`,
      });
    const planId = (await apiQuote()).plans[0]!.planId;
    const created = await acp('/checkout_sessions', {
      line_items: [{ id: planId }],
      currency: 'usd',
      capabilities: {},
      metadata: { trip: trip() },
      buyer: { email },
    });
    expect(created.status).toBe(201);
    const session = (await created.json()) as { id: string; status: string; quote_id: string };
    expect(session.status).toBe('ready_for_payment');
    const completed = await acp(`/checkout_sessions/${session.id}/complete`, {
      payment_data: {
        handler_id: 'stripe_spt',
        instrument: { type: 'card', credential: { type: 'spt', token: `spt_test_success_${unique()}` } },
      },
    });
    const order = (await completed.json()) as { status: string; order: { order_number: string } };
    expect(order.status).toBe('completed');
    expect(await policyOf(session.quote_id)).toBe(order.order.order_number);
    return order.order.order_number;
  },
};

describe('the confirmation e-mail through every channel on npm start', () => {
  it('sends exactly one mail per policy, to the address each channel collected, and none without an address', async () => {
    // First the sale without an address: by the time every later mail is in the outbox, its turn has long passed.
    const bare = await apiQuote();
    await mppPurchase(bare.quoteId, bare.plans[0]!.planId);
    const withoutAddress = await policyOf(bare.quoteId);

    const sold: { channel: string; email: string; policyNumber: string }[] = [];
    for (const [channel, buy] of Object.entries(channels)) {
      const email = `traveler+${channel.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}@example.org`;
      sold.push({ channel, email, policyNumber: await buy(email) });
    }
    expect(new Set(sold.map((s) => s.policyNumber)).size).toBe(sold.length);

    for (const { channel, email, policyNumber } of sold) {
      const record = await waitForMail(platform.dataDir, policyNumber);
      expect({ channel, to: record.to }).toEqual({ channel, to: email });
      expect(record.subject).toContain('[TEST]');
      const parsed = await parseEml(platform.dataDir, record);
      const pdf = parsed.attachments.find((a) => a.contentType === 'application/pdf');
      expect(pdf).toBeDefined();
      const certificate = pdfText(pdf!.content);
      expect(certificate).toContain(policyNumber);
      expect(certificate).not.toContain('I am an AI assistant');
    }
    // Every channel's mail is there: count them per policy (a second mail would be a second record).
    for (const { channel, policyNumber } of sold)
      expect({ channel, mails: mailsOf(platform.dataDir, policyNumber).length }).toEqual({ channel, mails: 1 });
    expect(mailsOf(platform.dataDir, withoutAddress)).toEqual([]);
  });
});
