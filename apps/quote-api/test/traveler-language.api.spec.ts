import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import request from 'supertest';
import {
  PolicyLookupSchema,
  PurchaseReceiptSchema,
  QuoteResponseSchema,
  TRAVELER_LOCALES,
} from '@expedition/contracts';
import { getPlan } from '@expedition/domain-pricing';
import { formatDay, LANGUAGE_NAMES, LOCALES } from '@expedition/i18n';
import { formatAuthorizationPayment, parsePaymentChallenges } from '@expedition/payments';
import { ASSISTANCE, WORDING_EDITION } from '@expedition/policy-documents';
import { antarcticaQuote, createHarness, PUBLIC_URL, type Harness } from './harness';

/**
 * The traveler's language (issue 22): the quote records it at creation (`locale`, else Accept-Language, by language,
 * else English), and the policy page, the certificate and the policy wording are written in it.
 */
const PDFTOTEXT = '/usr/bin/pdftotext';
const hasPdftotext = existsSync(PDFTOTEXT);
const pdfText = (pdf: Buffer) =>
  execFileSync(PDFTOTEXT, ['-layout', '-', '-'], { input: pdf }).toString('utf8').replace(/\s+/g, ' ');

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

const binary = (path: string) =>
  request(h.app)
    .get(path.replace(PUBLIC_URL, ''))
    .buffer(true)
    .parse((res, done) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => done(null, Buffer.concat(chunks)));
    });

const storedLocale = async (quoteId: string) =>
  (await h.db.prisma.quote.findUniqueOrThrow({ where: { id: quoteId } })).locale;

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

let counter = 0;
async function policyBoughtIn(locale: string) {
  const quote = await request(h.app)
    .post('/api/v1/quotes')
    .send({ ...antarcticaQuote, locale });
  const plan = (quote.body.plans as { planId: string; availabilityMode: string }[]).find(
    (p) => p.availabilityMode === 'full',
  )!;
  const body = { quoteId: quote.body.quoteId as string, planId: plan.planId };
  const challenge = parsePaymentChallenges(
    (await request(h.app).post('/api/v1/purchase').send(body)).headers['www-authenticate'] as string,
  )[0]!;
  const auth = formatAuthorizationPayment({ challenge, payload: { spt: `spt_test_success_lang_${++counter}` } });
  const receipt = PurchaseReceiptSchema.parse(
    (await request(h.app).post('/api/v1/purchase').set('Authorization', auth).send(body)).body,
  );
  const lookup = await request(h.app)
    .get(`/api/v1/policies/${receipt.policyNumber}`)
    .set('Authorization', `Bearer ${receipt.accessToken}`);
  return PolicyLookupSchema.parse(lookup.body);
}

describe('the policy page in the language the policy was bought in', () => {
  it('is German for a German quote: lang, words, dates, amounts, and a language switch that keeps the token', async () => {
    const policy = await policyBoughtIn('de');
    expect(policy.locale).toBe('de');
    const res = await request(h.app).get(policy.pageUrl!.replace(PUBLIC_URL, ''));
    expect(res.status).toBe(200);
    expect(res.headers['content-language']).toBe('de');
    expect(res.text).toContain('<html lang="de">');
    for (const text of [
      'Ihre Reiseversicherung',
      'Ausgestellt: Versicherungsschutz vom 10. Januar 2027 bis',
      'Versicherungsbestätigung (PDF)',
      'Schaden melden',
      'Antarktis',
      'Person 1, 45 Jahre',
      'Testpolice (Muster)',
    ]) {
      expect(res.text).toContain(text);
    }
    expect(res.text).toMatch(/\d{1,3}(\.\d{3})*,\d{2}\u00a0USD/); // the premium, German style, with its currency code
    expect(res.text).not.toContain('Your travel insurance policy');
    const token = policy.pageUrl!.split('access_token=')[1]!;
    for (const l of LOCALES) {
      expect(res.text).toContain(
        `href="${PUBLIC_URL}/policies/${policy.policyNumber}?access_token=${token}&amp;locale=${l}" hreflang="${l}" lang="${l}"`,
      );
    }
    expect(res.text).toContain(`aria-current="true">${LANGUAGE_NAMES.de}</a>`);
    expect(res.text).toContain(`href="${policy.documentUrl}&amp;locale=de"`);
  });

  it('switches language with ?locale= (French, Spanish), whatever the quote recorded', async () => {
    const policy = await policyBoughtIn('de');
    const fr = await request(h.app).get(`${policy.pageUrl!.replace(PUBLIC_URL, '')}&locale=fr`);
    expect(fr.text).toContain('<html lang="fr">');
    expect(fr.text).toContain('Votre police d’assurance voyage');
    expect(fr.text).toContain('10 janvier 2027');
    const es = await request(h.app).get(`${policy.pageUrl!.replace(PUBLIC_URL, '')}&locale=es`);
    expect(es.text).toContain('Su póliza de seguro de viaje');
    expect(es.text).toContain('10 de enero de 2027');
  });

  it('answers the not-found page in the language asked for (Accept-Language), the same for every wrong link', async () => {
    const res = await request(h.app)
      .get('/policies/POL-2026-ZZZZZZ?access_token=pat_nope')
      .set('Accept-Language', 'es-ES,es;q=0.9');
    expect(res.status).toBe(404);
    expect(res.text).toContain('<html lang="es">');
    expect(res.text).toContain('No hemos podido abrir esta póliza');
    expect(res.text).toContain(`href="tel:${ASSISTANCE.emergencyLine.e164}"`);
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

(hasPdftotext ? describe : describe.skip)('the certificate in the language recorded on the quote', () => {
  it('is German for a German quote, and Spanish when its link asks for Spanish', async () => {
    const policy = await policyBoughtIn('de-CH');
    const de = await binary(policy.documentUrl);
    expect(de.status).toBe(200);
    expect(de.headers['content-language']).toBe('de');
    const text = pdfText(de.body as Buffer);
    for (const t of [
      'Versicherungsbestätigung',
      'MUSTER / TEST',
      'Policennummer',
      'Versicherte Personen',
      'Person 1, 45 Jahre',
      '10. Januar 2027',
      'Selbstbeteiligung',
      'Schaden melden',
    ]) {
      expect(text).toContain(t);
    }
    expect(text).not.toContain('Certificate of Insurance');
    const es = pdfText((await binary(`${policy.documentUrl}&locale=es`)).body as Buffer);
    expect(es).toContain('Certificado de seguro');
    expect(es).toContain('MUESTRA / PRUEBA');
  });

  it('prints French numbers (narrow no-break spaces) with the built-in font', async () => {
    const policy = await policyBoughtIn('fr');
    const text = pdfText((await binary(policy.documentUrl)).body as Buffer);
    expect(text).toContain('Attestation d’assurance');
    expect(text).toMatch(/500 000 USD par voyageur/);
  });
});

describe("GET /policy-wording/{planId} in the reader's language", () => {
  const planId = 'polar-shield-standard';

  it('follows Accept-Language, says so (Content-Language), varies on it, and has one ETag per language', async () => {
    const en = await request(h.app).get(`/policy-wording/${planId}`);
    const de = await request(h.app).get(`/policy-wording/${planId}`).set('Accept-Language', 'de-AT, en;q=0.5');
    expect(de.status).toBe(200);
    expect(de.headers['vary']).toBe('Accept-Language');
    expect(en.headers['vary']).toBe('Accept-Language');
    expect(de.headers['content-language']).toBe('de');
    expect(de.text).toContain('<html lang="de">');
    for (const t of [
      'Polar Shield Standard: Versicherungsbedingungen',
      'Leistungen und Versicherungssummen',
      '100.000\u00a0USD',
      'Wichtigste Ausschlüsse',
      'Antarktis',
      getPlan(planId)!.name,
    ]) {
      expect(de.text).toContain(t);
    }
    expect(de.headers['etag']).not.toBe(en.headers['etag']);
    const again = await request(h.app)
      .get(`/policy-wording/${planId}`)
      .set('Accept-Language', 'de')
      .set('If-None-Match', de.headers['etag'] as string);
    expect(again.status).toBe(304);
    const otherLanguage = await request(h.app)
      .get(`/policy-wording/${planId}`)
      .set('Accept-Language', 'fr')
      .set('If-None-Match', de.headers['etag'] as string);
    expect(otherLanguage.status).toBe(200);
  });

  it('takes ?locale= over Accept-Language, and links the other languages', async () => {
    const res = await request(h.app).get(`/policy-wording/${planId}?locale=fr`).set('Accept-Language', 'de');
    expect(res.text).toContain('<html lang="fr">');
    expect(res.text).toContain('Polar Shield Standard\u00a0: conditions générales');
    expect(res.text).toContain('Garanties et plafonds');
    for (const l of LOCALES) expect(res.text).toContain(`href="${PUBLIC_URL}/policy-wording/${planId}?locale=${l}"`);
    expect(res.text).toContain(`href="${PUBLIC_URL}/policy-wording/${planId}.pdf?locale=fr"`);
  });

  (hasPdftotext ? it : it.skip)('serves the PDF in the language asked for', async () => {
    const res = await binary(`/policy-wording/${planId}.pdf?locale=es`);
    expect(res.headers['content-language']).toBe('es');
    const text = pdfText(res.body as Buffer);
    expect(text).toContain('Polar Shield Standard: condiciones generales');
    expect(text).toContain('Principales exclusiones');
    expect(text).toContain('100.000 USD');
  });
});

/**
 * The extraction check of the server-rendered pages: rendered in the pseudo-locale, every word a person reads is
 * accented, except data (names, numbers, codes, addresses, the languages' own names). An English word left means a
 * sentence was written in code instead of the catalogs.
 */
describe('no untranslated text on the policy page and the policy wording (pseudo-locale)', () => {
  const textNodes = (html: string) =>
    html
      .replace(/<style[^>]*>[\s\S]*?<\/style>/, '')
      .replace(/<title>[\s\S]*?<\/title>/, '')
      .split(/<[^>]+>/)
      .map((t) => t.replace(/&[a-z#0-9]+;/g, ' ').trim())
      .filter(Boolean);

  function untranslated(html: string, data: string[]): string[] {
    const names = Object.values(LANGUAGE_NAMES);
    return textNodes(html).filter((node) => {
      let rest = node;
      for (const d of [...data, ...names].sort((a, b) => b.length - a.length)) rest = rest.split(d).join(' ');
      rest = rest.replace(/https?:\/\/\S+|\S+@\S+/g, ' ').replace(/\b(USD|PDF|POL-[\w-]+|EXP-\w+|[A-Z]{2})\b/g, ' ');
      return /[A-Za-z]{2,}/.test(rest);
    });
  }

  it('the policy page', async () => {
    const policy = await policyBoughtIn('en');
    const res = await request(h.app).get(`${policy.pageUrl!.replace(PUBLIC_URL, '')}&locale=en-XA`);
    expect(res.text).toContain('<html lang="en-XA">');
    const data = [
      policy.plan.planName,
      policy.plan.carrier.replace(/ \(illustrative\)$/, ''),
      ASSISTANCE.provider,
      ...[policy.trip.startDate!, policy.trip.endDate!, policy.issuedAt].map((d) => formatDay(d, 'en')),
    ];
    expect(untranslated(res.text, data)).toEqual([]);
  });

  it('the checkout page and its receipt', async () => {
    const quote = await request(h.app).post('/api/v1/quotes').send(antarcticaQuote);
    const plan = (quote.body.plans as { planId: string; availabilityMode: string }[]).find(
      (p) => p.availabilityMode === 'full',
    )!;
    const res = await request(h.app)
      .post('/api/v1/checkout')
      .send({ quoteId: quote.body.quoteId, planId: plan.planId, sessionId: quote.body.sessionId });
    const link = new URL(res.body.checkoutUrl as string).pathname;
    const catalogPlan = getPlan(plan.planId)!;
    const data = [
      catalogPlan.name,
      catalogPlan.brand,
      quote.body.quoteNumber,
      '4242 4242 4242 4242',
      '4000 0000 0000 0002',
      '4000 0000 0000 9995',
      '10 Jan 2027',
      '24 Jan 2027',
    ];
    const page = await request(h.app).get(`${link}?locale=en-XA`);
    expect(page.text).toContain('<html lang="en-XA">');
    expect(untranslated(page.text.replace(/<script[\s\S]*?<\/script>/g, ''), data)).toEqual([]);
    const paid = await request(h.app)
      .post(`${link}?locale=en-XA`)
      .type('form')
      .send({ cardNumber: '4242424242424242', expiry: '12/30', cvc: '123' });
    const receipt = await request(h.app).get(paid.headers['location'] as string);
    const policyNumber = /id="policy-number" class="nowrap">([^<]+)</.exec(receipt.text)![1]!;
    expect(untranslated(receipt.text, [...data, policyNumber])).toEqual([]);
  });

  it.each(['polar-shield-standard', 'meridian-private-charter', 'austral-classic'])(
    'the policy wording of %s',
    async (planId) => {
      const res = await request(h.app).get(`/policy-wording/${planId}?locale=en-XA`);
      expect(res.text).toContain('<html lang="en-XA">');
      const plan = getPlan(planId)!;
      // Plan names are names (Austral Classic's description names the plan that replaced it); " and " joins the
      // destinations: Intl.ListFormat's English, as the pseudo-locale formats like English.
      const data = [
        plan.name,
        plan.carrier.replace(/ \(illustrative\)$/, ''),
        ASSISTANCE.provider,
        'Austral Voyager Basic',
        formatDay(WORDING_EDITION, 'en'),
        ' and ',
      ];
      expect(untranslated(res.text, data)).toEqual([]);
    },
  );
});
