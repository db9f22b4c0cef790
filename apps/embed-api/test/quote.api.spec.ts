import request from 'supertest';
import pino from 'pino';
import { EmbedQuoteResultSchema } from '@expedition/contracts';
import type { PrismaClient } from '@expedition/db';
import { createHarness, expectCors, fullQuote, seedTenant, SITE_ORIGIN, type Harness } from './harness';

let h: Harness;
let tenant: Awaited<ReturnType<typeof seedTenant>>;

beforeAll(async () => {
  h = await createHarness();
  tenant = await seedTenant(h.prisma);
});
afterAll(() => h.close());

const INVALID = { error: 'Missing or invalid required fields' };

function post(body?: unknown, key = tenant.testKey, app = h.app) {
  const req = request(app).post('/api/embed/quote').set('X-SVC-Publishable-Key', key).set('Origin', SITE_ORIGIN);
  return body === undefined ? req : req.send(body as object);
}

async function created(body: object, key = tenant.testKey) {
  const res = await post(body, key);
  expect(res.status).toBe(200);
  return h.prisma.quote.findUniqueOrThrow({ where: { id: res.body.quoteId }, include: { estimates: true } });
}

async function expectInvalid(res: request.Response) {
  expect(res.status).toBe(400);
  expect(res.body).toEqual(INVALID);
  expectCors(res, SITE_ORIGIN);
}

describe('POST /api/embed/quote: success and attribution', () => {
  it('creates the quote and answers { quoteId, quoteNumber, instantQuoteEligible }', async () => {
    const res = await post(fullQuote);
    expect(res.status).toBe(200);
    expectCors(res, SITE_ORIGIN);
    const body = EmbedQuoteResultSchema.parse(res.body);
    expect(Object.keys(res.body).sort()).toEqual(['instantQuoteEligible', 'quoteId', 'quoteNumber']);
    expect(body.quoteNumber).toMatch(/^EXP-[23456789ABCDEFGHJKMNPQRSTVWXYZ]{4}$/);
    expect(body.instantQuoteEligible).toBe(true);

    const stored = await h.prisma.quote.findUniqueOrThrow({
      where: { id: body.quoteId },
      include: { estimates: true },
    });
    expect(stored).toMatchObject({
      quoteNumber: body.quoteNumber,
      source: 'embed',
      operatorId: tenant.operatorId,
      mode: 'test',
      destinationSlug: 'antarctica',
      tripCostCents: 2_400_000,
      currency: 'USD',
      travelers: 2,
      travelerAges: [45, 52],
      durationDays: 14,
      durationDefaulted: false,
      residence: 'GB',
      email: 'traveler@example.com',
      name: 'Embedded quote',
      instantQuoteEligible: true,
      optionsStatus: 'pending',
    });
    expect(stored.startDate?.toISOString().slice(0, 10)).toBe('2027-01-10');
    expect(stored.endDate?.toISOString().slice(0, 10)).toBe('2027-01-24');
    expect(stored.estimates.length).toBeGreaterThan(0);
  });

  it("attributes a live key's quote to the operator in live mode", async () => {
    const stored = await created(fullQuote, tenant.liveKey);
    expect(stored).toMatchObject({ operatorId: tenant.operatorId, mode: 'live', source: 'embed' });
  });

  it('stores the optional facts (phone, state, other countries, currency) normalized', async () => {
    const stored = await created({
      ...fullQuote,
      residence: 'us',
      state: 'ca',
      currency: 'usd',
      phone: ' +1 555 0100 ',
      otherCountries: ['AR', 'FK'],
      name: '  Ana Ruiz ',
    });
    expect(stored).toMatchObject({
      residence: 'US',
      state: 'CA',
      currency: 'USD',
      phone: '+1 555 0100',
      otherCountries: ['AR', 'FK'],
      name: 'Ana Ruiz',
    });
  });

  it("records the traveler's language: `locale` (MountConfig.locale) by language, else the browser's Accept-Language, else English", async () => {
    expect((await created({ ...fullQuote, locale: 'de-AT' })).locale).toBe('de');
    const fromBrowser = await post(fullQuote).set('Accept-Language', 'es-ES,es;q=0.9,en;q=0.8');
    expect((await h.prisma.quote.findUniqueOrThrow({ where: { id: fromBrowser.body.quoteId } })).locale).toBe('es');
    expect((await created({ ...fullQuote, locale: 'pt-BR' })).locale).toBe('en');
    expect((await created(fullQuote)).locale).toBe('en');
  });

  it('reads tripCost as whole dollars for all travelers (not per traveler, not cents)', async () => {
    expect((await created({ ...fullQuote, tripCost: 18_500, travelers: 2 })).tripCostCents).toBe(1_850_000);
    expect((await created({ ...fullQuote, tripCost: 0 })).tripCostCents).toBe(0);
  });
});

describe('POST /api/embed/quote: 400 Missing or invalid required fields (with CORS)', () => {
  it.each(['destination', 'tripCost', 'travelers', 'residence', 'email'])(
    'when %s is missing, storing nothing',
    async (field) => {
      const before = await h.prisma.quote.count();
      const body: Record<string, unknown> = { ...fullQuote };
      delete body[field];
      await expectInvalid(await post(body));
      expect(await h.prisma.quote.count()).toBe(before);
    },
  );

  it.each([
    ['destination', 42],
    ['destination', ''],
    ['tripCost', '24000'],
    ['tripCost', -1],
    ['travelers', '2'],
    ['travelers', 1.5],
    ['travelers', 0],
    ['residence', 44],
    ['email', 'not-an-email'],
    ['email', null],
    ['startDate', '2027-13-01'],
    ['endDate', 20270124],
    ['durationDays', '14'],
    ['currency', 5],
    ['otherCountries', 'AR'],
    ['travelerAges', 'x'],
    ['travelerAges', [45, '52']],
    ['travelerDobs', [19800111]],
    ['state', 6],
    ['name', 5],
    ['phone', false],
  ])('when %s is %j (wrong type)', async (field, value) => {
    await expectInvalid(await post({ ...fullQuote, [field]: value }));
  });

  it('when the body is missing, not an object, or not JSON', async () => {
    await expectInvalid(await post());
    await expectInvalid(await post([fullQuote]));
    for (const raw of ['{"destination": "Antarctica",', 'null', '"text"', 'destination=Antarctica']) {
      await expectInvalid(await post().set('Content-Type', 'application/json').send(raw));
    }
  });

  it.each(['utf-16', 'utf-16le', 'utf-7', 'iso-8859-1'])(
    'when the body declares charset=%s (UTF-8 only, like every JSON body)',
    async (charset) => {
      const raw = JSON.stringify(fullQuote);
      const bytes = charset.startsWith('utf-16') ? Buffer.from(raw, 'utf16le') : Buffer.from(raw, 'latin1');
      await expectInvalid(await post().set('Content-Type', `application/json; charset=${charset}`).send(bytes));
    },
  );

  it('when the body is larger than 16 KiB', async () => {
    await expectInvalid(await post({ ...fullQuote, name: 'x'.repeat(17 * 1024) }));
  });

  it('reads a JSON body whatever its content type says', async () => {
    const res = await post().set('Content-Type', 'text/plain').send(JSON.stringify(fullQuote));
    expect(res.status).toBe(200);
  });
});

describe('POST /api/embed/quote: derived fields', () => {
  it('computes durationDays as whole days between the dates when it is missing, 0 or negative', async () => {
    const dates = { startDate: '2027-01-10', endDate: '2027-01-22' };
    for (const durationDays of [undefined, 0, -5]) {
      const stored = await created({ ...fullQuote, ...dates, durationDays });
      expect(stored).toMatchObject({ durationDays: 12, durationDefaulted: false, instantQuoteEligible: true });
    }
  });

  it('keeps a positive durationDays as given without an end date, and stores the end date it priced', async () => {
    const stored = await created({ ...fullQuote, endDate: undefined, durationDays: 9 });
    expect(stored).toMatchObject({ durationDays: 9, durationDefaulted: false });
    expect(stored.endDate?.toISOString().slice(0, 10)).toBe('2027-01-19');
  });

  it('accepts both dates with a durationDays that matches them, storing the dates as priced', async () => {
    const stored = await created({ ...fullQuote, startDate: '2027-01-10', endDate: '2027-01-24', durationDays: 14 });
    expect(stored).toMatchObject({ durationDays: 14, durationDefaulted: false, instantQuoteEligible: true });
    expect(stored.startDate?.toISOString().slice(0, 10)).toBe('2027-01-10');
    expect(stored.endDate?.toISOString().slice(0, 10)).toBe('2027-01-24');
  });

  it('accepts a departure from today (UTC, by the server clock) to 730 days ahead', async () => {
    const today = await created({ ...fullQuote, startDate: '2026-11-21', endDate: '2026-11-28' });
    expect(today).toMatchObject({ durationDays: 7 });
    expect(today.startDate?.toISOString().slice(0, 10)).toBe('2026-11-21');
    const last = await created({ ...fullQuote, startDate: '2028-11-20', endDate: '2029-11-20' });
    expect(last).toMatchObject({ durationDays: 365 });
  });

  it('uses 0 ("not given": the destination default, lower confidence, not instant) without both dates', async () => {
    const onlyStart = await created({ ...fullQuote, endDate: undefined });
    expect(onlyStart).toMatchObject({
      durationDays: 14,
      durationDefaulted: true,
      instantQuoteEligible: false,
      optionsStatus: 'not_eligible',
    });
    expect(onlyStart.estimates.every((e) => e.confidence !== 'high')).toBe(true);
    const safari = await created({
      ...fullQuote,
      destination: 'african-safari',
      startDate: undefined,
      endDate: undefined,
    });
    expect(safari).toMatchObject({ durationDays: 12, durationDefaulted: true });
    expect(onlyStart.endDate?.toISOString().slice(0, 10)).toBe('2027-01-24');
  });

  it('zero-fills travelerAges to `travelers` when omitted (unknown ages: lower confidence, not instant)', async () => {
    const res = await post({ ...fullQuote, travelers: 3, travelerAges: undefined });
    expect(res.status).toBe(200);
    expect(res.body.instantQuoteEligible).toBe(false);
    const stored = await h.prisma.quote.findUniqueOrThrow({
      where: { id: res.body.quoteId },
      include: { estimates: true },
    });
    expect(stored.travelerAges).toHaveLength(3);
    expect(stored.optionsStatus).toBe('not_eligible');
    expect(stored.estimates.every((e) => e.confidence !== 'high')).toBe(true);
  });

  it('resolves travelerDobs to ages at departure on the server', async () => {
    const stored = await created({
      ...fullQuote,
      startDate: '2027-01-10',
      travelerAges: undefined,
      travelerDobs: ['1980-01-11', '1956-01-10'],
    });
    expect(stored.travelerAges).toEqual([46, 71]);
    expect(stored.instantQuoteEligible).toBe(true);
  });

  it("resolves travelerDobs against today (the server's clock) when there is no start date", async () => {
    const stored = await created({
      ...fullQuote,
      startDate: undefined,
      endDate: undefined,
      travelerAges: undefined,
      travelerDobs: ['2000-11-21', '2000-11-22'],
    });
    expect(stored.travelerAges).toEqual([26, 25]);
  });

  it('lets an explicit age win over a date of birth, and a date of birth fill a zero age', async () => {
    const stored = await created({ ...fullQuote, travelerAges: [40, 0], travelerDobs: ['1980-01-11', '1950-01-01'] });
    expect(stored.travelerAges).toEqual([40, 77]);
  });

  it('defaults the name to "Embedded quote" when blank', async () => {
    for (const name of [undefined, '', '   '])
      expect((await created({ ...fullQuote, name })).name).toBe('Embedded quote');
  });

  it('finds the destination by slug or by name', async () => {
    const cases: [string, string][] = [
      ['african-safari', 'african-safari'],
      ['African Safari', 'african-safari'],
      ['galapagos', 'galapagos'],
      ['Galápagos', 'galapagos'],
      ['ARCTIC', 'arctic'],
    ];
    for (const [destination, slug] of cases) {
      expect((await created({ ...fullQuote, residence: 'GB', destination })).destinationSlug).toBe(slug);
    }
  });
});

describe('POST /api/embed/quote: downstream failures → 400 { error: <reason> } (with CORS)', () => {
  it.each([
    [{ destination: 'Atlantis' }, 'Unknown destination "Atlantis".'],
    [{ startDate: '2026-11-20', endDate: '2026-11-30' }, 'startDate is in the past'],
    [{ currency: 'EUR' }, 'only USD trip costs can be priced'],
    [{ travelerAges: [45] }, 'travelerAges has 1 entries for 2 travelers'],
    [{ residence: 'Britain' }, 'residence must be an ISO 3166-1 alpha-2 country code such as US or GB'],
    [
      { travelerAges: undefined, travelerDobs: ['1980-01-01', '1981-01-01', '1982-01-01'] },
      'travelerDobs has 3 entries for 2 travelers',
    ],
    [{ travelerAges: undefined, travelerDobs: ['1980-01-01', '2027-02-01'] }, 'travelerDobs.1 is in the future'],
    [
      { travelerAges: undefined, travelerDobs: ['1980-01-01', '1905-11-21'] },
      'travelerDobs.1 gives an age over 120 today',
    ],
    // Date window (TRIP_DATE_WINDOW): departure from today to 730 days ahead, trip of 1 to 365 days.
    [{ startDate: '9999-01-01', endDate: '9999-01-15' }, 'startDate must be at most 730 days after today'],
    // The clock's today is 2026-11-21; 730 days later is 2028-11-20 (2028 is a leap year): one day past it.
    [{ startDate: '2028-11-21', endDate: '2028-11-30' }, 'startDate must be at most 730 days after today'],
    [{ startDate: '2027-01-10', endDate: '2027-01-01' }, 'endDate must be after startDate'],
    [{ startDate: '2027-01-10', endDate: '2027-01-10' }, 'endDate must be after startDate'],
    [{ startDate: '2027-01-10', endDate: '2028-01-11' }, 'endDate must be at most 365 days after startDate'],
    [{ startDate: undefined, endDate: '9999-12-31' }, 'endDate must be 1 to 1095 days after today'],
    [
      { startDate: '2027-01-10', endDate: '2027-01-24', durationDays: 1 },
      'durationDays does not match startDate and endDate',
    ],
    [
      { startDate: '2027-01-10', endDate: '2027-01-24', durationDays: 365 },
      'durationDays does not match startDate and endDate',
    ],
    [
      { startDate: '2027-01-10', endDate: undefined, durationDays: 366 },
      'durationDays must be a whole number of days up to 365',
    ],
  ])('%j → %s', async (patch, message) => {
    const before = await h.prisma.quote.count();
    const res = await post({ ...fullQuote, ...patch });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: message });
    expectCors(res, SITE_ORIGIN);
    expect(await h.prisma.quote.count()).toBe(before);
  });

  it('answers "Quote could not be created" for an internal failure, without leaking its message', async () => {
    const broken = new Proxy(h.prisma, {
      get(target, prop, receiver) {
        // Quote creation writes with one raw statement ($queryRaw); anything transactional fails the same way.
        if (prop === '$transaction' || prop === '$queryRaw')
          return () => Promise.reject(new Error('connection to server lost (secret detail)'));
        return Reflect.get(target, prop, receiver);
      },
    }) as PrismaClient;
    const other = await createHarness({ db: h.db, deps: { prisma: broken } });
    const res = await post(fullQuote, tenant.testKey, other.app);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'Quote could not be created' });
    expectCors(res, SITE_ORIGIN);
  });

  it('logs a database outage once, not once per failed quote (docs/runbooks.md, DatabaseUnreachable)', async () => {
    const refused = () =>
      Promise.reject(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }));
    const down = new Proxy(h.prisma, {
      get: (target, prop, receiver) =>
        prop === '$transaction' || prop === '$queryRaw' ? refused : Reflect.get(target, prop, receiver),
    }) as PrismaClient;
    const lines: Record<string, unknown>[] = [];
    const logger = pino({ level: 'info' }, { write: (l: string) => lines.push(JSON.parse(l)) });
    const other = await createHarness({ db: h.db, deps: { prisma: down, logger } });
    for (let i = 0; i < 3; i++) expect((await post(fullQuote, tenant.testKey, other.app)).status).toBe(400);
    const failed = lines.filter((l) => l['msg'] === 'embed quote could not be created');
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ dependencyUnavailable: true, unloggedSinceLastLine: 0 });
    expect(lines.filter((l) => l['msg'] === 'request completed')).toHaveLength(3);
  });
});
