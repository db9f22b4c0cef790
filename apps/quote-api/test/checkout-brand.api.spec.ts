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
async function linkFor(operatorName?: string, branding: { brandColor?: string; logoUrl?: string } = {}) {
  const quote = await request(h.app).post('/api/v1/quotes').send(antarcticaQuote);
  expect(quote.status).toBe(200);
  const plan = (quote.body.plans as { planId: string; availabilityMode: string }[]).find(
    (p) => p.availabilityMode === 'full',
  )!;
  if (operatorName) {
    const operator = await h.db.prisma.operator.create({ data: { name: operatorName, status: 'active', ...branding } });
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

describe('an operator’s branding on the checkout pages (set in the portal, operator-branding.router.spec.ts)', () => {
  it('uses the brand colour as the accent and shows the logo, its origin alone allowed by img-src', async () => {
    const { link } = await linkFor('Fjord Line', {
      brandColor: '#7a1f5c',
      logoUrl: 'https://cdn.fjord.example/brand/logo.png?v=2',
    });
    const page = await request(h.app).get(link);
    expect(page.status).toBe(200);
    expect(page.text).toContain(':root{--svc-accent:#7a1f5c;--svc-accent-contrast:#ffffff}');
    expect(page.text).toContain(
      '<img class="brand-logo" src="https://cdn.fjord.example/brand/logo.png?v=2" alt="Fjord Line" width="160" height="40">',
    );
    const csp = page.headers['content-security-policy'] as string;
    expect(csp).toContain("img-src 'self' data: https://cdn.fjord.example;");
    expect(csp).toMatch(/style-src 'nonce-[^']+';/);
  });

  it('ignores a stored value that is not a plain colour or an https URL (no CSS or CSP injection)', async () => {
    const { link } = await linkFor('Sneaky Tours', {
      brandColor: '#000;}body{display:none',
      logoUrl: 'javascript:alert(1)',
    });
    const page = await request(h.app).get(link);
    expect(page.text).not.toContain('display:none');
    expect(page.text).not.toContain('javascript:');
    expect(page.text).not.toContain('<img');
    expect(page.headers['content-security-policy']).toContain("img-src 'self' data:;");
    const http = await linkFor('Plain Tours', { logoUrl: 'http://cdn.plain.example/logo.png' });
    const plain = await request(h.app).get(http.link);
    expect(plain.text).not.toContain('<img');
    expect(plain.headers['content-security-policy']).toContain("img-src 'self' data:;");
  });

  it('keeps the branding on the page after paying', async () => {
    const { link } = await linkFor('Fjord Line', { brandColor: '#0f5132', logoUrl: 'https://cdn.fjord.example/l.svg' });
    await request(h.app)
      .post(`${link}/pay`)
      .type('form')
      .send({ cardNumber: TEST_CARDS.success, expiry: '12/30', cvc: '123' });
    const page = await request(h.app).get(link);
    expect(page.text).toContain('id="policy-number"');
    expect(page.text).toContain('--svc-accent:#0f5132');
    expect(page.text).toContain('alt="Fjord Line"');
    expect(page.headers['content-security-policy']).toContain("img-src 'self' data: https://cdn.fjord.example;");
  });
});
