import request from 'supertest';
import { EMBED_INVALID_FIELDS_ERROR, JSON_MAX_DEPTH } from '@expedition/contracts';
import { expectCors, expectNoCors, fullQuote, OTHER_SITE_ORIGIN, SITE_ORIGIN } from './harness';
import { h, mine, useOneTenant } from './tenants-harness';

/**
 * Strings PostgreSQL refuses (NUL, unpaired UTF-16 surrogates) and absurd nesting are refused on every JSON route of
 * the embed API after the gate (docs/contract.md "Publishable keys and the gate": gate first), with the spec's 400
 * and CORS headers, and write nothing.
 */
useOneTenant();

const post = (path: string, body: unknown, key = mine.testKey, origin = SITE_ORIGIN) =>
  request(h.app)
    .post(path)
    .set('X-SVC-Publishable-Key', key)
    .set('Origin', origin)
    .send(body as object);

function nested(depth: number): unknown {
  let value: unknown = 'leaf';
  for (let i = 0; i < depth; i++) value = { deeper: value };
  return value;
}

async function counts() {
  return { quotes: await h.prisma.quote.count(), payments: await h.prisma.payment.count() };
}

async function expectRefused(res: request.Response, before: { quotes: number; payments: number }) {
  expect(res.status).toBe(400);
  expect(res.body).toEqual({ error: EMBED_INVALID_FIELDS_ERROR });
  expectCors(res, SITE_ORIGIN);
  expect(await counts()).toEqual(before);
}

describe('POST /api/embed/quote: unstorable input → 400 Missing or invalid required fields (with CORS), nothing written', () => {
  it.each([
    ['NUL in name', { name: 'Ana\u0000Ruiz' }],
    ['NUL in email', { email: 'a\u0000@example.com' }],
    ['NUL in destination', { destination: 'Antarctica\u0000' }],
    ['a lone high surrogate in name', { name: 'Ana \uD800' }],
    ['a lone low surrogate in phone', { phone: '\uDC00555' }],
    ['NUL in an unknown field', { note: '\u0000' }],
    ['NUL in otherCountries', { otherCountries: ['AR', 'F\u0000K'] }],
    [`nesting ${100} levels deep`, { extra: nested(100) }],
  ])('%s', async (_what, patch) => {
    const before = await counts();
    await expectRefused(await post('/api/embed/quote', { ...fullQuote, ...patch }), before);
  });

  it(`accepts nesting up to ${JSON_MAX_DEPTH} levels and names that need surrogate pairs`, async () => {
    const res = await post('/api/embed/quote', { ...fullQuote, name: 'Åsa 🐧', extra: nested(JSON_MAX_DEPTH - 1) });
    expect(res.status).toBe(200);
  });

  it('caps free text: a name over 200 characters is refused', async () => {
    const before = await counts();
    await expectRefused(await post('/api/embed/quote', { ...fullQuote, name: 'x'.repeat(201) }), before);
  });

  it('runs the gate first: no key → bare 401, foreign origin → bare 403, whatever the body holds', async () => {
    const body = { ...fullQuote, name: '\u0000' };
    const noKey = await request(h.app).post('/api/embed/quote').set('Origin', SITE_ORIGIN).send(body);
    expect(noKey.status).toBe(401);
    expectNoCors(noKey);
    const foreign = await post('/api/embed/quote', body, mine.testKey, OTHER_SITE_ORIGIN);
    expect(foreign.status).toBe(403);
    expectNoCors(foreign);
  });
});

describe('Tier 3 payment routes: unstorable input → the same 400, nothing written', () => {
  it.each([
    ['/api/embed/payments', { quoteId: '7d1f2c3a-1111-4222-8333-944455556666', planId: 'polar\u0000' }],
    ['/api/embed/payments', { quoteId: '\uD800', planId: 'p' }],
    ['/api/embed/payments/confirm', { paymentId: 'pi_\u0000', paymentMethod: '4242424242424242' }],
    ['/api/embed/payments/authenticate', { paymentId: 'pi_1', approve: true, extra: nested(100) }],
  ])('%s %j', async (path, body) => {
    const before = await counts();
    await expectRefused(await post(path, body), before);
  });
});
