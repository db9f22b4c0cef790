import pino from 'pino';
import request from 'supertest';
import { createRateLimiter, hashToken } from '@expedition/platform';
import { checkoutMessages } from '@expedition/i18n/documents';
import { EMAIL_FIELD_HINT } from '../src/checkout/checkout.page';
import { createStripeProcessor } from '@expedition/payments';
import { startFakeStripeServer, type FakeStripeServer } from '@expedition/payments/testing';
import { createApp } from '../src/app';
import { antarcticaQuote, createHarness, MPP_NETWORK_ID, MPP_TEST_SECRET, type Harness } from './harness';

/** PAYMENTS_PROVIDER=stripe: the checkout link shows Stripe's Payment Element (real adapter, offline fake Stripe). */
let fake: FakeStripeServer;
let h: Harness;
beforeAll(async () => {
  fake = await startFakeStripeServer();
  const processor = createStripeProcessor({
    testSecretKey: 'sk_test_checkout',
    webhookSecrets: ['whsec_checkout'],
    host: fake.host,
    port: fake.port,
    protocol: fake.protocol,
  });
  h = await createHarness();
  h.app = createApp({
    prisma: h.db.prisma,
    ready: () => h.db.ping(),
    logger: pino({ level: 'silent' }),
    clock: h.clock,
    publicUrl: 'http://quote.test',
    rateLimiter: createRateLimiter({ points: 1000, durationSec: 60 }),
    payments: {
      processor,
      mpp: {
        secrets: [MPP_TEST_SECRET],
        realm: 'quote.test',
        networkId: MPP_NETWORK_ID,
        paymentMethodTypes: ['card'],
        challengeTtlMs: 300_000,
      },
      stripePublishableKeys: { test: 'pk_test_checkoutpage' },
    },
  });
});
afterAll(async () => {
  await h.close();
  await fake.close();
});

async function openLink(linkFields: { email?: string } = {}, locale?: string) {
  const q = (
    await request(h.app)
      .post('/api/v1/quotes')
      .send({ ...antarcticaQuote, ...(locale ? { locale } : {}) })
  ).body;
  const link = await request(h.app)
    .post('/api/v1/checkout')
    .send({ quoteId: q.quoteId, planId: q.plans[0].planId, sessionId: q.sessionId, ...linkFields });
  const path = new URL(link.body.checkoutUrl).pathname;
  return { path, premiumCents: q.plans[0].estimatedPremiumCents as number, quoteId: q.quoteId as string };
}

const storedEmail = async (path: string) =>
  (await h.db.prisma.checkoutSession.findUniqueOrThrow({ where: { tokenHash: hashToken(path.split('/').pop()!) } }))
    .email;

describe('checkout link with Stripe', () => {
  it("renders Stripe's Payment Element for the link's one PaymentIntent, with a CSP that admits only Stripe (and its own origin, for the e-mail)", async () => {
    const { path, premiumCents } = await openLink();
    const first = await request(h.app).get(path);
    expect(first.status).toBe(200);
    expect(first.text).toContain('https://js.stripe.com/v3/');
    expect(first.text).toContain('pk_test_checkoutpage');
    expect(first.text).not.toContain('name="cardNumber"');
    const secret = /"clientSecret":"([^"]+)"/.exec(first.text)![1]!;
    expect(secret).toMatch(/^pi_.+_secret_/);
    const csp = first.headers['content-security-policy'];
    expect(csp).toMatch(/script-src 'nonce-[^']+' https:\/\/js\.stripe\.com/);
    expect(csp).toMatch(/frame-src https:\/\/js\.stripe\.com/);
    expect(csp).toMatch(/frame-ancestors 'none'/);

    const again = await request(h.app).get(path);
    expect(/"clientSecret":"([^"]+)"/.exec(again.text)![1]).toBe(secret);
    const created = fake.requests.filter((r) => r.method === 'POST' && r.path === '/v1/payment_intents');
    expect(created.length).toBeGreaterThan(0);
    expect(new Set(created.map((r) => r.idempotencyKey)).size).toBe(1);
    expect(created[0]!.body).toMatchObject({ amount: String(premiumCents), currency: 'usd' });
  });

  it('shows progress after Stripe redirects back, and refuses the raw card form', async () => {
    const { path } = await openLink();
    const back = await request(h.app).get(`${path}?payment_intent=pi_x&redirect_status=succeeded`);
    expect(back.text).toContain('Your policy is being issued');
    const posted = await request(h.app).post(`${path}/pay`).type('form').send({ cardNumber: '4242424242424242' });
    expect(posted.status).toBe(402);
    expect(posted.text).toContain('Pay with the secure form on this page.');
  });

  it('asks for the optional e-mail above the Payment Element when no address is known, and stores it on the link before paying', async () => {
    const { path } = await openLink();
    const page = await request(h.app).get(path);
    expect(page.text).toContain('name="email" type="email"');
    expect(page.text).toContain(EMAIL_FIELD_HINT.replace(/'/g, '&#39;'));
    expect(page.text).toContain("fetch(location.pathname+'/email'");
    // The script posts the address to the page's own origin, so the CSP allows exactly that besides Stripe.
    expect(page.headers['content-security-policy']).toMatch(/connect-src 'self' https:\/\/api\.stripe\.com/);

    const refused = await request(h.app).post(`${path}/email`).type('form').send({ email: 'not an address' });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toContain('Nothing was charged');
    expect(await storedEmail(path)).toBeNull();

    const stored = await request(h.app).post(`${path}/email`).type('form').send({ email: ' grace@example.com ' });
    expect(stored.status).toBe(204);
    expect(await storedEmail(path)).toBe('grace@example.com');
    // Known now: the page no longer asks, and a second address does not replace the first.
    expect((await request(h.app).get(path)).text).not.toContain('name="email"');
    await request(h.app).post(`${path}/email`).type('form').send({ email: 'mallory@example.com' });
    expect(await storedEmail(path)).toBe('grace@example.com');
  });

  it("answers a refused address in the page's language: the quote's, its ?locale=, else Accept-Language", async () => {
    const { path } = await openLink({}, 'de');
    expect((await request(h.app).get(path)).text).toContain("fetch(location.pathname+'/email'+location.search");
    const send = (url: string, email: string, headers: Record<string, string> = {}) =>
      request(h.app).post(url).set(headers).type('form').send({ email });

    const de = await send(`${path}/email`, 'not an address');
    expect(de.status).toBe(400);
    expect(de.body).toEqual({ message: checkoutMessages('de').errors.invalidEmail() });
    const fr = await send(`${path}/email?locale=fr`, 'not an address');
    expect(fr.body).toEqual({ message: checkoutMessages('fr').errors.invalidEmail() });
    expect(fr.body.message).toContain('Rien n’a été débité');

    await h.db.prisma.checkoutSession.update({
      where: { tokenHash: hashToken(path.split('/').pop()!) },
      data: { status: 'expired' },
    });
    const expired = await send(`${path}/email?locale=es`, 'a@example.com');
    expect(expired.status).toBe(410);
    expect(expired.body).toEqual({ message: checkoutMessages('es').errors.linkExpired() });
    expect(await storedEmail(path)).toBeNull();

    const unknown = await send('/checkout/cs_unknownunknownunknownunknown/email', 'a@example.com', {
      'Accept-Language': 'fr-CH, en;q=0.5',
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: checkoutMessages('fr').errors.linkUnknown() });
    // English, word for word as before, for an English link.
    const en = await openLink();
    expect((await send(`${en.path}/email`, 'nope')).body.message).toBe(checkoutMessages('en').errors.invalidEmail());
    expect(checkoutMessages('en').errors.linkUnknown()).toBe('This checkout link is not valid. Nothing was charged.');
  });

  it('does not ask when the link already has an address, and an unknown link takes none', async () => {
    const { path } = await openLink({ email: 'ada@example.com' });
    const page = await request(h.app).get(path);
    expect(page.text).toContain('id="payment-element"');
    expect(page.text).not.toContain('name="email"');
    await request(h.app).post(`${path}/email`).type('form').send({ email: 'other@example.com' });
    expect(await storedEmail(path)).toBe('ada@example.com');

    const unknown = await request(h.app)
      .post('/checkout/cs_unknownunknownunknownunknown/email')
      .type('form')
      .send({ email: 'a@example.com' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toMatch(/not valid/);
  });
});
