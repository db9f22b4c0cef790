import request from 'supertest';
import { getPlan } from '@expedition/domain-pricing';
import { LANGUAGE_NAMES, LOCALES } from '@expedition/i18n';
import { ASSISTANCE } from '@expedition/policy-documents';
import { PUBLIC_URL } from './harness';
import {
  h,
  useTravelerLanguageHarness,
  hasPdftotext,
  pdfText,
  binary,
  policyBoughtIn,
} from './traveler-language-harness';

/** The policy page, the certificate and the policy wording in the traveler's (or the reader's) language. */
useTravelerLanguageHarness();

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
