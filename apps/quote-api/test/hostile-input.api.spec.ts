import request from 'supertest';
import { addDays, JSON_MAX_DEPTH, TRIP_DATE_WINDOW } from '@expedition/contracts';
import { antarcticaQuote, createHarness, type Harness } from './harness';

/**
 * Issue 7 §3: no input can half-write or 500. Every date is bounded (TRIP_DATE_WINDOW), strings PostgreSQL refuses and
 * absurd nesting are refused on every JSON route before any handler runs, and `operator` attributes by exact id only.
 * Each case checks the answer AND that nothing was written.
 */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

const TODAY = '2026-11-21'; // the harness clock's UTC day

async function written() {
  const prisma = h.db.prisma;
  return {
    quotes: await prisma.quote.count(),
    checkoutSessions: await prisma.checkoutSession.count(),
    idempotency: await prisma.idempotencyRecord.count(),
  };
}

async function expectInvalid(res: request.Response, path: string, before: Awaited<ReturnType<typeof written>>) {
  expect(res.status).toBe(400);
  expect(res.body).toMatchObject({ code: 'invalid_request', requestId: expect.any(String) });
  expect(res.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ path })]));
  expect(await written()).toEqual(before);
}

function nested(depth: number): unknown {
  let value: unknown = 'leaf';
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

const postQuote = (body: object) => request(h.app).post('/api/v1/quotes').send(body);

describe('POST /api/v1/quotes: dates within TRIP_DATE_WINDOW', () => {
  it.each([
    ['a departure in 9999', { startDate: '9999-01-01' }, 'startDate'],
    [
      'a departure one day past two years',
      { startDate: addDays(TODAY, TRIP_DATE_WINDOW.maxDaysAhead + 1) },
      'startDate',
    ],
    ['a departure yesterday', { startDate: addDays(TODAY, -1) }, 'startDate'],
    ['a trip longer than 365 days', { durationDays: TRIP_DATE_WINDOW.maxTripDays + 1 }, 'durationDays'],
    ['a deposit paid tomorrow', { depositPaidDate: addDays(TODAY, 1) }, 'depositPaidDate'],
    ['a deposit paid more than two years ago', { depositPaidDate: addDays(TODAY, -731) }, 'depositPaidDate'],
    ['a deposit paid in year 1', { depositPaidDate: '0001-01-01' }, 'depositPaidDate'],
    ['an age over 120', { travelerAges: [45, 121] }, 'travelerAges.1'],
  ])('answers 400 naming the field for %s, and stores no quote', async (_what, patch, path) => {
    const before = await written();
    await expectInvalid(await postQuote({ ...antarcticaQuote, ...patch }), path, before);
  });

  it('answers 200 for a departure today and for one exactly two years ahead, storing the priced end date', async () => {
    const today = await postQuote({ ...antarcticaQuote, startDate: TODAY, durationDays: 1 });
    expect(today.status).toBe(200);
    expect(today.body.tripSummary).toMatchObject({ startDate: TODAY, endDate: addDays(TODAY, 1) });
    const last = addDays(TODAY, TRIP_DATE_WINDOW.maxDaysAhead);
    const far = await postQuote({
      ...antarcticaQuote,
      startDate: last,
      durationDays: 365,
      depositPaidDate: addDays(TODAY, -730),
    });
    expect(far.status).toBe(200);
    const stored = await h.db.prisma.quote.findUniqueOrThrow({ where: { id: far.body.quoteId } });
    expect(stored.endDate?.toISOString().slice(0, 10)).toBe(addDays(last, 365));
  });

  it('takes today from the injected clock', async () => {
    const later = await createHarness();
    later.clock.advance(24 * 3600 * 1000);
    const res = await request(later.app)
      .post('/api/v1/quotes')
      .send({ ...antarcticaQuote, startDate: TODAY });
    expect(res.status).toBe(400);
    expect(res.body.details[0]).toEqual({ path: 'startDate', message: 'is in the past' });
    await later.close();
  });
});

describe('unstorable strings and deep nesting → 400 invalid_request naming the path, on every JSON route', () => {
  let quote: { quoteId: string; sessionId: string; plans: { planId: string }[] };
  beforeAll(async () => {
    quote = (await postQuote(antarcticaQuote)).body;
  });
  const checkout = (patch: object) => ({
    quoteId: quote.quoteId,
    planId: quote.plans[0]!.planId,
    sessionId: quote.sessionId,
    ...patch,
  });

  it.each([
    ['/quotes', () => ({ ...antarcticaQuote, operator: 'Polar\u0000Horizons' }), 'operator'],
    ['/quotes', () => ({ ...antarcticaQuote, operator: 'Polar \uD800' }), 'operator'],
    ['/quotes', () => ({ ...antarcticaQuote, email: 'a\u0000@example.com' }), 'email'],
    ['/quotes', () => ({ ...antarcticaQuote, unknownField: '\uDFFF' }), 'unknownField'],
    [
      '/quotes',
      () => ({ ...antarcticaQuote, extra: nested(100) }),
      'extra.' +
        Array(JSON_MAX_DEPTH - 1)
          .fill(0)
          .join('.'),
    ],
    ['/checkout', () => checkout({ agentSummary: 'Two divers\u0000' }), 'agentSummary'],
    ['/checkout', () => checkout({ guestNames: ['Ana Ruiz', 'Bo\u0000b'] }), 'guestNames.1'],
    ['/checkout', () => checkout({ guestNames: ['\uD83D'] }), 'guestNames.0'],
    ['/coverage-gap', () => ({ destination: 'Antarctica', creditCardName: 'Chase\u0000' }), 'creditCardName'],
    ['/purchase', () => ({ quoteId: quote.quoteId, planId: 'p\u0000' }), 'planId'],
  ])('POST %s', async (route, body, path) => {
    const before = await written();
    await expectInvalid(await request(h.app).post(`/api/v1${route}`).send(body()), path, before);
    expect((await h.db.prisma.quote.findUniqueOrThrow({ where: { id: quote.quoteId } })).status).toBe('quoted');
  });

  it('accepts text that needs surrogate pairs and nesting up to the limit', async () => {
    const res = await postQuote({ ...antarcticaQuote, operator: 'Åsa Øberg 🐧', extra: nested(JSON_MAX_DEPTH - 1) });
    expect(res.status).toBe(200);
    expect(res.body.tripSummary.operator).toBe('Åsa Øberg 🐧');
  });

  it.each([
    ['/quotes', () => ({ ...antarcticaQuote, operator: 'x'.repeat(201) }), 'operator'],
    ['/checkout', () => checkout({ agentSummary: 'x'.repeat(4001) }), 'agentSummary'],
    ['/checkout', () => checkout({ guestNames: Array(21).fill('Ana') }), 'guestNames'],
    ['/checkout', () => checkout({ guestNames: ['x'.repeat(201)] }), 'guestNames.0'],
    ['/checkout', () => checkout({ email: `${'x'.repeat(250)}@example.com` }), 'email'],
  ])('caps free text: POST %s over its limit', async (route, body, path) => {
    const before = await written();
    await expectInvalid(await request(h.app).post(`/api/v1${route}`).send(body()), path, before);
  });
});

describe('POST /api/v1/quotes: operator attribution by exact id only', () => {
  const row = (id: string) => h.db.prisma.quote.findUniqueOrThrow({ where: { id } });

  it('does not attribute "%" (or any other LIKE pattern) to the demo operator', async () => {
    await h.db.prisma.operator.create({ data: { name: 'Polar Horizons Expeditions (demo)', status: 'active' } });
    for (const operator of ['%', '_%', 'Polar%', '%(demo)']) {
      const res = await postQuote({ ...antarcticaQuote, operator });
      expect(res.status).toBe(200);
      expect(await row(res.body.quoteId)).toMatchObject({ operatorId: null, operatorName: operator });
      expect(res.body.tripSummary.operator).toBe(operator);
    }
  });

  it("attributes a quote whose operator is an active operator's id, exactly", async () => {
    const demo = await h.db.prisma.operator.create({
      data: { name: 'Polar Horizons Expeditions (demo)', status: 'active' },
    });
    const res = await postQuote({ ...antarcticaQuote, operator: demo.id });
    expect(res.status).toBe(200);
    expect(await row(res.body.quoteId)).toMatchObject({ operatorId: demo.id, operatorName: demo.id });
    const upper = await postQuote({ ...antarcticaQuote, operator: demo.id.toUpperCase() });
    expect((await row(upper.body.quoteId)).operatorId).toBeNull();
    const byName = await postQuote({ ...antarcticaQuote, operator: demo.name });
    expect((await row(byName.body.quoteId)).operatorId).toBeNull();
  });

  it('does not attribute to a suspended operator, even by id', async () => {
    const dormant = await h.db.prisma.operator.create({ data: { name: 'Dormant Voyages', status: 'suspended' } });
    const res = await postQuote({ ...antarcticaQuote, operator: dormant.id });
    expect((await row(res.body.quoteId)).operatorId).toBeNull();
  });
});
