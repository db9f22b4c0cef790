import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { TEST_CARDS } from '@expedition/payments';
import { antarcticaQuote, createHarness, type Harness } from './harness';

/**
 * What the payer sees on a checkout link after paying (issue 7 §5): the policy bought through this link, the policy
 * being issued, or the news that the quote was bought another way and this link charged nothing.
 */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

async function quoteWithLink(extra: Record<string, unknown> = {}) {
  const quote = await request(h.app)
    .post('/api/v1/quotes')
    .send({ ...antarcticaQuote, ...extra });
  expect(quote.status).toBe(200);
  const plan = (quote.body.plans as { planId: string; planName: string; availabilityMode: string }[]).find(
    (p) => p.availabilityMode === 'full',
  )!;
  const link = () =>
    request(h.app)
      .post('/api/v1/checkout')
      .send({
        quoteId: quote.body.quoteId,
        planId: plan.planId,
        sessionId: quote.body.sessionId,
        guestNames: ['Ada Lovelace', 'Charles Babbage'],
      })
      .then((res) => new URL(res.body.checkoutUrl as string).pathname);
  return { quoteId: quote.body.quoteId as string, quoteNumber: quote.body.quoteNumber as string, plan, link };
}

const payWith = (link: string, cardNumber: string) =>
  request(h.app).post(`${link}/pay`).type('form').send({ cardNumber, expiry: '12/30', cvc: '123' });

const newestSession = (quoteId: string) =>
  h.db.prisma.checkoutSession.findFirstOrThrow({ where: { quoteId }, orderBy: { createdAt: 'desc' } });

/** A succeeded payment on a link that no purchase records yet: what the page sees before the processor event lands. */
async function succeededPaymentOn(quoteId: string) {
  const session = await newestSession(quoteId);
  await h.db.prisma.payment.create({
    data: {
      quoteId,
      planId: session.planId,
      mode: 'test',
      channel: 'checkout_link',
      processor: 'simulated',
      processorPaymentId: `pi_sim_${randomBytes(8).toString('hex')}`,
      amountCents: session.premiumCents,
      currency: session.currency,
      status: 'succeeded',
      checkoutSessionId: session.id,
    },
  });
}

function expectStrictPage(res: request.Response) {
  expect(res.headers['content-security-policy']).toMatch(
    /default-src 'none'; style-src 'nonce-[^']+'; script-src 'nonce-[^']+';/,
  );
  expect(res.headers['cache-control']).toBe('no-store');
  expect(res.headers['referrer-policy']).toBe('no-referrer');
  expect(res.text).not.toContain('<script');
  expect(res.text).not.toContain('name="cardNumber"');
}

describe('GET /checkout/{token} after paying', () => {
  it('shows the policy bought through this link: number, plan, premium, dates, destination name, travelers, next steps', async () => {
    const q = await quoteWithLink({ email: 'ada@example.com' });
    const link = await q.link();
    expect((await payWith(link, TEST_CARDS.success)).status).toBe(303);

    const page = await request(h.app).get(link);

    expect(page.status).toBe(200);
    expectStrictPage(page);
    const policy = await h.db.prisma.policy.findUniqueOrThrow({ where: { quoteId: q.quoteId } });
    expect(page.text).toContain(
      `Payment received — policy <span id="policy-number" class="nowrap">${policy.policyNumber}</span>`,
    );
    expect(page.text).toContain(q.plan.planName);
    const premium = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(
      policy.premiumCents / 100,
    );
    expect(page.text).toContain(`<dd class="premium">${premium}</dd>`);
    expect(page.text).toContain('<dd>Antarctica</dd>');
    expect(page.text).not.toContain('antarctica');
    expect(page.text).toContain(
      '<span class="nowrap">10 Jan 2027</span> → <span class="nowrap">24 Jan 2027</span> (14 days)',
    );
    expect(page.text).toContain('Ada Lovelace, Charles Babbage; ages 45, 52');
    expect(page.text).toContain('What happens next');
    expect(page.text).toContain(
      'A confirmation e-mail with your certificate attached is being sent to <strong>ada@example.com</strong>',
    );
    expect(page.text).toContain(`Keep your quote number <strong>${q.quoteNumber}</strong>`);
    expect(page.text).toContain('Test mode: no money moved');
    expect(page.text).not.toContain('already paid');
    // A test policy took no money (the notice says so), so the premium is not "paid"; the policy page is one click away.
    expect(page.text).toContain('<dt>Premium</dt>');
    expect(page.text).not.toContain('Premium paid');
    const pageUrl = `http://quote.test/policies/${policy.policyNumber}?access_token=`;
    expect(page.text).toContain(`<a id="policy-page" href="${pageUrl}`);
  });

  it('asks for an optional address when none is known, says what an empty field means, and queues the mail to the one typed', async () => {
    const q = await quoteWithLink();
    const link = await q.link();
    const form = await request(h.app).get(link);
    expect(form.text).toContain('name="email" type="email"');
    expect(form.text).toContain('Leave it empty and no e-mail is sent');

    const refused = await request(h.app)
      .post(`${link}/pay`)
      .type('form')
      .send({ email: 'not an address', cardNumber: TEST_CARDS.success, expiry: '12/30', cvc: '123' });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('That e-mail address does not look right');
    expect(await h.db.prisma.payment.count({ where: { quoteId: q.quoteId } })).toBe(0);
    expect((await newestSession(q.quoteId)).email).toBeNull();

    const paid = await request(h.app)
      .post(`${link}/pay`)
      .type('form')
      .send({ email: 'grace@example.com', cardNumber: TEST_CARDS.success, expiry: '12/30', cvc: '123' });
    expect(paid.status).toBe(303);
    const policy = await h.db.prisma.policy.findUniqueOrThrow({
      where: { quoteId: q.quoteId },
      include: { mails: true },
    });
    expect(policy.mails.map((m) => [m.kind, m.recipient, m.status])).toEqual([
      ['confirmation', 'grace@example.com', 'pending'],
    ]);
    expect((await request(h.app).get(link)).text).toContain('is being sent to <strong>grace@example.com</strong>');
  });

  it('says plainly that no e-mail is sent when no address was given, and where the documents are', async () => {
    const q = await quoteWithLink();
    const link = await q.link();
    expect((await payWith(link, TEST_CARDS.success)).status).toBe(303);

    const page = await request(h.app).get(link);

    const policy = await h.db.prisma.policy.findUniqueOrThrow({
      where: { quoteId: q.quoteId },
      include: { mails: true },
    });
    expect(policy.mails.map((m) => [m.recipient, m.status])).toEqual([[null, 'no_address']]);
    expect(page.text).toContain('No e-mail is sent for this policy: no address was given.');
    expect(page.text).not.toMatch(/being sent|emailed/);
  });

  it('does not ask for an address the quote already carries', async () => {
    const q = await quoteWithLink({ email: 'ada@example.com' });
    expect((await request(h.app).get(await q.link())).text).not.toContain('name="email"');
  });

  it('says "issuing your policy" and refreshes itself (meta refresh, no script) while the payment has no policy yet', async () => {
    const q = await quoteWithLink();
    const link = await q.link();
    await succeededPaymentOn(q.quoteId);

    const page = await request(h.app).get(link);

    expect(page.status).toBe(200);
    expectStrictPage(page);
    expect(page.text).toContain('Payment received — issuing your policy…');
    expect(page.text).toContain('<meta http-equiv="refresh" content="3">');
    expect(page.text).toContain(q.quoteNumber);
  });

  it('tells a second link that the quote was bought through the first, and that nothing was charged on it', async () => {
    const q = await quoteWithLink();
    const first = await q.link();
    const second = await q.link();
    expect((await payWith(first, TEST_CARDS.success)).status).toBe(303);

    const page = await request(h.app).get(second);

    expectStrictPage(page);
    const policy = await h.db.prisma.policy.findUniqueOrThrow({ where: { quoteId: q.quoteId } });
    expect(page.text).toContain('This trip is already insured');
    expect(page.text).toContain(`policy <strong class="nowrap">${policy.policyNumber}</strong>`);
    expect(page.text).toContain('Nothing was charged on this link.');
    expect(page.text).not.toContain('Payment received');
    // The first link still shows its own confirmation.
    expect((await request(h.app).get(first)).text).toContain(
      `Payment received — policy <span id="policy-number" class="nowrap">${policy.policyNumber}`,
    );
  });

  it('does not claim "nothing was charged" when this link also took a payment that the purchase did not use', async () => {
    const q = await quoteWithLink();
    const first = await q.link();
    const second = await q.link();
    await succeededPaymentOn(q.quoteId); // on the second, newest link
    expect((await payWith(first, TEST_CARDS.success)).status).toBe(303);

    const page = await request(h.app).get(second);

    expect(page.text).toContain('This trip is already insured');
    expect(page.text).toContain('refunded automatically');
    expect(page.text).not.toContain('Nothing was charged');
  });

  it('shows the destination by name before paying too', async () => {
    const q = await quoteWithLink();
    const page = await request(h.app).get(await q.link());

    expect(page.text).toContain('<dt>Destination</dt><dd>Antarctica</dd>');
    expect(page.text).toContain('name="cardNumber"');
  });
});
