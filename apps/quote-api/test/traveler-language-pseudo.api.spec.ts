import request from 'supertest';
import { getPlan } from '@expedition/domain-pricing';
import { formatDay, LANGUAGE_NAMES } from '@expedition/i18n';
import { ASSISTANCE, WORDING_EDITION } from '@expedition/policy-documents';
import { antarcticaQuote, PUBLIC_URL } from './harness';
import { h, useTravelerLanguageHarness, policyBoughtIn } from './traveler-language-harness';

/** No sentence written in code: the server-rendered pages in the pseudo-locale (en-XA). */
useTravelerLanguageHarness();

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
      // The carrier's name is a name; its "(illustrative)" is translated.
      catalogPlan.carrier.replace(/ \(illustrative\)$/, ''),
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
