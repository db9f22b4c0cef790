import request from 'supertest';
import { QuoteResponseSchema, TRAVELER_LOCALES } from '@expedition/contracts';
import { LOCALES } from '@expedition/i18n';
import { antarcticaQuote } from './harness';
import { h, useTravelerLanguageHarness, storedLocale } from './traveler-language-harness';

/** The traveler's language recorded on the quote (issue 22), and the quote's checkout link written in it. */
useTravelerLanguageHarness();

describe("POST /api/v1/quotes records the traveler's language", () => {
  it("takes `locale` by language (de-AT → de) and answers it as the quote's `locale`", async () => {
    const res = await request(h.app)
      .post('/api/v1/quotes')
      .send({ ...antarcticaQuote, locale: 'de-AT' });
    expect(res.status).toBe(200);
    expect(QuoteResponseSchema.parse(res.body).locale).toBe('de');
    expect(await storedLocale(res.body.quoteId)).toBe('de');
  });

  it('falls back to Accept-Language (q-values), and to English for a language we do not write', async () => {
    const fr = await request(h.app)
      .post('/api/v1/quotes')
      .set('Accept-Language', 'it;q=0.9, fr-CH, en;q=0.5')
      .send(antarcticaQuote);
    expect(fr.body.locale).toBe('fr');
    expect(await storedLocale(fr.body.quoteId)).toBe('fr');
    const explicitWins = await request(h.app)
      .post('/api/v1/quotes')
      .set('Accept-Language', 'fr')
      .send({ ...antarcticaQuote, locale: 'es-MX' });
    expect(explicitWins.body.locale).toBe('es');
    const unsupported = await request(h.app)
      .post('/api/v1/quotes')
      .set('Accept-Language', 'pt-BR')
      .send({ ...antarcticaQuote, locale: 'ja' });
    expect(unsupported.body.locale).toBe('en');
    expect(await storedLocale(unsupported.body.quoteId)).toBe('en');
  });

  it('answers 400 for a `locale` that is not a language tag and writes nothing', async () => {
    const before = await h.db.prisma.quote.count();
    const res = await request(h.app)
      .post('/api/v1/quotes')
      .send({ ...antarcticaQuote, locale: 'de_DE<script>' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_request');
    expect(await h.db.prisma.quote.count()).toBe(before);
  });

  it('lists the same languages in the contract as libs/i18n writes', () => {
    expect([...TRAVELER_LOCALES]).toEqual([...LOCALES]);
  });
});

describe('the checkout link in the language of its quote', () => {
  async function linkFor(locale: string) {
    const quote = await request(h.app)
      .post('/api/v1/quotes')
      .send({ ...antarcticaQuote, locale });
    const plan = (quote.body.plans as { planId: string; availabilityMode: string }[]).find(
      (p) => p.availabilityMode === 'full',
    )!;
    const res = await request(h.app)
      .post('/api/v1/checkout')
      .send({ quoteId: quote.body.quoteId, planId: plan.planId, sessionId: quote.body.sessionId });
    return new URL(res.body.checkoutUrl as string).pathname;
  }
  const payWith = (path: string, cardNumber: string) =>
    request(h.app).post(path).type('form').send({ cardNumber, expiry: '12/30', cvc: '123' });

  it('shows the payment page, a declined card and the receipt in German for a German quote', async () => {
    const link = await linkFor('de');
    const page = await request(h.app).get(link);
    expect(page.status).toBe(200);
    expect(page.headers['content-language']).toBe('de');
    expect(page.text).toContain('<html lang="de">');
    for (const t of [
      'Schließen Sie Ihre Expeditionsversicherung ab',
      'Antarktis',
      '10. Jan. 2027',
      '(14 Tage)',
      'Bezahlen und Police ausstellen',
      'Testmodus: Es fließt kein Geld',
      '4242 4242 4242 4242',
      'Minuten</strong>',
    ]) {
      expect(page.text).toContain(t);
    }
    expect(page.text).toMatch(/\d{1,3}(\.\d{3})*,\d{2}\u00a0\$/); // the premium, German style
    expect(page.text).toContain('data-countdown="%m Min. %s Sek."');
    expect(page.text).not.toContain('Complete your expedition insurance');

    const declined = await payWith(link, '4000 0000 0000 0002');
    expect(declined.status).toBe(402);
    expect(declined.text).toContain('Ihre Karte wurde abgelehnt. Verwenden Sie eine andere Karte.');

    const paid = await payWith(link, '4242 4242 4242 4242');
    expect(paid.status).toBe(303);
    const receipt = await request(h.app).get(paid.headers['location'] as string);
    expect(receipt.text).toContain('<html lang="de">');
    expect(receipt.text).toContain('Zahlung eingegangen — Police <span id="policy-number"');
    expect(receipt.text).toContain('Ihre Versicherungsbestätigung herunterladen (PDF)');
  });

  it('switches language with ?locale=, keeps it across the form post, and answers an unknown link by Accept-Language', async () => {
    const link = await linkFor('de');
    const fr = await request(h.app).get(`${link}?locale=fr`);
    expect(fr.text).toContain('<html lang="fr">');
    expect(fr.text).toContain('Finalisez votre assurance expédition');
    for (const l of LOCALES) expect(fr.text).toContain(`<a href="?locale=${l}" hreflang="${l}" lang="${l}"`);
    const declined = await payWith(`${link}?locale=es`, '4000 0000 0000 9995');
    expect(declined.text).toContain('Su tarjeta no tiene fondos suficientes.');
    const paid = await payWith(`${link}?locale=es`, '4242 4242 4242 4242');
    expect(paid.headers['location']).toBe(`${link}?locale=es`);

    const unknown = await request(h.app)
      .get('/checkout/cs_unknownunknownunknown1234')
      .set('Accept-Language', 'fr-FR,fr;q=0.9');
    expect(unknown.status).toBe(404);
    expect(unknown.text).toContain('Ce lien de paiement n’est pas valide');
  });
});
