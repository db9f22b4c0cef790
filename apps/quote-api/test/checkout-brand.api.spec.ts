import request from 'supertest';
import { TEST_CARDS } from '@expedition/payments';
import { antarcticaQuote, createHarness, type Harness } from './harness';

/**
 * Whose page a checkout link is (issue "smoothness" 11): the operator the quote came through, by its display name, and
 * the plan's carrier, marked illustrative as on the certificate; on the payment page and on the page after paying.
 */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

/** A quote and its checkout link; `operatorName`: the quote is attributed to an operator of that name. */
async function linkFor(operatorName?: string) {
  const quote = await request(h.app).post('/api/v1/quotes').send(antarcticaQuote);
  expect(quote.status).toBe(200);
  const plan = (quote.body.plans as { planId: string; availabilityMode: string }[]).find(
    (p) => p.availabilityMode === 'full',
  )!;
  if (operatorName) {
    const operator = await h.db.prisma.operator.create({ data: { name: operatorName, status: 'active' } });
    await h.db.prisma.quote.update({ where: { id: quote.body.quoteId }, data: { operatorId: operator.id } });
  }
  const res = await request(h.app)
    .post('/api/v1/checkout')
    .send({ quoteId: quote.body.quoteId, planId: plan.planId, sessionId: quote.body.sessionId });
  expect(res.status).toBe(200);
  const carrier = (await h.db.prisma.plan.findUniqueOrThrow({ where: { id: plan.planId } })).carrier;
  return { link: new URL(res.body.checkoutUrl as string).pathname, carrier };
}

const bare = (carrier: string) => carrier.replace(/ \(illustrative\)$/, '');

describe('the checkout page names the operator and the carrier', () => {
  it('shows the operator’s display name (escaped) and the carrier marked illustrative', async () => {
    const { link, carrier } = await linkFor('Polar <b>Voyages</b> & Co');
    expect(carrier).toMatch(/ \(illustrative\)$/);
    const page = await request(h.app).get(link);
    expect(page.status).toBe(200);
    expect(page.text).toContain(
      '<p class="brand-name" id="operator"><span>Offered by Polar &lt;b&gt;Voyages&lt;/b&gt; &amp; Co</span>',
    );
    expect(page.text).not.toContain('<b>Voyages</b>');
    expect(page.text).toContain(`<dt>Carrier</dt><dd id="carrier">${bare(carrier)} (illustrative)</dd>`);
    // The CSP is unchanged: one nonce for the inline style, no stylesheet route, no inline style attribute.
    const nonce = /style-src 'nonce-([^']+)'/.exec(page.headers['content-security-policy'] as string)![1];
    expect(page.text).toContain(`<style nonce="${nonce}">`);
    expect(page.text).not.toMatch(/ style="/);
  });

  it('says it in German with ?locale=de', async () => {
    const { link, carrier } = await linkFor('Eismeer Reisen');
    const page = await request(h.app).get(`${link}?locale=de`);
    expect(page.text).toContain('Angeboten von Eismeer Reisen');
    expect(page.text).toContain(`<dt>Versicherer</dt><dd id="carrier">${bare(carrier)} (fiktiv)</dd>`);
  });

  it('names no operator for a quote that came through none, and still names the carrier', async () => {
    const { link, carrier } = await linkFor();
    const page = await request(h.app).get(link);
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('id="operator"');
    expect(page.text).toContain(`<dd id="carrier">${bare(carrier)} (illustrative)</dd>`);
  });

  it('keeps both on the page after paying, with the certificate as a button in the accent colour', async () => {
    const { link, carrier } = await linkFor('Southern Ice Expeditions');
    const paid = await request(h.app)
      .post(`${link}/pay`)
      .type('form')
      .send({ cardNumber: TEST_CARDS.success, expiry: '12/30', cvc: '123' });
    expect(paid.status).toBe(303);
    const page = await request(h.app).get(link);
    expect(page.text).toContain('id="policy-number"');
    expect(page.text).toContain('Offered by Southern Ice Expeditions');
    expect(page.text).toContain(`<dd id="carrier">${bare(carrier)} (illustrative)</dd>`);
    expect(page.text).toContain('<a id="certificate" class="button"');
    expect(page.text).toContain('a{color:var(--svc-accent)');
  });
});
